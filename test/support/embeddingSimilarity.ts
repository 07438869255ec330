// A TextSimilarity over an embedder (tests and benchmarks only, until the engine provides one):
// cosine of the L2-normalised vectors, with the vectors of texts seen before kept (bounded).

import type { Embedder, TextSimilarity } from '../../src/core/types';

const CACHE_LIMIT = 20_000;

export function embeddingSimilarity(embedder: Embedder): TextSimilarity & { calls: number } {
  const cache = new Map<string, Float32Array>();
  const state = { calls: 0 };
  async function vectors(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const wanted = [...new Set(texts.filter((t) => !cache.has(t)))];
    if (wanted.length) {
      state.calls++;
      const got = await embedder.embed(wanted, signal);
      if (cache.size + wanted.length > CACHE_LIMIT) cache.clear();
      wanted.forEach((t, i) => cache.set(t, normalised(got[i])));
    }
    return texts.map((t) => cache.get(t) as Float32Array);
  }
  return {
    modelId: embedder.modelId,
    get calls() {
      return state.calls;
    },
    async similarity(query, texts, signal) {
      const [q, ...rest] = await vectors([query, ...texts], signal);
      return rest.map((v) => dot(q, v));
    },
  };
}

function normalised(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
