// Evidence ids in model text, as the verifier reads them. The syntax itself is defined once in
// src/domain/citations.ts, so the chat view and the editor links see exactly the same ids.

import { CITATION_GROUP, parseCitations } from '../../domain/citations';

/** Distinct cited ids in order of first appearance. */
export function citedIds(text: string): string[] {
  return [...new Set(parseCitations(text).map((c) => c.evidenceId))];
}

/** The sentence with its citation groups removed: what the support check reads. */
export function withoutCitations(text: string): string {
  return text.replace(CITATION_GROUP, ' ').replace(/\s+([.,;:!?])/g, '$1').replace(/\s{2,}/g, ' ').trim();
}
