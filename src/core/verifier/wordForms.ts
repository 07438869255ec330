// Other forms of the sentence's words that the passage writes: two words it runs together
// ("time zone" / "timezone"), and the words of quoted titles, which name rather than claim.

import { matchesOf } from '../text/matches';
import { analyse, stem } from '../text/terms';
import { quotedTitles } from './anchors';
import { type PreparedPassage, prefixCode } from './passageScan';

/** Stems of the words inside the sentence's quoted titles: they name, they do not affirm. */
export function titledStems(sentence: string, options: { stemming: boolean }): Set<string> {
  return new Set(quotedTitles(sentence).flatMap((t) => analyse(t, options).terms.map((x) => x.stem)));
}

const WORD_PAIR = /(?<![\p{L}\p{N}])(\p{L}{2,})\s+(?=(\p{L}{2,})(?![\p{L}\p{N}]))/gu;

/** Two adjacent words of a sentence, as stems and joined, and the gap between them. */
export interface WordPair {
  first: string;
  second: string;
  /** The two words written as one, in lower case ("timezone"). */
  joined: string;
  gapStart: number;
  gapEnd: number;
}

/** The sentence's pairs of adjacent words (read once per sentence). */
export function wordPairs(sentence: string, stemming: boolean): WordPair[] {
  const pairs: WordPair[] = [];
  for (const m of matchesOf(WORD_PAIR, sentence)) {
    const a = m[1].toLowerCase();
    const b = m[2].toLowerCase();
    const at = m.index ?? 0;
    pairs.push({
      first: stemming ? stem(a) : a,
      second: stemming ? stem(b) : b,
      joined: a + b,
      gapStart: at + m[1].length,
      gapEnd: at + m[0].length,
    });
  }
  return pairs;
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/** The character is a letter or a number (/[\p{L}\p{N}]/u), read without the pattern on ASCII. */
function isWordChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
  return LETTER_OR_NUMBER.test(c);
}

/** Whether the lower-cased text holds the word as a whole word. */
export function holdsWord(lower: string, word: string): boolean {
  let at = lower.indexOf(word);
  while (at >= 0 && (isWordChar(lower[at - 1]) || isWordChar(lower[at + word.length]))) {
    at = lower.indexOf(word, at + 1);
  }
  return at >= 0;
}

// The prefix codes asked about in one call of `holdsWords` (1 = asked, 2 = a plain token has it); cleared after.
const ASKED = new Uint8Array(1 << 18);

/** The word is ASCII lower-case letters, three or more. */
function isPlainLowerWord(word: string): boolean {
  if (word.length < 3) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/**
 * `holdsWord(passage.lower, w)` for each word, with one pass over the passage's tokens instead of a
 * scan of its text per word. A word of ASCII letters held as a whole word lies inside one token (a
 * token never ends between two ASCII letters): a plain token starting where the word does, so one
 * with the word's prefix code (its first three letters), or a token that is not plain. The text
 * is scanned (by `holdsWord`, so the answer is the same) only for a word that such a token could
 * hold; any other word is not held.
 */
export function holdsWords(passage: PreparedPassage, words: readonly string[]): boolean[] {
  const { lower, tokens } = passage;
  const codes = words.map((w) => (isPlainLowerWord(w) ? prefixCode(w, 0, 3) : -1));
  for (const code of codes) if (code >= 0) ASKED[code] = 1;
  const notPlain: number[] = [];
  try {
    for (let t = 0; t < tokens.length; t += 3) {
      const code = tokens[t + 2];
      if (code < 0) notPlain.push(tokens[t], tokens[t + 1]);
      else if (ASKED[code] !== 0) ASKED[code] = 2;
    }
    return words.map((word, k) => {
      const code = codes[k];
      if (code < 0 || ASKED[code] === 2 || insideOne(lower, word, notPlain)) return holdsWord(lower, word);
      return false;
    });
  } finally {
    for (const code of codes) if (code >= 0) ASKED[code] = 0;
  }
}

/** Whether `word` is written inside one of the ranges (start, end pairs) of `lower`. */
function insideOne(lower: string, word: string, ranges: readonly number[]): boolean {
  for (let r = 0; r < ranges.length; r += 2) {
    for (let at = ranges[r]; at + word.length <= ranges[r + 1]; at++) if (lower.startsWith(word, at)) return true;
  }
  return false;
}

/**
 * The sentence with each pair of words joined that the passage writes as one word ("end time
 * with time zone" / "timezone"), when one of the two is missing from the passage's window.
 */
export function runTogether(
  sentence: string,
  pairs: readonly WordPair[],
  passageHas: (word: string) => boolean,
  isMissing: (stemmed: string) => boolean,
): string {
  let out = '';
  let pos = 0;
  for (const p of pairs) {
    if ((!isMissing(p.first) && !isMissing(p.second)) || !passageHas(p.joined)) continue;
    out += sentence.slice(pos, p.gapStart);
    pos = p.gapEnd;
  }
  return pos === 0 ? sentence : out + sentence.slice(pos);
}
