// The term counts of a local index folder (`terms-<gen>.txt`, a `term<TAB>count` line each):
// document frequencies of the verifier's terms, derived data recomputed from the passages when
// the file is missing, cut off or unreadable.

import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Passage } from '../../../domain/types';
import { termText } from '../../indexing/indexRun';
import type { FileRef } from '../../retrieval/indexFiles';
import { TermCounts } from '../../text/termStats';

/** The counts stored in `ref`, or undefined when they must be recomputed (missing, cut off, unreadable). */
export function readTermCounts(dir: string, ref: FileRef | null | undefined): TermCounts | undefined {
  if (!ref) return undefined;
  try {
    const file = path.join(dir, ref.name);
    if (statSync(file).size === ref.bytes) return TermCounts.parse(readFileSync(file, 'utf8'));
  } catch {
    // missing or unreadable: recomputed
  }
  return undefined;
}

/** The counts over `passages`, computed. */
export function countTerms(passages: Passage[]): TermCounts {
  const counts = new TermCounts();
  for (const p of passages) counts.add(termText(p));
  return counts;
}
