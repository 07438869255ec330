// Small DOM builders for the chat view. Text only ever goes in through `textContent`: document
// and model text never become markup.

export function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A codicon, hidden from screen readers (the text beside it says the same). */
export function icon(doc: Document, name: string): HTMLElement {
  return element(doc, 'span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** A button with an icon and a visible label. */
export function button(
  doc: Document,
  testId: string,
  iconName: string,
  label: string,
  onClick: () => void,
  extra: Record<string, string> = {},
): HTMLButtonElement {
  const b = element(doc, 'button', { type: 'button', class: 'action', 'data-testid': testId, title: label, ...extra });
  b.append(icon(doc, iconName), element(doc, 'span', { class: 'action-label' }, label));
  b.addEventListener('click', onClick);
  return b;
}

/** Runs `action` on click and on Enter or Space, for elements that act as buttons. */
export function activate(el: HTMLElement, action: () => void): void {
  el.addEventListener('click', (event) => {
    event.preventDefault();
    action();
  });
  el.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      action();
    }
  });
}
