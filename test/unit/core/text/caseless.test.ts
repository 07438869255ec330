// The patterns spelt out without the `i` flag match what the `iu` flags match, character by character.

import * as assert from 'node:assert/strict';
import { anyCase, caselessIndexOf, WORD_CHAR } from '../../../../src/core/text/caseless';
import { escapeRegExp } from '../../../../src/core/text/matches';

describe('caseless patterns', () => {
  it('match each letter and each word character as the iu flags do, over the whole BMP', () => {
    const spelt = [...'abcdefghijklmnopqrstuvwxyz'].map((c) => new RegExp(`^${anyCase(c)}$`, 'u'));
    const flagged = [...'abcdefghijklmnopqrstuvwxyz'].map((c) => new RegExp(`^${c}$`, 'iu'));
    const word = new RegExp(`^${WORD_CHAR}$`, 'u');
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const ch = String.fromCharCode(code);
      assert.equal(word.test(ch), /^\w$/iu.test(ch), `word character U+${code.toString(16)}`);
      spelt.forEach((re, i) => assert.equal(re.test(ch), flagged[i].test(ch), `${re} U+${code.toString(16)}`));
    }
  });
});

/** Every place of `word` in `text` as its literal `iu` pattern finds it, asked at each place (the definition). */
function placesByPattern(text: string, word: string): number[] {
  const literal = new RegExp(escapeRegExp(word), 'iuy');
  const places: number[] = [];
  for (let i = 0; i <= text.length; i++) {
    const inPair = /[\ud800-\udbff]/.test(text.charAt(i - 1)) && /[\udc00-\udfff]/.test(text.charAt(i));
    literal.lastIndex = i;
    if (!inPair && literal.test(text)) places.push(i);
  }
  return places;
}

function placesFound(text: string, word: string): number[] {
  const places: number[] = [];
  for (let at = caselessIndexOf(text, word); at >= 0; at = caselessIndexOf(text, word, at + 1)) places.push(at);
  return places;
}

describe('caselessIndexOf: a word found as its literal iu pattern finds it', () => {
  it('compares each character of an ASCII word as the iu flags do, over the whole BMP', () => {
    const words = [..."abcdefghijklmnopqrstuvwxyzABCKSZ0129-._'$ "];
    const patterns = words.map((w) => new RegExp(`^${escapeRegExp(w)}$`, 'iu'));
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const ch = String.fromCharCode(code);
      words.forEach((w, k) =>
        assert.equal(caselessIndexOf(ch, w) === 0, patterns[k].test(ch), `'${w}' against U+${code.toString(16)}`),
      );
    }
  });

  it('finds every place, overlapping ones too, on tricky text', () => {
    const texts = [
      'Aaaa aAa',
      'The ſtatus of the Kelvin sign: K, Kelvin, kelvin.',
      'İstanbul and ISTANBUL and ıstanbul',
      'CAFÉ, Café and cafe\u0301 and café',
      'emoji 😀s and 😀S then s😀s',
      'un-available, Unavailable, non-available; UNAVAILABLE',
      '',
    ];
    const words = [
      'a',
      'aa',
      'aaa',
      'status',
      'ſtatus',
      'kelvin',
      'k',
      's',
      'istanbul',
      'café',
      'cafe',
      'é',
      'avail',
      'un-',
      '😀s',
      'x',
    ];
    for (const text of texts) {
      for (const word of words) {
        assert.deepEqual(placesFound(text, word), placesByPattern(text, word), `'${word}' in '${text}'`);
      }
    }
  });

  it('starts at `from` and gives -1 past the last place', () => {
    assert.equal(caselessIndexOf('Work, WORK, work', 'work', 1), 6);
    assert.equal(caselessIndexOf('Work, WORK, work', 'work', 13), -1);
    assert.equal(caselessIndexOf('short', 'longer than it'), -1);
  });
});
