// Roving tabindex: a group of focusable items (the chips of one answer, the buttons of a
// toolbar) is one Tab stop; the arrow keys, Home and End move between its items. The item that
// last had focus keeps the stop, so Tab comes back to where the user was. Listeners live on
// the group's own element and go away with it when the turn is re-rendered.

const NEXT = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS = new Set(['ArrowLeft', 'ArrowUp']);

/** Makes the items matching `selector` inside `group` one Tab stop with arrow-key movement. */
export function rovingGroup(group: HTMLElement, selector: string): void {
  const items = (): HTMLElement[] => Array.from(group.querySelectorAll<HTMLElement>(selector));
  const all = items();
  all.forEach((item, i) => item.setAttribute('tabindex', i === 0 ? '0' : '-1'));
  group.addEventListener('focusin', (event) => {
    const target = event.target as HTMLElement | null;
    const list = items();
    if (!target || !list.includes(target)) return;
    for (const item of list) item.setAttribute('tabindex', item === target ? '0' : '-1');
  });
  group.addEventListener('keydown', (event) => {
    const list = items();
    const at = list.indexOf(event.target as HTMLElement);
    if (at < 0) return;
    let to: number | undefined;
    if (NEXT.has(event.key)) to = (at + 1) % list.length;
    else if (PREVIOUS.has(event.key)) to = (at - 1 + list.length) % list.length;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = list.length - 1;
    if (to === undefined) return;
    event.preventDefault();
    list[to].focus();
  });
}
