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
  /** True once `stats()` handed out `df`: the next change copies it first (copy on write). */
  private shared = false;

  constructor(
    private n = 0,
    private df = new Map<string, number>(),
  ) {}

  static fromJSON(json: string): TermCounts {
    const parsed = JSON.parse(json) as { n: number; df: Record<string, number> };
    return new TermCounts(parsed.n, new Map(Object.entries(parsed.df)));
  }

  toJSON(): string {
    return JSON.stringify({ n: this.n, df: Object.fromEntries(this.df) });
  }

  /**
   * The counts as lines, much faster to read back than JSON: `evident-terms 1 <n>`, then one
   * `term<TAB>count` line per term. Falls back to JSON should a term hold a tab or a line break.
   */
  serialize(): string {
    const lines = [`${TEXT_HEADER} ${this.n}`];
    for (const [term, count] of this.df) {
      if (/[\t\n\r]/.test(term)) return this.toJSON();
      lines.push(`${term}\t${count}`);
    }
    return lines.join('\n');
  }

  /** Reads what `serialize` (or `toJSON`) wrote; throws on anything else. */
  static parse(text: string): TermCounts {
    if (text.startsWith('{')) return TermCounts.fromJSON(text);
    const lines = text.split('\n');
    const header = lines[0].split(' ');
    const n = Number(header[2]);
    if (`${header[0]} ${header[1]}` !== TEXT_HEADER || !Number.isInteger(n) || n < 0) {
      throw new Error('not a term count file');
    }
    const df = new Map<string, number>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      const tab = line.lastIndexOf('\t');
      const count = Number(line.slice(tab + 1));
      if (tab <= 0 || !(count > 0)) throw new Error(`term count file: bad line ${i + 1}`);
      df.set(line.slice(0, tab), count);
    }
    return new TermCounts(n, df);
  }

  add(text: string): void {
    this.unshare();
    this.n++;
    for (const s of stemsOf(text)) this.df.set(s, (this.df.get(s) ?? 0) + 1);
  }

  remove(text: string): void {
    this.unshare();
    this.n = Math.max(0, this.n - 1);
    for (const s of stemsOf(text)) {
      const d = (this.df.get(s) ?? 0) - 1;
      if (d > 0) this.df.set(s, d);
      else this.df.delete(s);
    }
  }

  private unshare(): void {
    if (!this.shared) return;
    this.df = new Map(this.df);
    this.shared = false;
  }

  /** IDF over the texts counted now (shares the counts until the next change: copy on write). */
  stats(): TermStats {
    this.shared = true;
    return termStatsFromCounts(this.n, this.df);
  }
}

const TEXT_HEADER = 'evident-terms 1';

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
