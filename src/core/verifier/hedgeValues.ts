// The values a hedge names: "The passages don't say how GitHub deletes them once the 12 months are
// up", "… what the office was called before 2016", "… the other requirements for the GS-13 role".
// A hedge carrying a value presupposes a fact ("they don't mention the $500 fee"), so it stays a
// claim to check, unless the documents found give each of its values as written: then the value
// names what the answer is about (a term of a passage, the asker's grade), and the hedge says what
// is missing about it.

import type { Evidence } from '../../domain/types';
import { STOPWORDS } from '../text/terms';

// A word holding a digit, with its hyphenated parts ("GS-13", "W-2", "5-day", "2016", "1.5").
const VALUE_WORD = /(?:[\p{L}\d]+-)*[\p{L}\d]*\d[\p{L}\d]*(?:[.,-][\p{L}\d]+)*/gu;
const NUMBER_ONLY = /^\d+(?:[.,]\d+)*$/u;
const NEXT_WORD = /^\s+(\p{L}+)/u;

/** The values of the hedge as the documents would write them: a bare number with its unit word ("12 months"). */
export function hedgeValues(hedge: string): string[] {
  const values: string[] = [];
  for (const m of hedge.matchAll(VALUE_WORD)) {
    let value = m[0];
    const next = NEXT_WORD.exec(hedge.slice((m.index ?? 0) + value.length));
    if (NUMBER_ONLY.test(value) && next && !STOPWORDS.has(next[1].toLowerCase())) value += ` ${next[1]}`;
    values.push(value);
  }
  return values;
}

/** Whether some evidence text gives each value of the hedge as a whole phrase (case ignored). */
export function valuesGiven(hedge: string, evidence: readonly Evidence[]): boolean {
  const values = hedgeValues(hedge);
  if (values.length === 0) return false;
  const texts = evidence.map((e) => e.text.toLowerCase());
  return values.every((v) => {
    const value = v.toLowerCase();
    return texts.some((t) => {
      for (let at = t.indexOf(value); at >= 0; at = t.indexOf(value, at + 1)) {
        const before = t[at - 1] ?? ' ';
        const after = t[at + value.length] ?? ' ';
        if (!/[\p{L}\d]/u.test(before) && !/[\p{L}\d]/u.test(after)) return true;
      }
      return false;
    });
  });
}
