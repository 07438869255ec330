// Frequency words. "Usually", "generally" where the passage says "always" or "regardless" say that
// there are exceptions the passage rules out ("The rate is usually 75%" where it is "always 75%,
// regardless of …"). The converse of anchors.ts' "always" where the passage hedges.

import { claimsUniversal, withoutAnswerParticle } from './anchors';

const HEDGE_ADVERB =
  /\b(?:usually|generally|typically|normally|often|sometimes|mostly|occasionally|in\s+most\s+cases)\b/i;
const ALWAYS_ONLY = /\b(?:always|without\s+exception|in\s+all\s+cases|regardless\s+of)\b/i;

/** The sentence hedges a frequency (outside an opening answer particle). */
export function hedgesFrequency(sentence: string): boolean {
  return HEDGE_ADVERB.test(withoutAnswerParticle(sentence)) && !claimsUniversal(sentence);
}

/** The passage's "always" where the sentence hedges: the two words, or undefined. */
export function hedgeWhereAlways(sentence: string, passageWindow: string): string | undefined {
  if (!hedgesFrequency(sentence)) return undefined;
  const always = ALWAYS_ONLY.exec(passageWindow);
  if (!always) return undefined;
  const hedge = HEDGE_ADVERB.exec(withoutAnswerParticle(sentence));
  return `the sentence says '${hedge?.[0] ?? ''}' where the passage says '${always[0]}'`;
}
