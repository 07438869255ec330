// Contrast as WCAG 2 defines it, measured on what the chat view actually renders: every visible
// piece of text against the background it sits on (semi-transparent layers composited), chip
// borders and the focus ring against theirs. The page only reports computed colours; the maths
// is here.

import type { FrameLocator } from 'playwright-core';

export type Rgba = [number, number, number, number];

export function parseColor(css: string): Rgba | undefined {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(css.trim());
  if (!m) return undefined;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), alpha];
}

/** `top` drawn over the opaque colour `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The opaque colour of a stack of backgrounds, innermost first (the page's own is the last). */
export function flatten(layers: string[]): Rgba {
  const parsed = layers.map(parseColor).filter((c): c is Rgba => c !== undefined);
  let colour: Rgba = [255, 255, 255, 1];
  for (const layer of parsed.reverse()) colour = over(layer, colour);
  return colour;
}

interface RawSample {
  kind: 'text' | 'placeholder' | 'chip-border' | 'checkbox-border' | 'box-border' | 'focus-ring';
  what: string;
  colour: string;
  backgrounds: string[];
}

export interface ContrastSample {
  kind: RawSample['kind'];
  what: string;
  ratio: number;
  colour: string;
  background: string;
}

export const MIN_TEXT = 4.5;
export const MIN_NON_TEXT = 3;

/**
 * Measures the chat view as rendered now: each visible element holding text, each chip's border,
 * each checkbox's and error box's border, and the focus ring of the focused element (if any).
 */
export async function measureChatContrast(frame: FrameLocator): Promise<ContrastSample[]> {
  const raw = await frame.locator('body').evaluate((body): RawSample[] => {
    const transparent = (c: string) => c === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(c);
    const backgrounds = (el: Element | null): string[] => {
      const out: string[] = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = getComputedStyle(e).backgroundColor;
        if (!transparent(bg)) {
          out.push(bg);
          if (!/rgba/.test(bg)) break;
        }
      }
      return out;
    };
    const describe = (el: Element): string => {
      const id = el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName.toLowerCase();
      return `${id} ${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ').join('.')} “${(el.textContent ?? '').trim().slice(0, 40)}”`;
    };
    const visible = (el: Element): boolean => {
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return (
        rect.width > 1 &&
        rect.height > 1 &&
        style.visibility !== 'hidden' &&
        el.closest('[hidden]') === null &&
        el.getClientRects().length > 0
      );
    };
    const samples: RawSample[] = [];
    for (const el of Array.from(body.querySelectorAll('*'))) {
      const ownText = Array.from(el.childNodes).some(
        (n) => n.nodeType === 3 && (n.textContent ?? '').trim().length > 0,
      );
      const field = el instanceof HTMLTextAreaElement && el.value.trim().length > 0;
      if ((ownText || field) && visible(el))
        samples.push({
          kind: 'text',
          what: describe(el),
          colour: getComputedStyle(el).color,
          backgrounds: backgrounds(el),
        });
      if (el.classList.contains('chip') && visible(el)) {
        samples.push({
          kind: 'chip-border',
          what: describe(el),
          colour: getComputedStyle(el).borderTopColor,
          backgrounds: backgrounds(el.parentElement),
        });
      }
      // The box of a checkbox is what shows it is one: its border against what is around it.
      if (el instanceof HTMLInputElement && el.type === 'checkbox' && visible(el)) {
        samples.push({
          kind: 'checkbox-border',
          what: describe(el),
          colour: getComputedStyle(el).borderTopColor,
          backgrounds: backgrounds(el.parentElement),
        });
      }
      // A turn's error box is told apart by its border: against what is around the box.
      if (el.getAttribute('data-testid') === 'turn-error' && visible(el)) {
        samples.push({
          kind: 'box-border',
          what: describe(el),
          colour: getComputedStyle(el).borderTopColor,
          backgrounds: backgrounds(el.parentElement),
        });
      }
      // An empty question box shows its placeholder: text like any other.
      if (el instanceof HTMLTextAreaElement && !el.value && el.placeholder && visible(el)) {
        samples.push({
          kind: 'placeholder',
          what: `${describe(el)} placeholder “${el.placeholder}”`,
          colour: getComputedStyle(el, '::placeholder').color,
          backgrounds: backgrounds(el),
        });
      }
    }
    const focused = document.activeElement;
    if (focused && focused !== body) {
      const style = getComputedStyle(focused);
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) {
        samples.push({
          kind: 'focus-ring',
          what: describe(focused),
          colour: style.outlineColor,
          backgrounds: backgrounds(focused.parentElement),
        });
      } else {
        samples.push({
          kind: 'focus-ring',
          what: `${describe(focused)} (no outline)`,
          colour: 'rgba(0, 0, 0, 0)',
          backgrounds: backgrounds(focused.parentElement),
        });
      }
    }
    return samples;
  });
  return raw.map((s) => {
    const background = flatten(s.backgrounds);
    const colour = parseColor(s.colour) ?? [0, 0, 0, 0];
    const seen = over(colour, background);
    return {
      kind: s.kind,
      what: s.what,
      ratio: contrastRatio(seen, background),
      colour: s.colour,
      background: `rgb(${background.slice(0, 3).map(Math.round).join(', ')})`,
    };
  });
}

/** The samples under their minimum: 4.5:1 for text and the placeholder, 3:1 for borders and focus rings. */
export function failures(samples: ContrastSample[]): ContrastSample[] {
  return samples.filter((s) => s.ratio < (s.kind === 'text' || s.kind === 'placeholder' ? MIN_TEXT : MIN_NON_TEXT));
}
