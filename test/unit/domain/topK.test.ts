// How many passages a search returns: a whole number within bounds, whatever a workspace's
// settings or a caller passes (2.5 broke the shared store's LIMIT; 0.1 emptied every answer).

import { strict as assert } from 'node:assert';
import { DEFAULT_TOP_K, MAX_TOP_K, MIN_TOP_K, boundTopK, topKSetting } from '../../../src/domain/topK';

describe('top k: passages per search', () => {
  it('keeps whole numbers in range as they are', () => {
    for (const k of [MIN_TOP_K, 3, DEFAULT_TOP_K, MAX_TOP_K]) assert.deepEqual(topKSetting(k), { topK: k });
  });

  it('rounds a fraction and clamps a value out of range, saying what is used', () => {
    assert.deepEqual(topKSetting(2.5).topK, 3);
    assert.match(topKSetting(2.5).note ?? '', /2\.5.*3 is used/);
    assert.equal(topKSetting(0.1).topK, MIN_TOP_K);
    assert.equal(topKSetting(-4).topK, MIN_TOP_K);
    assert.equal(topKSetting(1e9).topK, MAX_TOP_K);
    assert.ok(topKSetting(0.1).note);
  });

  it('takes the default for anything that is not a finite number, and says so when one was given', () => {
    assert.deepEqual(topKSetting(undefined), { topK: undefined });
    assert.deepEqual(topKSetting(null), { topK: undefined });
    for (const v of ['6', Number.NaN, Number.POSITIVE_INFINITY, {}]) {
      const read = topKSetting(v);
      assert.equal(read.topK, undefined);
      assert.match(read.note ?? '', new RegExp(`default of ${DEFAULT_TOP_K}`));
    }
  });

  it('boundTopK: the engine never searches with a value out of range', () => {
    assert.equal(boundTopK(undefined), DEFAULT_TOP_K);
    assert.equal(boundTopK(2.5), 3);
    assert.equal(boundTopK(0), MIN_TOP_K);
    assert.equal(boundTopK(Number.NaN), DEFAULT_TOP_K);
    assert.equal(boundTopK(99), MAX_TOP_K);
  });
});
