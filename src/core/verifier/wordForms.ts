// Other forms of the sentence's words that the passage writes: two words it runs together
// ("time zone" / "timezone"), and the words of quoted titles, which name rather than claim.

import { analyse, stem } from '../text/terms';
import { quotedTitles } from './anchors';

/** Stems of the words inside the sentence's quoted titles: they name, they do not affirm. */
export function titledStems(sentence: string, options: { stemming: boolean }): Set<string> {
  return new Set(quotedTitles(sentence).flatMap((t) => analyse(t, options).terms.map((x) => x.stem)));
}

const WORD_PAIR = /(?<![\p{L}\p{N}])(\p{L}{2,})\s+(?=(\p{L}{2,})(?![\p{L}\p{N}]))/gu;

/**
 * The sentence with each pair of words joined that the passage writes as one word ("end time
 * with time zone" / "timezone"), when one of the two is missing from the passage's window.
 */
export function runTogether(sentence: string, lower: string, missing: readonly string[], stemming: boolean): string {
  if (missing.length === 0) return sentence;
  const lost = new Set(missing);
  const isLost = (word: string): boolean => lost.has(stemming ? stem(word) : word);
  const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  let out = '';
  let pos = 0;
  for (const m of sentence.matchAll(WORD_PAIR)) {
    const a = m[1].toLowerCase();
    const b = m[2].toLowerCase();
    if (!isLost(a) && !isLost(b)) continue;
    const one = a + b;
    let at = lower.indexOf(one);
    while (at >= 0 && (isWordChar(lower[at - 1]) || isWordChar(lower[at + one.length]))) {
      at = lower.indexOf(one, at + 1);
    }
    if (at < 0) continue;
    const gap = (m.index ?? 0) + m[1].length;
    out += sentence.slice(pos, gap);
    pos = (m.index ?? 0) + m[0].length;
  }
  return pos === 0 ? sentence : out + sentence.slice(pos);
}
