// Evidence ids in model text: `[E2]`, `[E2, E3]` and `[E2][E3]`. Nothing else is an id: not
// `[E]`, `[e2]`, `[E2a]`, `[E02]`, nor the text of a Markdown link such as `[E2](x)`. Pure, so the editor
// can turn the same offsets into links.

export interface CitationSpan {
  /** Offsets of the id itself ("E2"), without brackets or commas. */
  start: number;
  end: number;
  evidenceId: string;
}

const GROUP = /\[(E[1-9]\d*(?:\s*,\s*E[1-9]\d*)*)\](?!\()/g;
const ID = /E[1-9]\d*/g;

export function parseCitations(text: string): CitationSpan[] {
  const spans: CitationSpan[] = [];
  for (const group of text.matchAll(GROUP)) {
    const inner = group[1];
    const offset = group.index + 1;
    for (const id of inner.matchAll(ID)) {
      spans.push({ start: offset + id.index, end: offset + id.index + id[0].length, evidenceId: id[0] });
    }
  }
  return spans;
}

/** Distinct cited ids in order of first appearance. */
export function citedIds(text: string): string[] {
  return [...new Set(parseCitations(text).map((c) => c.evidenceId))];
}

/** The sentence with its citation groups removed: what the support check reads. */
export function withoutCitations(text: string): string {
  return text.replace(GROUP, ' ').replace(/\s+([.,;:!?])/g, '$1').replace(/\s{2,}/g, ' ').trim();
}
