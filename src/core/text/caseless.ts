// Case-insensitive patterns spelt out without the `i` flag, which makes a Unicode scan several
// times slower: each letter as a class of its cases (a Unicode case-insensitive "s" also matches
// "ſ", U+017F, and a "k" the Kelvin sign, U+212A), and \b as look-arounds on the word characters
// of that mode (ASCII letters, digits, "_", "ſ" and the Kelvin sign). And a word's places in a
// text as the `iu` flags find them, without a pattern made for the word (`caselessIndexOf`).

import { escapeRegExp } from './matches';

/** `word` matched in any case, as the `iu` flags match it. */
export const anyCase = (word: string): string =>
  [...word].map((c) => `[${c}${c.toUpperCase()}${c === 's' ? '\\u017f' : c === 'k' ? '\\u212a' : ''}]`).join('');

/** A word character of a `iu` pattern (what its \b looks at). */
export const WORD_CHAR = '[A-Za-z0-9_\\u017f\\u212a]';

// What a character is compared as in a case-insensitive match (`iu`) against an ASCII character:
// ASCII capitals as their small letters, and the only two other characters that fold to ASCII,
// "ſ" as "s" and the Kelvin sign as "k" (caseless.test.ts checks this over the whole BMP).
function foldToAscii(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  return c === 0x17f ? 115 : c === 0x212a ? 107 : c;
}

// A word of other characters: its literal pattern, sticky, made once (bounded).
const LITERALS = new Map<string, RegExp>();
const LITERAL_LIMIT = 1024;

/**
 * The first place at or after `from` where `word` stands as the `iu` flags match a literal
 * pattern of it (`new RegExp(escapeRegExp(word), 'iu')`), or -1; overlapping places are found
 * one by one. An ASCII word is compared by hand; another asks its pattern at each place.
 */
export function caselessIndexOf(text: string, word: string, from = 0): number {
  const n = word.length;
  let ascii = n > 0;
  for (let j = 0; j < n && ascii; j++) if (word.charCodeAt(j) >= 128) ascii = false;
  if (!ascii) return indexOfByPattern(text, word, from);
  const first = foldToAscii(word.charCodeAt(0));
  for (let i = from; i + n <= text.length; i++) {
    if (foldToAscii(text.charCodeAt(i)) !== first) continue;
    let j = 1;
    while (j < n && foldToAscii(text.charCodeAt(i + j)) === foldToAscii(word.charCodeAt(j))) j++;
    if (j === n) return i;
  }
  return -1;
}

function indexOfByPattern(text: string, word: string, from: number): number {
  let literal = LITERALS.get(word);
  if (!literal) {
    if (LITERALS.size >= LITERAL_LIMIT) LITERALS.clear();
    literal = new RegExp(escapeRegExp(word), 'iuy');
    LITERALS.set(word, literal);
  }
  // Places are whole code points in Unicode mode: never between the two halves of a pair.
  for (let i = from; i <= text.length; i++) {
    const c = text.charCodeAt(i - 1);
    const d = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) continue;
    literal.lastIndex = i;
    if (literal.test(text)) return i;
  }
  return -1;
}
