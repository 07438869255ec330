// An acronym of the sentence that its passage spells out in lower case: "your AO's approval"
// where the passage says "your authorizing official", "a PR" for "a pull request". names.ts meets
// the capitalised runs ("NFL" / "National Football League"); handbooks often write a role or a
// thing in lower case, and a model abbreviates it the way the organisation does. The relevance
// check reads the question's acronyms the same way (relevance.ts, loosely: any run of words); a
// support check is stricter, so that a short acronym is not met by chance:
//
// * the run is one phrase of the passage (no punctuation inside it), of as many content words as
//   the acronym has letters, each word's first letter one letter of the acronym, in order;
// * a two-letter acronym needs two adjacent words of three letters or more ("an order" is no "AO");
// * a longer one may skip the small words that link a name's words, or take their letter
//   ("FIA" and "FOIA" for "freedom of information act"); the run never starts with one.

import { STOPWORDS } from '../text/terms';

/** Longest acronym read (letters). */
const MAX_LETTERS = 6;
/** Words that may sit between the spelled-out words of a longer acronym. */
const LINKS = new Set(['of', 'and', 'for', 'the', 'to', 'in', 'on', '&']);
const LETTERS_ONLY = /^\p{Lu}+$/u;

/** Whether `passage` spells `acronym` (as the sentence writes it: "AO") out in words of any case. */
export function spelledOut(acronym: string, passage: string): boolean {
  if (!LETTERS_ONLY.test(acronym) || acronym.length < 2 || acronym.length > MAX_LETTERS) return false;
  const letters = acronym.toLowerCase();
  const short = letters.length === 2;
  for (const phrase of passage.toLowerCase().split(/[.,;:!?()[\]|\n—–"“”]+/u)) {
    // Cheap look first: the phrase must hold a word starting with the acronym's first letter.
    if (!phrase.includes(letters[0])) continue;
    const words = phrase.match(/[\p{L}\p{N}&'’-]+/gu) ?? [];
    for (let i = 0; i < words.length; i++) {
      if (matchesFrom(words, i, letters, short)) return true;
    }
  }
  return false;
}

function matchesFrom(words: readonly string[], i: number, letters: string, short: boolean, k = 0): boolean {
  if (k === letters.length) return true;
  const w = words[i];
  if (w === undefined) return false;
  // A link inside a longer name ("freedom of information act") may give its letter or be skipped.
  if (k > 0 && !short && LINKS.has(w)) {
    return (
      (w[0] === letters[k] && matchesFrom(words, i + 1, letters, short, k + 1)) ||
      matchesFrom(words, i + 1, letters, short, k)
    );
  }
  // Otherwise every word of the run is a content word giving the next letter.
  if (STOPWORDS.has(w) || LINKS.has(w) || w[0] !== letters[k] || (short && w.length < 3)) return false;
  return matchesFrom(words, i + 1, letters, short, k + 1);
}

/** The names of `names` that are acronyms `passage` spells out ("AO" for "authorizing official"). */
export function spelledAcronyms<N extends { text: string }>(names: readonly N[], passage: string): N[] {
  return names.filter((n) => spelledOut(n.text, passage));
}
