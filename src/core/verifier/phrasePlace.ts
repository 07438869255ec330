// The place of the passage that states a sentence's phrase. The window is chosen for the words of
// the whole sentence, so it may hold a word where the passage says something else of it, while
// another place states the phrase itself: "such Modifications may be implemented at any time and
// without notice to you" is backed by "…may be implemented at any time and without any notice to
// Developer", though the window took "within thirty days from the date of first notice". The
// negation (or the affirmation) of a word is then read at the place that holds more of its phrase
// near the word than any place of the window saying the opposite, and at least two of its words.

import { matchesOf } from '../text/matches';
import { stem, TOKEN, type Term } from '../text/terms';
import type { SupportUnit } from './supportWindow';

// Our own copy of the token pattern (matchAll starts from a shared regex's lastIndex).
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

/** Punctuation that ends a phrase: a comma besides the clause breaks. */
const PHRASE_END = /[,;:!?—–()\n]|\.\s/u;

/** The fewest other words of its phrase a place must hold besides the word. */
export const PHRASE_WORDS_HELD = 2;

/** Token positions after which the text's phrase ends (a comma, a colon, a dash, a bracket). */
export function phraseBreaks(text: string): number[] {
  const breaks: number[] = [];
  let position = -1;
  let last = 0;
  for (const m of matchesOf(WORDS, text)) {
    if (position >= 0 && PHRASE_END.test(text.slice(last, m.index))) breaks.push(position);
    position++;
    last = (m.index ?? 0) + m[0].length;
  }
  return breaks;
}

/** The stem indices of the words in the phrase around token `at` (word `word` left out). */
export function phraseAround(
  terms: readonly Term[],
  index: ReadonlyMap<string, number>,
  breaks: readonly number[],
  at: number,
  word: number,
): number[] {
  let from = -1;
  let to = Infinity;
  for (const b of breaks) {
    if (b < at) from = b;
    else {
      to = b;
      break;
    }
  }
  const phrase: number[] = [];
  for (const t of terms) {
    if (t.position <= from || t.position > to) continue;
    const i = index.get(t.stem);
    if (i !== undefined && i !== word && !phrase.includes(i)) phrase.push(i);
  }
  return phrase;
}

/** Words at most this many tokens from the word count as its phrase's in a place. */
export const PHRASE_REACH = 10;

/**
 * How many of the phrase's stems stand within PHRASE_REACH tokens of the word in the text, at the
 * word's best place (0 when the text does not hold the word as written).
 */
export function heldNear(text: string, word: string, phrase: readonly string[]): number {
  const stems = matchesOf(WORDS, text).map((m) => stem(m[0].toLowerCase()));
  let best = 0;
  stems.forEach((s, at) => {
    if (s !== word) return;
    const near = new Set(stems.slice(Math.max(0, at - PHRASE_REACH), at + PHRASE_REACH + 1));
    best = Math.max(best, phrase.filter((p) => near.has(p)).length);
  });
  return best;
}

/**
 * The unit of the passage, other than the window's units that say the opposite (`opposite`), that
 * says of the word what the sentence says (`says`) with more of its phrase near it than any of them
 * has, and at least PHRASE_WORDS_HELD of its words; or undefined.
 */
export function placeOfPhrase(
  units: readonly SupportUnit[],
  opposite: readonly SupportUnit[],
  word: string,
  phrase: readonly string[],
  textOf: (unit: SupportUnit) => string,
  says: (unit: SupportUnit) => boolean,
): SupportUnit | undefined {
  const rival = Math.max(0, ...opposite.map((u) => heldNear(textOf(u), word, phrase)));
  return units.find((u) => {
    if (opposite.includes(u) || !says(u)) return false;
    const n = heldNear(textOf(u), word, phrase);
    return n >= PHRASE_WORDS_HELD && n > rival;
  });
}
