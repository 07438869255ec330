// Typed arrays handed out as views of shared slabs: zero-filled, never overlapping, a new slab
// when the current one is full (or for an array larger than a slab), and a room reserved then
// only partly taken leaves the rest to the next array.

import * as assert from 'node:assert/strict';
import { Slab } from '../../../../src/core/verifier/slabs';

describe('slabs', () => {
  it('hands out zero-filled arrays that never share an element', () => {
    const slab = new Slab((n) => new Int32Array(n));
    const arrays = Array.from({ length: 2000 }, (_, i) => slab.array(1 + (i % 37)));
    arrays.forEach((a, i) => {
      assert.ok(a.every((x) => x === 0));
      a.fill(i + 1);
    });
    // Had two arrays overlapped, one would hold the other's number.
    arrays.forEach((a, i) =>
      assert.ok(
        a.every((x) => x === i + 1),
        `array ${i}`,
      ),
    );
  });

  it('gives a larger array than a slab its own, and goes on after it', () => {
    const slab = new Slab((n) => new Uint8Array(n));
    const small = slab.array(10);
    const large = slab.array(200_000);
    const next = slab.array(10);
    assert.equal(large.length, 200_000);
    small.fill(1);
    large.fill(2);
    next.fill(3);
    assert.deepEqual([small[9], large[0], large[199_999], next[0]], [1, 2, 2, 3]);
  });

  it('keeps only what is taken of a reserved room: the next array starts right after it, zero-filled', () => {
    const slab = new Slab((n) => new Int32Array(n));
    const room = slab.reserve(100);
    const at = slab.offset;
    for (let i = 0; i < 5; i++) room[at + i] = i + 1;
    const kept = slab.take(5);
    const next = slab.array(50);
    assert.deepEqual([...kept], [1, 2, 3, 4, 5]);
    assert.ok(next.every((x) => x === 0));
    assert.equal(next.byteOffset, kept.byteOffset + 5 * 4);
  });
});
