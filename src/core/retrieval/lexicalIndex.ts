// The lexical (BM25) side of retrieval, on MiniSearch: passages indexed by text and heading,
// terms lower-cased and stemmed the same way the verifier stems them, saved as JSON.

import MiniSearch from 'minisearch';
import { stem } from '../verifier/terms';
import type { Passage } from '../../domain/types';

interface IndexedPassage {
  id: string;
  text: string;
  heading: string;
  source: string;
}

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length ? stem(lower) : null;
}

/**
 * One field as the BM25 index sees it: its processed terms (with repeats) and its length (distinct
 * raw tokens, MiniSearch's field length). The shared index's SQL BM25 uses the same analysis.
 */
export function fieldTerms(text: string): { terms: string[]; length: number } {
  const tokens = text.match(TOKEN) ?? [];
  const terms = tokens.map(processTerm).filter((t): t is string => t !== null);
  return { terms, length: new Set(tokens).size };
}

/** The BM25 fields, their boosts and parameters (MiniSearch's defaults k 1.2, b 0.7, d 0.5). */
export const LEXICAL_FIELDS = [
  { name: 'text', boost: 1 },
  { name: 'heading', boost: 2 },
  { name: 'source', boost: 0.5 },
] as const;
export const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const;

const OPTIONS = {
  fields: ['text', 'heading', 'source'],
  storeFields: [] as string[],
  tokenize: (text: string) => text.match(TOKEN) ?? [],
  processTerm,
  searchOptions: { boost: { heading: 2, source: 0.5 }, prefix: false, fuzzy: false, bm25: BM25 },
};

export interface LexicalHit {
  id: string;
  score: number;
}

export class LexicalIndex {
  private constructor(private readonly search: MiniSearch<IndexedPassage>) {}

  static empty(): LexicalIndex {
    return new LexicalIndex(new MiniSearch<IndexedPassage>(OPTIONS));
  }

  static fromJSON(json: string): LexicalIndex {
    return new LexicalIndex(MiniSearch.loadJSON<IndexedPassage>(json, OPTIONS));
  }

  toJSON(): string {
    return JSON.stringify(this.search);
  }

  get size(): number {
    return this.search.documentCount;
  }

  has(id: string): boolean {
    return this.search.has(id);
  }

  add(passages: Passage[]): void {
    this.search.addAll(passages.map((p) => ({ id: p.id, text: p.text, heading: p.heading, source: p.source })));
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) if (this.search.has(id)) this.search.discard(id);
  }

  query(text: string, limit: number): LexicalHit[] {
    return this.search
      .search(text, { combineWith: 'OR' })
      .slice(0, limit)
      .map((r) => ({ id: String(r.id), score: r.score }));
  }
}
