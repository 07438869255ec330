// Citation coverage, defined once, and the per-turn metrics built on it. The turn result, the
// metrics log, the CLI's JSON and the evaluation report all take coverage from here.
//
// Coverage of one answer = kept / (kept + dropped): the share of its factual sentences that
// survived verification with a supporting citation. Edge cases, each on purpose:
// * exempt sentences (greetings, "Here is what I found:", a NOT_FOUND line) are not factual and
//   count on neither side;
// * no factual sentence and no abstention (nothing claimed, so nothing unsupported) → 1;
// * no factual sentence and an abstention (nothing answered) → 0;
// * every factual sentence dropped → 0 (the verifier then abstains).

import type { SentenceVerdict, TurnMetrics, VerifiedText } from './types';

/** A sentence that states something the documents must back (kept or dropped, not exempt). */
export function isFactual(sentence: SentenceVerdict): boolean {
  return sentence.verdict !== 'exempt';
}

export function citationCoverage(sentences: readonly SentenceVerdict[], abstained: boolean): number {
  const factual = sentences.filter(isFactual);
  const kept = factual.filter((s) => s.verdict === 'kept').length;
  return factual.length ? kept / factual.length : abstained ? 0 : 1;
}

/** The four numbers of a turn: passages retrieved, coverage, sentences dropped, abstained. */
export function turnMetrics(retrieved: number, verified: VerifiedText): TurnMetrics {
  return {
    retrieved,
    coverage: citationCoverage(verified.sentences, verified.abstained),
    dropped: verified.sentences.filter((s) => s.verdict === 'dropped').length,
    abstained: verified.abstained,
  };
}
