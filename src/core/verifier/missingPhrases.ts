// How a drop's explanation names the words of the sentence its passage lacks: adjacent missing
// words joined into phrases ("'business class'"), a few at most, long tokens cut.

import type { Term } from '../text/terms';

/** Adjacent missing words of the sentence joined into phrases: "'business class'". */
export function missingPhrases(terms: Term[], missing: Set<string>, limit: number): string {
  const phrases: string[] = [];
  let current: Term[] = [];
  const flush = (): void => {
    if (current.length) phrases.push(`'${current.map((t) => shown(t.word)).join(' ')}'`);
    current = [];
  };
  for (const t of terms) {
    if (!missing.has(t.stem)) {
      flush();
      continue;
    }
    if (current.length && t.position !== current[current.length - 1].position + 1) flush();
    current.push(t);
  }
  flush();
  const list = phrases.slice(0, limit).join(', ');
  return phrases.length > limit ? `${list} and ${phrases.length - limit} more` : list;
}

/** A word as an explanation shows it: long tokens cut. */
function shown(word: string): string {
  return word.length > 40 ? `${word.slice(0, 24)}…` : word;
}
