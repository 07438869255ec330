// `matchesOf` gives exactly what `matchAll` gives, without copying the pattern.

import * as assert from 'node:assert/strict';
import { escapeRegExp, matchesOf } from '../../../../src/core/text/matches';

const shape = (ms: Iterable<RegExpMatchArray>): unknown[] =>
  [...ms].map((m) => ({ index: m.index, groups: m.groups, all: [...m] }));

describe('matchesOf', () => {
  const texts = ['', 'a', 'the 30 days, 1,500 and 9:30 — 😀😀 x²', 'Ab cD ef\n\nGH ij 😀a', 'aaa bbb'];
  const patterns = [/\d+(?:[.,:]\d+)*/g, /(?<word>\p{L}+)/gu, /\b/g, /(?:)/gu, /x*/g, /(a)|(b)/gi, /$/gmu];

  it('finds the matches matchAll finds, empty ones and surrogate pairs included', () => {
    for (const pattern of patterns) {
      for (const text of texts) {
        assert.deepEqual(shape(matchesOf(pattern, text)), shape(text.matchAll(pattern)), `${pattern} ${text}`);
      }
    }
  });

  it('starts from the beginning whatever lastIndex was, and leaves it at 0', () => {
    const pattern = /\d/g;
    pattern.lastIndex = 3;
    assert.deepEqual(
      matchesOf(pattern, '1 2 3').map((m) => m.index),
      [0, 2, 4],
    );
    assert.equal(pattern.lastIndex, 0);
  });

  it('refuses a pattern without the g flag, as matchAll does', () => {
    assert.throws(() => matchesOf(/a/, 'a'), TypeError);
  });
});

describe('escapeRegExp', () => {
  it('makes a pattern that matches the text literally, and nothing else', () => {
    for (const text of ['$1.5 (approx.)', 'a+b*c?', '[E1] {x} ^y$ a|b \\ end', '.zoom.us']) {
      const pattern = new RegExp(`^${escapeRegExp(text)}$`, 'u');
      assert.ok(pattern.test(text), text);
      assert.ok(!pattern.test(`${text}x`), text);
    }
    assert.ok(!new RegExp(escapeRegExp('a.c'), 'u').test('abc'));
  });
});
