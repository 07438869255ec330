// The one definition of an evidence-id citation in model text, shared by the verifier (core),
// the editor links (host) and the chat view (webview): `[E2]`, `[E2, E3]` and `[E2][E3]`.
// Nothing else is an id: not `[E]`, `[e2]`, `[E2a]`, `[E02]`, `[E1; E2]`, nor the text of a
// Markdown link such as `[E2](x)`. Pure string code: no `vscode`, no DOM.

/** A bracket group of one or more ids; not followed by "(" (a Markdown link). */
export const CITATION_GROUP = /\[(E[1-9]\d*(?:\s*,\s*E[1-9]\d*)*)\](?!\()/g;
const ID = /E[1-9]\d*/g;
const WHOLE_ID = /^E[1-9]\d*$/;

/** True when `text` is exactly one evidence id (`E1`, `E12`…), as citations write them. */
export function isEvidenceIdText(text: string): boolean {
  return WHOLE_ID.test(text);
}

export interface CitationSpan {
  /** Offsets of the id itself ("E2"), without brackets or commas. */
  start: number;
  end: number;
  evidenceId: string;
}

export interface CitationGroup {
  /** Offsets of the whole bracket in the text. */
  start: number;
  end: number;
  evidenceIds: string[];
}

export function findCitationGroups(text: string): CitationGroup[] {
  return Array.from(text.matchAll(CITATION_GROUP), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
    evidenceIds: m[1].match(ID) ?? [],
  }));
}

export function parseCitations(text: string): CitationSpan[] {
  const spans: CitationSpan[] = [];
  for (const group of text.matchAll(CITATION_GROUP)) {
    const offset = group.index + 1;
    for (const id of group[1].matchAll(ID)) {
      spans.push({ start: offset + id.index, end: offset + id.index + id[0].length, evidenceId: id[0] });
    }
  }
  return spans;
}

/** The text with its citation groups removed (what the support check reads; what a screen reader hears). */
export function withoutCitations(text: string): string {
  return (
    text
      .replace(CITATION_GROUP, ' ')
      // Only a mark that closes ("word [E1]." → "word."), not one that opens a token ("set to .zoom.us").
      .replace(/\s+([.,;:!?])(?=[\s"'”’)\]]|$)/g, '$1')
      .replace(/\s{2,}/g, ' ')
      .trim()
  );
}
