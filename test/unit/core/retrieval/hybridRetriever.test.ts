// Reciprocal rank fusion of the lexical and vector rankings (the hybrid retriever's merge).

import { strict as assert } from 'node:assert';
import {
  FUSION_WEIGHTS,
  HybridRetriever,
  keepEachBest,
  reciprocalRankFusion,
  RRF_K,
  type RankedIndex,
} from '../../../../src/core/retrieval/hybridRetriever';
import type { Passage } from '../../../../src/domain/types';

describe('reciprocal rank fusion', () => {
  it('rewards passages ranked high in both lists over those high in one', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['b', 'd', 'a'],
    ]);
    assert.deepEqual(
      fused.map((f) => f.id),
      ['b', 'a', 'd', 'c'],
    );
    assert.ok(Math.abs(fused[0].score - (1 / (RRF_K + 2) + 1 / (RRF_K + 1))) < 1e-12);
  });

  it('weights each ranking: at half weight the vector ranking re-orders lexical hits but cannot push them out alone', () => {
    const lexical = ['l1', 'l2', 'l3', 'shared'];
    const vector = ['v1', 'shared', 'v2'];
    const fused = reciprocalRankFusion([lexical, vector], RRF_K, [FUSION_WEIGHTS.lexical, FUSION_WEIGHTS.vector]).map(
      (f) => f.id,
    );
    assert.deepEqual(
      fused,
      ['shared', 'l1', 'l2', 'l3', 'v1', 'v2'],
      'found by both moves up; vector-only stays below every lexical hit',
    );
    // At equal weights the vector ranking alone displaces lexical hits.
    const equal = reciprocalRankFusion([lexical, vector], RRF_K, [1, 1]).map((f) => f.id);
    assert.ok(equal.indexOf('v1') < equal.indexOf('l2'), equal.join(' '));
  });
});

describe('each ranking keeps its best passage', () => {
  const fused = (ids: string[]) => ids.map((id) => ({ id }));

  it("gives a ranking's first passage missing from the top k the last place there", () => {
    const kept = keepEachBest(
      fused(['a', 'b', 'c', 'd', 'e']),
      [
        ['a', 'b'],
        ['e', 'a'],
      ],
      3,
    ).map((f) => f.id);
    assert.deepEqual(kept, ['a', 'b', 'e', 'c', 'd']);
  });

  it("changes nothing when every ranking's first passage is already in the top k", () => {
    const ranking = fused(['a', 'b', 'c', 'd']);
    assert.deepEqual(keepEachBest(ranking, [['a'], ['c', 'd']], 3), ranking);
  });

  it('keeps the fused order among the passages it lifts', () => {
    const kept = keepEachBest(fused(['a', 'b', 'c', 'd', 'e']), [['e'], ['d']], 3).map((f) => f.id);
    assert.deepEqual(kept, ['a', 'd', 'e', 'b', 'c']);
  });
});

describe('hybrid retriever', () => {
  const passage = (id: string): Passage => ({
    id,
    source: `${id}.md`,
    headingPath: [],
    heading: '',
    startLine: 1,
    endLine: 1,
    text: id,
    version: 'v1',
  });
  const lexicalOrder = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7', 'l8'];
  const index: RankedIndex = {
    embeddingModel: 'fake-model',
    lexicalQuery: (_text, limit) => lexicalOrder.slice(0, limit).map((id) => ({ id })),
    vectorQuery: async () => [{ id: 'answer' }, { id: 'v2' }, { id: 'v3' }],
    passage,
  };
  const embedder = {
    modelId: 'fake-model',
    dimensions: 2,
    embed: async (texts: string[]) => texts.map(() => new Float32Array([1, 0])),
  };

  it('returns the passage the vector ranking puts first even when BM25 ranks it low', async () => {
    const found = (
      await new HybridRetriever(index, embedder).search('my husband died; can I stop the charges?', 6)
    ).map((r) => r.passage.id);
    assert.equal(found.length, 6);
    assert.ok(found.includes('answer'), found.join(' '));
    assert.deepEqual(found.slice(0, 5), ['l1', 'l2', 'l3', 'l4', 'l5'], 'the lexical order decides the rest');
  });

  it('is the BM25 ranking alone without an embedder', async () => {
    const found = (await new HybridRetriever(index, undefined).search('q', 6)).map((r) => r.passage.id);
    assert.deepEqual(found, lexicalOrder.slice(0, 6));
  });
});
