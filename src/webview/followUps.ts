// Follow-up questions offered under the latest answer, drawn from the headings of the passages
// retrieved for it: sections next to what was asked, which the user may want next.

import type { TurnResult } from '../domain/types';

export const MAX_FOLLOW_UPS = 3;
const MAX_HEADING_CHARS = 60;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
}

/** Up to three questions, one per distinct heading, the passages not cited first (none after a not-found answer). */
export function followUpSuggestions(result: TurnResult, max = MAX_FOLLOW_UPS): string[] {
  const cited = new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations));
  const asked = new Set(words(result.question));
  const ordered = [
    ...result.evidence.filter((e) => !cited.has(e.id)),
    ...result.evidence.filter((e) => cited.has(e.id)),
  ];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const evidence of ordered) {
    const leaf = (evidence.heading.split(' > ').at(-1) ?? '').replace(/\s+/g, ' ').trim();
    const key = leaf.toLowerCase();
    if (!leaf || leaf.length > MAX_HEADING_CHARS || seen.has(key)) continue;
    seen.add(key);
    const headingWords = words(leaf);
    // A heading that only repeats the question is not a next step.
    if (headingWords.length === 0 || headingWords.every((w) => asked.has(w))) continue;
    // A heading that is itself a question ("How do I request leave?") is asked as it is.
    out.push(leaf.endsWith('?') ? leaf : `What does “${leaf}” say?`);
    if (out.length >= max) break;
  }
  return out;
}
