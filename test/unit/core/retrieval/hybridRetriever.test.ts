// Reciprocal rank fusion of the lexical and vector rankings (the hybrid retriever's merge).

import { strict as assert } from 'node:assert';
import { reciprocalRankFusion } from '../../../../src/core/retrieval/hybridRetriever';

describe('reciprocal rank fusion', () => {
  it('rewards passages ranked high in both lists over those high in one', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['b', 'd', 'a'],
    ]);
    assert.deepEqual(fused.map((f) => f.id), ['b', 'a', 'd', 'c']);
    assert.ok(Math.abs(fused[0].score - (1 / 62 + 1 / 61)) < 1e-12);
  });
});
