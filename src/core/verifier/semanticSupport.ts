// Meaning under the embedding model (when one is loaded): the distinctive words of a sentence
// that the lexical tier found missing may be said in other words by the passage ("hard" /
// "difficult"). Each missing word is compared with the content words of the cited passages; the
// sentence is kept only when every missing word has a passage word at least WORD_SIMILARITY
// close, and the lexical score counting them reaches the threshold. Anchors (values, dates,
// names, negation, quantifiers) never reach this step: the lexical tier has already decided them.

import type { Evidence } from '../../domain/types';
import type { SupportResult, TextSimilarity } from '../types';
import { analyse } from '../text/terms';

/** Cosine a passage word must reach to stand for a missing word (chosen on the dev answers). */
export const WORD_SIMILARITY = 0.85;
/** Passage words compared per missing word (the most informative ones first: bounded cost). */
const MAX_CANDIDATES = 48;

export async function semanticSupport(
  claim: string,
  lexical: SupportResult,
  passages: readonly Evidence[],
  similarity: TextSimilarity,
  threshold: number,
  signal?: AbortSignal,
): Promise<SupportResult | undefined> {
  const missing = lexical.missing?.words ?? [];
  if (missing.length === 0 || missing.length > 3 || (lexical.missing?.scoreIfMet ?? 0) < threshold) return undefined;
  const claimWords = new Set(analyse(claim, { stemming: false }).terms.map((t) => t.word));
  const candidates = [
    ...new Set(passages.flatMap((p) => analyse(p.text, { stemming: false }).terms.map((t) => t.word))),
  ]
    .filter((w) => !claimWords.has(w) && !/\d/.test(w))
    .slice(0, MAX_CANDIDATES * 4);
  if (candidates.length === 0) return undefined;
  const matches: string[] = [];
  for (const word of missing) {
    signal?.throwIfAborted();
    const scores = await similarity.similarity(word, candidates, signal);
    let best = -1;
    let bestAt = -1;
    scores.forEach((s, i) => {
      if (s > best) {
        best = s;
        bestAt = i;
      }
    });
    if (best < WORD_SIMILARITY) return undefined;
    matches.push(`'${word}' as '${candidates[bestAt]}' (${best.toFixed(2)})`);
  }
  const score = lexical.missing?.scoreIfMet ?? threshold;
  return {
    score,
    code: 'supported',
    explanation: `met in other words under ${similarity.modelId}: ${matches.join(', ')}`,
  };
}
