// A passage as the verifier reads it: its heading path on the first line, then its text. The
// heading gives the passage's topic and the names it is about ("we" in GitHub's policy is GitHub);
// it states nothing, so it never backs a sentence by itself (see PassageContext).

import type { PassageContext } from '../types';

/** The text the verifier reads for a passage: its heading path, a line break, its text. */
export function withHeading(heading: string | undefined, text: string): string {
  return heading ? `${heading}\n${text}` : text;
}

/** The heading's range in a text `withHeading` made, or none (a text that does not open with it). */
export function headingRange(heading: string | undefined, text: string): [number, number] | undefined {
  if (!heading || text.length <= heading.length || text[heading.length] !== '\n' || !text.startsWith(heading)) {
    return undefined;
  }
  return [0, heading.length];
}

/** Texts joined by line breaks (a sentence citing several passages), with their headings' ranges. */
export function joinedWithHeadings(parts: readonly { text: string; heading?: string }[]): {
  text: string;
  context: PassageContext;
} {
  const headings: [number, number][] = [];
  let offset = 0;
  for (const part of parts) {
    const range = headingRange(part.heading, part.text);
    // From the line break before it: the passage's units begin at the break that opens them.
    if (range) headings.push([Math.max(0, offset - 1) + range[0], offset + range[1]]);
    offset += part.text.length + 1;
  }
  return { text: parts.map((p) => p.text).join('\n'), context: { headings } };
}

/** Whether [start, end) lies inside a heading of the context. */
export function inHeading(context: PassageContext | undefined, start: number, end: number): boolean {
  if (!context) return false;
  for (const [from, to] of context.headings) if (start >= from && end <= to) return true;
  return false;
}

/** A key for results that depend on the context (none: ''). */
export function contextKey(context: PassageContext | undefined): string {
  return context && context.headings.length > 0 ? context.headings.map(([a, b]) => `${a}-${b}`).join(',') : '';
}
