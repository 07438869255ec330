// The TextSimilarity port over a loaded embedding model: cosine of the L2-normalised vectors the
// embedder returns (so a dot product). Texts seen recently keep their vectors (a question is
// compared with many sentences, and the same sentences come back in the next turns).

import type { Embedder, TextSimilarity } from '../types';

/** Vectors kept for texts seen recently (about 1.5 KB each at 384 dimensions). */
const CACHED_VECTORS = 4096;

export function embedderSimilarity(embedder: Embedder): TextSimilarity {
  const cache = new Map<string, Float32Array>();
  const remember = (text: string, vector: Float32Array) => {
    if (cache.size >= CACHED_VECTORS) cache.delete(cache.keys().next().value as string);
    cache.set(text, vector);
  };
  return {
    modelId: embedder.modelId,
    async similarity(query, texts, signal) {
      // This call's vectors, whatever the cache lets go of meanwhile.
      const vectors = new Map<string, Float32Array>();
      for (const t of [query, ...texts]) {
        const v = cache.get(t);
        if (v) vectors.set(t, v);
      }
      const missing = [...new Set([query, ...texts])].filter((t) => !vectors.has(t));
      if (missing.length) {
        const embedded = await embedder.embed(missing, signal);
        missing.forEach((t, i) => {
          vectors.set(t, embedded[i]);
          remember(t, embedded[i]);
        });
      }
      const q = vectors.get(query) as Float32Array;
      return texts.map((t) => dot(q, vectors.get(t) as Float32Array));
    },
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}
