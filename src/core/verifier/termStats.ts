// How informative a term is (inverse document frequency), so that missing "business class"
// weighs more than missing "policy". Built from the passages of the index in the product.

import { analyse } from './terms';

export interface TermStats {
  /** Weight of a stemmed content term; higher for rarer terms. Unseen terms get the maximum. */
  idf(term: string): number;
}

/**
 * IDF over a set of texts (passages): ln((N + 1) / (df + 1)) + 1, the smoothed form, so a
 * term found everywhere still counts (weight 1) and a small collection does not make unseen
 * terms dominate.
 */
export function termStatsFromTexts(texts: Iterable<string>): TermStats {
  const df = new Map<string, number>();
  let n = 0;
  for (const text of texts) {
    n++;
    const seen = new Set<string>();
    for (const term of analyse(text, { stemming: true }).terms) seen.add(term.stem);
    for (const s of seen) df.set(s, (df.get(s) ?? 0) + 1);
  }
  const unseen = Math.log(n + 1) + 1;
  return {
    idf: (term) => {
      const d = df.get(term);
      return d === undefined ? unseen : Math.log((n + 1) / (d + 1)) + 1;
    },
  };
}

/** Every term weighs the same: the fallback when no collection is known. */
export const uniformTermStats: TermStats = { idf: () => 1 };
