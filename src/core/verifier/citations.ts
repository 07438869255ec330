// Evidence ids in model text, as the verifier reads them. The syntax itself is defined once in
// src/domain/citations.ts, so the chat view and the editor links see exactly the same ids.

import { parseCitations } from '../../domain/citations';

export { withoutCitations } from '../../domain/citations';

/** Distinct cited ids in order of first appearance. */
export function citedIds(text: string): string[] {
  return [...new Set(parseCitations(text).map((c) => c.evidenceId))];
}
