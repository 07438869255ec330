// A negated phrase the passage negates as a phrase, with another verb or a longer predicate before
// it: "the tool doesn't get FedRAMP authorization" where the passage says "the software does not
// receive FedRAMP authorization"; "not as free hosting for an online business" where it says "is
// not intended for or allowed to be used as a free web hosting service to run your online
// business". The polarity check reads a negation's head, the first word after the cue that the
// passage holds ("get", "free"); the passage's own cue governs its first word ("receive",
// "intended"), so the head alone is never negated there. The phrase is the two words the
// sentence's negation goes on to after its head; both stand in one clause of the unit that a
// negation opens, the cue before them. What the head says is still checked on its own: a word the
// passage lacks is a missing word, one it holds elsewhere a swap (swaps.ts) or a missing need's object.

import { stem } from '../text/terms';

/** Words of the sentence's phrase (after its head) the passage's negated clause must hold. */
export const PHRASE_WORDS = 2;
/** A negation cue of the passage, and the clause it opens (to the next punctuation). */
const NEGATED_CLAUSE = /(?:\b(?:not|no|never|neither|nor)\b|n['’]t\b)([^.,;:!?()—–\n]*)/giu;
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/**
 * Whether `unitText` has a clause opened by a negation that holds every stem of `phrase` (the
 * words the sentence's negation reaches after its head `head`, as stems: PHRASE_WORDS of them, no
 * fewer), where the unit does not state the head outside that clause ("acquire no rights to use
 * the logo, and an interest in it" does not deny the interest), and the clause does not open with
 * a word of need (`needWords`, stems): "not required to attend the meeting" does not forbid attending.
 */
export function negatesPhrase(
  unitText: string,
  head: string,
  phrase: readonly string[],
  needWords: ReadonlySet<string>,
): boolean {
  const wanted = new Set(phrase);
  if (wanted.size < PHRASE_WORDS) return false;
  const lower = unitText.toLowerCase();
  for (const m of lower.matchAll(NEGATED_CLAUSE)) {
    const clause = (m[1].match(WORD) ?? []).map(stem);
    if (clause.length === 0 || needWords.has(clause[0]) || ![...wanted].every((s) => clause.includes(s))) continue;
    const start = m.index ?? 0;
    const outside = `${lower.slice(0, start)} ${lower.slice(start + m[0].length)}`;
    if (!(outside.match(WORD) ?? []).some((w) => stem(w) === head)) return true;
  }
  return false;
}
