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
  const counts = new TermCounts();
  for (const text of texts) counts.add(text);
  return counts.stats();
}

/**
 * Document frequencies of stemmed content terms, kept up to date as texts come and go (the
 * index stores them, so answering does not re-analyse every passage).
 */
export class TermCounts {
  constructor(
    private n = 0,
    private readonly df = new Map<string, number>(),
  ) {}

  static fromJSON(json: string): TermCounts {
    const parsed = JSON.parse(json) as { n: number; df: Record<string, number> };
    return new TermCounts(parsed.n, new Map(Object.entries(parsed.df)));
  }

  toJSON(): string {
    return JSON.stringify({ n: this.n, df: Object.fromEntries(this.df) });
  }

  add(text: string): void {
    this.n++;
    for (const s of stemsOf(text)) this.df.set(s, (this.df.get(s) ?? 0) + 1);
  }

  remove(text: string): void {
    this.n = Math.max(0, this.n - 1);
    for (const s of stemsOf(text)) {
      const d = (this.df.get(s) ?? 0) - 1;
      if (d > 0) this.df.set(s, d);
      else this.df.delete(s);
    }
  }

  /** IDF over the texts counted now. */
  stats(): TermStats {
    return termStatsFromCounts(this.n, new Map(this.df));
  }
}

/**
 * IDF, ln((N + 1) / (df + 1)) + 1, from N texts and the document frequencies of their stems
 * (a stem missing from `df` is in none of them). A shared index passes only the stems it was
 * asked about, read from its table.
 */
export function termStatsFromCounts(n: number, df: ReadonlyMap<string, number>): TermStats {
  const unseen = Math.log(n + 1) + 1;
  return {
    idf: (term) => {
      const d = df.get(term);
      return d === undefined ? unseen : Math.log((n + 1) / (d + 1)) + 1;
    },
  };
}

/** The stemmed content terms of a text, each once: what a document frequency counts. */
export function stemsOf(text: string): Set<string> {
  const seen = new Set<string>();
  for (const term of analyse(text, { stemming: true }).terms) seen.add(term.stem);
  return seen;
}

/** Every term weighs the same: the fallback when no collection is known. */
export const uniformTermStats: TermStats = { idf: () => 1 };
