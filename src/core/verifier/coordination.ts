// "Both A and B" claims the two together; where the passage writes "A or B", either one is enough
// ("accounts on both GitHub Enterprise Cloud and GitHub.com" for "an account on GitHub Enterprise Cloud
// or GitHub.com"). The words next to the conjunction are compared, as written, in lower case.

import { escapeRegExp } from '../text/matches';

const BOTH_AND = /\bboth\b[^.;:!?]{0,80}?([\p{L}\p{N}][\p{L}\p{N}.'’-]*)\s+and\s+([\p{L}\p{N}][\p{L}\p{N}.'’-]*)/iu;

/** Whether the sentence may say "both … and" (a cheap test before the window is read). */
export function saysBothAnd(sentence: string): boolean {
  return BOTH_AND.test(sentence);
}

/**
 * The sentence's "both A and B" where the window joins the same two words with "or" and never with
 * "and": the explanation, or undefined.
 */
export function bothWhereEither(sentence: string, windowText: string): string | undefined {
  const m = BOTH_AND.exec(sentence);
  if (!m) return undefined;
  const [a, b] = [m[1], m[2]].map((w) => escapeRegExp(w.toLowerCase().replace(/[.'’]+$/u, '')));
  const joined = (conjunction: string): boolean =>
    new RegExp(`(?<![\\p{L}\\p{N}])${a}[.'’]?,?\\s+${conjunction}\\s+${b}(?![\\p{L}\\p{N}])`, 'iu').test(windowText);
  if (!joined('or') || joined('and')) return undefined;
  return `the sentence says 'both … ${m[1]} and ${m[2]}' where the passage says '${m[1]} or ${m[2]}'`;
}
