// Hybrid retrieval: the BM25 ranking and the vector ranking fused by weighted reciprocal rank
// fusion. The vector ranking counts half and k is 20 (chosen with the real all-MiniLM-L6-v2 on
// the dev sets, `npm run bench:retrieval -- --fusion`: the best MRR of the settings tried that is
// never under lexical on either corpus, and the best answers downstream, `npm run bench:dev-answers`):
// it re-orders and lifts passages that both rankings found rather than pushing lexical hits out
// on its own, since nothing checks a model's quality at run time. One exception: each ranking's
// best passage is always among those returned. A question told with the asker's situation ("My
// husband died last month and his subscription is still charging") shares few words with the
// passage that answers it ("deceased user") and many with unrelated ones, so BM25 ranks it low
// while the vector ranking puts it first; at half weight it would never be returned. Giving the
// vector ranking's first passage the last place it would otherwise miss costs lexical only its
// sixth passage (chosen on the dev and first two generalisation sets, checked on the third:
// docs/measurements.md). Without an embedder (offline, no model) it is the BM25 ranking alone.

import type { Passage, RetrievalMode } from '../../domain/types';
import type { Embedder } from '../types';
import type { RetrievedPassage } from './retrievedPassage';

/** The RRF constant: how much the very top ranks outweigh the rest (60 is the usual; 20 measured better here). */
export const RRF_K = 20;
/** How deep each ranking is read before fusion. */
export const CANDIDATES = 30;
/** Weight of each ranking in the fusion: lexical, vector. */
export const FUSION_WEIGHTS = { lexical: 1, vector: 0.5 } as const;

/** What hybrid search reads of an index (the local store's passage index is one): its rankings and its passages. */
export interface RankedIndex {
  /** The model its vectors come from; null for a lexical-only index. */
  readonly embeddingModel: string | null;
  lexicalQuery(text: string, limit: number): readonly { id: string }[];
  vectorQuery(vector: Float32Array, limit: number): Promise<readonly { id: string }[]>;
  passage(id: string): Passage | undefined;
}

/** Fuses rankings (best first) by Σ weight / (k + rank); weights default to 1 each. */
export function reciprocalRankFusion(
  rankings: string[][],
  k = RRF_K,
  weights: number[] = rankings.map(() => 1),
): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  rankings.forEach((ranking, r) => {
    const weight = weights[r] ?? 1;
    ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + weight / (k + rank + 1)));
  });
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * The fused ranking with each ranking's best passage within its first `topK`: one missing there
 * takes the last place of those not kept this way (the fused order decides the rest).
 */
export function keepEachBest<T extends { id: string }>(fused: T[], rankings: string[][], topK: number): T[] {
  const top = new Set(fused.slice(0, topK).map((f) => f.id));
  const missing = [...new Set(rankings.map((r) => r[0]).filter((id): id is string => id !== undefined))].filter(
    (id) => !top.has(id),
  );
  if (missing.length === 0 || topK <= 0) return fused;
  const lifted = fused.filter((f) => missing.includes(f.id));
  const rest = fused.filter((f) => !missing.includes(f.id));
  const at = Math.max(0, topK - lifted.length);
  return [...rest.slice(0, at), ...lifted, ...rest.slice(at)];
}

export class HybridRetriever {
  constructor(
    private readonly index: RankedIndex,
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
      fused = keepEachBest(
        reciprocalRankFusion([lexical, dense], RRF_K, [FUSION_WEIGHTS.lexical, FUSION_WEIGHTS.vector]),
        [lexical, dense],
        topK,
      );
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
