// The TextSimilarity port over an embedder (src/core/retrieval/textSimilarity.ts): cosine of the
// unit vectors, in the order of the texts, each text embedded once while it stays cached, and a
// question whose vector was let go of mid-call still scored. The embedder here is a counting fake
// through the Embedder port (the code path is the cache's; the real model's similarity is tested
// in test/unit/core/models/extractiveSemantics.test.ts).

import { strict as assert } from 'node:assert';
import { embedderSimilarity } from '../../../../src/core/retrieval/textSimilarity';
import type { Embedder } from '../../../../src/core/types';

/** Fake embedder: a text's vector is a unit vector along the axis of its first letter (a–z). */
function countingEmbedder(): Embedder & { embedded: string[] } {
  const embedded: string[] = [];
  return {
    modelId: 'fake-axis',
    dimensions: 26,
    embedded,
    async embed(texts) {
      embedded.push(...texts);
      return texts.map((t) => {
        const v = new Float32Array(26);
        v[Math.max(0, t.toLowerCase().charCodeAt(0) - 97) % 26] = 1;
        return v;
      });
    },
  };
}

describe('TextSimilarity over an embedder', () => {
  it('scores each text against the query in order (1 for the same direction, 0 across)', async () => {
    const similarity = embedderSimilarity(countingEmbedder());
    assert.equal(similarity.modelId, 'fake-axis');
    assert.deepEqual(await similarity.similarity('apple', ['avocado', 'banana', 'apricot']), [1, 0, 1]);
  });

  it('embeds a text once while it is cached, and each distinct text once per call', async () => {
    const embedder = countingEmbedder();
    const similarity = embedderSimilarity(embedder);
    await similarity.similarity('apple', ['banana', 'banana', 'cherry']);
    await similarity.similarity('apple', ['banana', 'date']);
    assert.deepEqual(embedder.embedded, ['apple', 'banana', 'cherry', 'date']);
  });

  it('scores a call whose query vector the cache lets go of while it adds the texts', async () => {
    const similarity = embedderSimilarity(countingEmbedder());
    await similarity.similarity('query', []);
    // More new texts than the cache holds: the oldest entry (the query) is evicted during this call.
    const texts = Array.from({ length: 5000 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${i}`);
    const scores = await similarity.similarity('query', texts);
    assert.equal(scores.length, texts.length);
    assert.equal(scores[16], 1, 'q… is along the query');
    assert.equal(scores[0], 0);
  });
});
