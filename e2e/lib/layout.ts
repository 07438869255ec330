// The chat view's layout as rendered at the width under test: does anything overflow sideways,
// how many boxes scroll vertically, does every source show its whole file name and line range,
// and does the question box's placeholder fit. The page reports geometry; the verdicts are here.

import type { FrameLocator } from 'playwright-core';

export interface SourceShown {
  what: string;
  name: string;
  lines: string;
  /** The element is cut by its own box or an ancestor that clips. */
  nameClipped: boolean;
  linesClipped: boolean;
}

export interface ChatLayout {
  viewWidth: number;
  /** How far the page is wider than the view (0: no horizontal scrollbar). */
  pageOverflowX: number;
  /** Boxes that scroll sideways, or elements reaching past the view's right edge. */
  overflowX: string[];
  /** Visible boxes that scroll vertically now (the page itself counts as "page"). */
  verticalScrollers: string[];
  sources: SourceShown[];
  placeholder: { text: string; neededPx: number; availablePx: number };
  /** Height of the header (model, retrieval, index, notices) in px. */
  headerPx: number;
}

export async function measureChatLayout(frame: FrameLocator): Promise<ChatLayout> {
  return frame.locator('body').evaluate((body): ChatLayout => {
    const root = document.documentElement;
    const viewWidth = root.clientWidth;
    const describe = (el: Element) =>
      `${el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName.toLowerCase()} ${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ').join('.')}`;
    const shown = (el: Element) => el.getClientRects().length > 0 && el.closest('[hidden]') === null;
    const overflowX: string[] = [];
    const verticalScrollers: string[] = [];
    if (root.scrollHeight > root.clientHeight + 1)
      verticalScrollers.push(`page (${root.scrollHeight} > ${root.clientHeight})`);
    for (const el of Array.from(body.querySelectorAll<HTMLElement>('*'))) {
      if (!shown(el)) continue;
      const style = getComputedStyle(el);
      const rect = el.getBoundingClientRect();
      // Previews are placed inside the view by their own code (fixed position): their box is measured like the rest.
      if (rect.width > 0 && rect.right > viewWidth + 0.5 && !el.closest('.visually-hidden'))
        overflowX.push(`${describe(el)} reaches ${Math.round(rect.right)} px`);
      const scrollsX =
        (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
      if (scrollsX) overflowX.push(`${describe(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
      const scrollsY =
        (style.overflowY === 'auto' || style.overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1;
      if (scrollsY) verticalScrollers.push(`${describe(el)} (${el.scrollHeight} > ${el.clientHeight})`);
    }
    // Cut: wider than its own box, or reaching past an ancestor that clips.
    const clipped = (el: Element | null): boolean => {
      if (!el) return true;
      if (el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1) return true;
      const rect = el.getBoundingClientRect();
      for (let a = el.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const box = a.getBoundingClientRect();
        if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) return true;
      }
      return false;
    };
    const sources: SourceShown[] = [];
    for (const row of Array.from(body.querySelectorAll('[data-testid="source"]'))) {
      const name = row.querySelector('[data-testid="source-name"]');
      const lines = row.querySelector('[data-testid="source-lines"]');
      if (!name || !lines) continue;
      sources.push({
        what: 'source row',
        name: name.textContent ?? '',
        lines: lines.textContent ?? '',
        nameClipped: clipped(name),
        linesClipped: clipped(lines),
      });
    }
    for (const chip of Array.from(body.querySelectorAll('[data-testid="closest-passage"]'))) {
      const name = chip.querySelector('.chip-name');
      const lines = chip.querySelector('.chip-lines');
      sources.push({
        what: 'closest passage',
        name: name?.textContent ?? '',
        lines: lines?.textContent ?? '',
        nameClipped: clipped(name),
        linesClipped: clipped(lines),
      });
    }
    // The placeholder laid out in a copy of the question box's text area: the height it needs.
    const input = body.querySelector<HTMLTextAreaElement>('[data-testid="chat-input"]');
    let placeholder = { text: '', neededPx: 0, availablePx: 0 };
    if (input) {
      const style = getComputedStyle(input);
      const probe = document.createElement('div');
      const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const padY = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
      Object.assign(probe.style, {
        position: 'absolute',
        visibility: 'hidden',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'break-word',
        width: `${input.clientWidth - padX}px`,
        font: style.font,
        lineHeight: style.lineHeight,
        letterSpacing: style.letterSpacing,
      });
      probe.textContent = input.placeholder;
      body.append(probe);
      placeholder = {
        text: input.placeholder,
        neededPx: probe.getBoundingClientRect().height,
        availablePx: input.clientHeight - padY,
      };
      probe.remove();
    }
    const headerPx = Math.round(body.querySelector('[data-testid="chat-header"]')?.getBoundingClientRect().height ?? 0);
    return {
      viewWidth,
      pageOverflowX: Math.max(0, root.scrollWidth - root.clientWidth),
      overflowX,
      verticalScrollers,
      sources,
      placeholder,
      headerPx,
    };
  });
}

/** What is wrong with a layout, in words (empty: nothing). */
export function layoutProblems(layout: ChatLayout): string[] {
  const problems: string[] = [];
  if (layout.pageOverflowX > 0) problems.push(`the page is ${layout.pageOverflowX} px wider than the view`);
  problems.push(...layout.overflowX.map((o) => `sideways: ${o}`));
  if (layout.verticalScrollers.length > 1)
    problems.push(`${layout.verticalScrollers.length} vertical scrollbars: ${layout.verticalScrollers.join('; ')}`);
  for (const s of layout.sources) {
    if (!/\.md$/.test(s.name) || s.nameClipped)
      problems.push(`${s.what}: file name "${s.name}" ${s.nameClipped ? 'is cut' : 'lacks .md'}`);
    if (!/^(·\s*)?lines? \d+(–\d+)?$/.test(s.lines.trim()) || s.linesClipped)
      problems.push(`${s.what} ${s.name}: line range "${s.lines}" ${s.linesClipped ? 'is cut' : 'is not whole'}`);
  }
  if (layout.placeholder.neededPx > layout.placeholder.availablePx + 1) {
    problems.push(
      `the placeholder "${layout.placeholder.text}" needs ${Math.round(layout.placeholder.neededPx)} px, the question box shows ${Math.round(layout.placeholder.availablePx)} px`,
    );
  }
  return problems;
}
