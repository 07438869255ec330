// Proper names (organisations, products, places, people) read like values: a sentence that names
// one its passage never mentions is not backed, whatever its word overlap. "Refunds are handled
// by Globex [E1]" against a passage about Acme shares every other word and is still false; so is
// a near miss ("Acme Corp" for "Acme Inc"). A name is a capitalised word that does not open the
// sentence, or a word mixing letters and digits ("18F", "W-2"); a name word is found when the
// passage has a word of the same stem (so "Fridays" meets "Friday", "Canadian" does not meet
// "Canada").

import { STOPWORDS, stem, TOKEN, tokenWord } from './terms';

export interface NameMention {
  /** The word as written ("Globex"). */
  text: string;
  /** Its stem in lower case, as matched. */
  stem: string;
}

// Capitalised by convention, not names: dates are values (values.ts reads them).
// Our own copy of the token pattern: matchAll starts from a regex's lastIndex, which the shared one keeps between scans.
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

const NOT_NAMES = new Set(
  ('i ok okay january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday').split(' '),
);

/** Names the sentence mentions, in order, each once. */
export function extractNames(sentence: string): NameMention[] {
  const names = new Map<string, NameMention>();
  let first = true;
  for (const m of sentence.matchAll(WORDS)) {
    const token = m[0];
    const at = m.index ?? 0;
    // The first word of the sentence, and the first after a colon or an opening quote, are capitalised by grammar.
    const before = sentence.slice(Math.max(0, at - 2), at);
    const opensPhrase = first || /[:"“‘(]\s?$/u.test(before);
    first = false;
    const lower = tokenWord(token.toLowerCase());
    if (lower.length < 2 || STOPWORDS.has(lower) || NOT_NAMES.has(lower) || NOT_NAMES.has(lower.replace(/s$/, ''))) continue;
    const mixed = /\p{L}/u.test(token) && /\d/.test(token);
    const capitalised = /^\p{Lu}/u.test(token);
    const inner = /^\p{Ll}+\p{Lu}/u.test(token); // "iPhone", "eBay"
    if (!(mixed || inner || (capitalised && !opensPhrase) || (capitalised && /^\p{Lu}[\p{Lu}\d]+$/u.test(token)))) continue;
    const s = stem(lower);
    if (!names.has(s)) names.set(s, { text: token, stem: s });
  }
  return [...names.values()];
}

/** Stems of every word of a passage, for name lookups. */
export function passageStems(passage: string): Set<string> {
  const stems = new Set<string>();
  for (const m of passage.toLowerCase().matchAll(WORDS)) stems.add(stem(tokenWord(m[0])));
  return stems;
}

/** The names of the sentence the passage never mentions. */
export function missingNames(names: readonly NameMention[], stems: ReadonlySet<string>): NameMention[] {
  return names.filter((n) => !stems.has(n.stem));
}
