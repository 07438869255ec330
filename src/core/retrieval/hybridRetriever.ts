// Hybrid retrieval: the BM25 ranking and the vector ranking fused by reciprocal rank fusion.
// Without an embedder (offline, no model) it is the BM25 ranking alone.

import type { Passage, RetrievalMode } from '../../domain/types';
import type { Embedder } from '../types';
import type { PassageIndex } from './passageIndex';

/** The usual RRF constant: dampens the weight of the very top ranks. */
const RRF_K = 60;
/** How deep each ranking is read before fusion. */
const CANDIDATES = 30;

export interface RetrievedPassage {
  passage: Passage;
  score: number;
}

export function reciprocalRankFusion(rankings: string[][], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

export class HybridRetriever {
  constructor(
    private readonly index: PassageIndex,
    private readonly embedder: Embedder | undefined,
  ) {}

  get mode(): RetrievalMode {
    return this.embedder && this.index.embeddingModel === this.embedder.modelId ? 'hybrid' : 'lexical';
  }

  async search(query: string, topK: number, signal?: AbortSignal): Promise<RetrievedPassage[]> {
    const lexical = this.index.lexicalQuery(query, CANDIDATES).map((h) => h.id);
    let fused: { id: string; score: number }[];
    if (this.mode === 'hybrid' && this.embedder) {
      const [vector] = await this.embedder.embed([query], signal);
      const dense = (await this.index.vectorQuery(vector, CANDIDATES)).map((h) => h.id);
      fused = reciprocalRankFusion([lexical, dense]);
    } else {
      fused = reciprocalRankFusion([lexical]);
    }
    const out: RetrievedPassage[] = [];
    for (const { id, score } of fused) {
      const passage = this.index.passage(id);
      if (passage) out.push({ passage, score });
      if (out.length >= topK) break;
    }
    return out;
  }
}
