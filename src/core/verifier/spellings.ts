// A word spelled the other side of the Atlantic is the same word: "organised" / "organized",
// "colour" / "color", "centre" / "center", "licence" / "license", "catalogue" / "catalog",
// "analyse" / "analyze", "programme" / "program", "judgement" / "judgment". The stemmer does not
// join them ("organis" / "organ"), so a sentence written in one spelling against a passage in the
// other missed its words, and a rare one sank it as distinctive. Each pattern is the regular
// ending of one spelling and its counterpart, read both ways; a word is respelled only when the
// passage lacks its stem and holds the other spelling's, so a word the passage writes as the
// sentence does is never touched, and a respelling that is no word is never found.

import { TokenScanner, stem } from '../text/terms';

// [British ending, American ending], each after at least three letters ("prise", "tour" are not these words).
const ENDINGS: readonly (readonly [RegExp, string, RegExp, string])[] = [
  [
    /(?<=\p{L}{3})is(e|es|ed|ing|ation|ations|er|ers)$/u,
    'iz$1',
    /(?<=\p{L}{3})iz(e|es|ed|ing|ation|ations|er|ers)$/u,
    'is$1',
  ],
  [/(?<=\p{L}{2})ys(e|es|ed|ing)$/u, 'yz$1', /(?<=\p{L}{2})yz(e|es|ed|ing)$/u, 'ys$1'],
  [
    /(?<=\p{L}{3})our(s|ed|ing|ite|ites|able|ably|ful|er|ers)?$/u,
    'or$1',
    /(?<=\p{L}{3})or(s|ed|ing|ite|ites|able|ably|ful)?$/u,
    'our$1',
  ],
  [/(?<=\p{L}{2})(t|b)re(s)?$/u, '$1er$2', /(?<=\p{L}{2})(t|b)er(s)?$/u, '$1re$2'],
  [/^(licen|defen|offen|preten)ce(s|d)?$/u, '$1se$2', /^(licen|defen|offen|preten)se(s|d)?$/u, '$1ce$2'],
  [/(?<=\p{L}{2})ogue(s)?$/u, 'og$1', /(?<=\p{L}{2})og(s)?$/u, 'ogue$1'],
  [/^programme(s|d)?$/u, 'program$1', /^program(s|med)?$/u, 'programme$1'],
  [/dgement(s)?$/u, 'dgment$1', /dgment(s)?$/u, 'dgement$1'],
];

/** The word (lower case) in the other spelling, or the words of each pattern it fits. */
export function otherSpellings(word: string): string[] {
  const out: string[] = [];
  for (const [british, american, americanForm, britishForm] of ENDINGS) {
    if (british.test(word)) out.push(word.replace(british, american));
    if (americanForm.test(word)) out.push(word.replace(americanForm, britishForm));
  }
  return out.filter((w) => w !== word);
}

// One test for every ending above, so that most words are passed over with one match.
const ANY_ENDING =
  /(?:[iy][sz](?:e|es|ed|ing|ation|ations|er|ers)|ou?r(?:s|ed|ing|ite|ites|able|ably|ful|er|ers)?|[tb](?:re|er)s?|ogu?e?s?|programm?e?[sd]?|programmed|dge?ments?|en[cs]e[sd]?)$/u;

/** A word of a sentence that has another spelling: where it is, its stem, and the other spellings (with their stems). */
export interface Respelling {
  start: number;
  end: number;
  stem: string;
  others: { word: string; stem: string }[];
}

/** The sentence's words that have another spelling (read once per sentence). */
export function respellings(sentence: string): Respelling[] {
  const out: Respelling[] = [];
  const tokens = new TokenScanner(sentence);
  while (tokens.next()) {
    if (tokens.end - tokens.start < 5) continue;
    const written = sentence.slice(tokens.start, tokens.end);
    const lower = written.toLowerCase();
    if (!ANY_ENDING.test(lower) || !/^\p{L}+$/u.test(written)) continue;
    const others = otherSpellings(lower).map((w) => ({
      word: written[0] === lower[0] ? w : w[0].toUpperCase() + w.slice(1),
      stem: stem(w),
    }));
    if (others.length) out.push({ start: tokens.start, end: tokens.end, stem: stem(lower), others });
  }
  return out;
}
/**
 * The sentence with each word the passage lacks (by stem) written in its other spelling, when the
 * passage holds that spelling's stem; the sentence itself when there is none.
 */
export function respelled(
  sentence: string,
  words: readonly Respelling[],
  passageHasStem: (stemmed: string) => boolean,
): string {
  let out = '';
  let pos = 0;
  for (const w of words) {
    if (passageHasStem(w.stem)) continue;
    const other = w.others.find((o) => passageHasStem(o.stem));
    if (!other) continue;
    out += sentence.slice(pos, w.start) + other.word;
    pos = w.end;
  }
  return pos === 0 ? sentence : out + sentence.slice(pos);
}
