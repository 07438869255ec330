// Reciprocal rank fusion of the lexical and vector rankings (the hybrid retriever's merge).

import { strict as assert } from 'node:assert';
import { FUSION_WEIGHTS, reciprocalRankFusion, RRF_K } from '../../../../src/core/retrieval/hybridRetriever';

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
