// Clause-level support: the clauses of a compound sentence as the sentence's terms, and the
// weakest clause after the first under its floor, which sinks the sentence (a short unbacked
// clause is not averaged away by a long backed one).

import { DEFAULT_THRESHOLD } from '../../domain/threshold';
import { analyse } from '../text/terms';
import { splitClauses } from './clauses';

/** A clause of the sentence with the indices (into the sentence's distinct stems) of its terms. */
export interface ClauseTerms {
  text: string;
  terms: number[];
}

/** Words that join clauses: not a claim of the clause they open. */
const JOINING_WORDS = new Set(['including', 'plus', 'likewise', 'whereas', 'although', 'though', 'while']);

/** Clauses of a compound sentence as indices of the sentence's distinct stems (none for a simple sentence). */
export function clausesOf(sentence: string, stems: string[], options: { stemming: boolean }): ClauseTerms[] {
  const parts = splitClauses(sentence);
  if (parts.length < 2) return [];
  const index = new Map(stems.map((s, i) => [s, i] as const));
  return parts
    .map((c) => ({
      text: c.text.replace(/[.!?]+$/, ''),
      terms: [
        ...new Set(
          analyse(c.text, options)
            .terms.filter((t) => !JOINING_WORDS.has(t.word))
            .map((t) => index.get(t.stem))
            .filter((i): i is number => i !== undefined),
        ),
      ],
    }))
    .filter((c) => c.terms.length > 0);
}

/**
 * Share of its weight a clause after the first must find in the passage. Chosen on WiCE dev
 * (docs/verifier.md): the default threshold; lower floors, checking the opening clause too, or
 * counting only the words a clause adds did no better there. It follows the default (a clause under
 * it once capped the sentence's score, so the threshold was its floor in effect): a clause under it
 * now sinks the sentence at every threshold, and the default's verdicts are those of the cap.
 */
export const CLAUSE_FLOOR = DEFAULT_THRESHOLD;

/**
 * The weakest clause after the first that is under the floor, with its score ("and so may
 * monthly plans" against a passage about annual plans: 'plans' found, 'monthly' not). The
 * opening clause carries the sentence's subject and verb, and the sentence score checks it.
 */
export function weakestClause(
  clauses: readonly ClauseTerms[],
  w: number[],
  isCovered: boolean[],
): { text: string; terms: number[]; score: number } | undefined {
  let weakest: { text: string; terms: number[]; score: number } | undefined;
  for (const c of clauses.slice(1)) {
    let total = 0;
    let matched = 0;
    for (const i of c.terms) {
      total += w[i];
      if (isCovered[i]) matched += w[i];
    }
    if (total === 0) continue;
    const score = matched / total;
    if (score < CLAUSE_FLOOR && (!weakest || score < weakest.score)) weakest = { text: c.text, terms: c.terms, score };
  }
  return weakest;
}
