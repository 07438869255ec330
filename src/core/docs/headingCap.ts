// Headings are copied into every passage of their section (its heading path, and the text the
// embedder and the lexical index see), so one long heading multiplied a document's size by its
// passage count (a 108 KB heading made a 156 MB index). Each heading is capped here; what is cut
// off is returned so the chunker can keep it as text of the section (searchable, never lost).

/** The most characters one heading of a path may hold (the ellipsis included). */
export const MAX_HEADING_CHARS = 200;
/** Front-matter title plus six Markdown levels, each capped, joined by " > ". */
export const MAX_HEADING_PATH_CHARS = 7 * MAX_HEADING_CHARS + 6 * ' > '.length;

/**
 * A heading within MAX_HEADING_CHARS: unchanged when it fits, else cut at the last word end
 * that leaves room for an ellipsis (or at the cap, for a heading without spaces), with the rest.
 */
export function capHeading(text: string): { heading: string; rest: string } {
  if (text.length <= MAX_HEADING_CHARS) return { heading: text, rest: '' };
  let cut = MAX_HEADING_CHARS - 1;
  // Never between the two halves of a surrogate pair.
  if (isLowSurrogate(text.charCodeAt(cut))) cut--;
  const space = text.lastIndexOf(' ', cut);
  if (space > MAX_HEADING_CHARS / 2) return { heading: `${text.slice(0, space)}…`, rest: text.slice(space + 1) };
  return { heading: `${text.slice(0, cut)}…`, rest: text.slice(cut) };
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
