// Whether a sentence says anything a window's quantifiers could conflict with (read once per sentence,
// kept on it): only then does the lexical check read the window's text for quantifiers.

import { claimsNoException, claimsUniversal, emphaticOf, mentionsQuantifier } from './anchors';
import { saysBothAnd } from './coordination';
import { hedgesFrequency } from './frequency';

/** A sentence's text and what was read of it. */
export interface QuantifiedClaim {
  text: string;
  universal?: boolean;
  emphatic?: string | null;
  scoped?: boolean;
}

/**
 * The sentence has a universal ("always", "every…"), an emphatic ("at all") or a noun's quantifier
 * ("most GSA facilities"), or says that nothing is left out ("without exception"): only then can the
 * window's quantifiers conflict with it, so only then is the window's text read.
 */
export function quantified(claim: QuantifiedClaim): boolean {
  claim.universal ??= claimsUniversal(claim.text) || hedgesFrequency(claim.text) || saysBothAnd(claim.text);
  if (claim.emphatic === undefined) claim.emphatic = emphaticOf(claim.text);
  claim.scoped ??= mentionsQuantifier(claim.text) || claimsNoException(claim.text);
  return claim.universal || claim.emphatic !== null || claim.scoped;
}
