// The conservative exemption: an uncited sentence may stay only when it claims nothing, i.e.
// a greeting, a hedge about the answer itself or a meta sentence ("Here is what I found:").
// Every exemption is an unchecked sentence, so the rule is an allow-list of words: any other
// content word, any digit, any negation or a long sentence makes it factual.

import { analyse } from './terms';

// Words that talk about the conversation or the search, never about a policy.
const META_WORDS = new Set(
  (
    'hello hi hey thanks thank welcome sure certainly glad happy hope helps help helpful let know ' +
    'question questions anything else further feel free ask please ' +
    'here following found find summary summarise summarize answer answers below ' +
    'based according documents document passages passage sources source provided retrieved search searched ' +
    'information details relevant say says said '
  )
    .trim()
    .split(/\s+/),
);

const MAX_WORDS = 14;

export function isNonFactual(sentence: string): boolean {
  if (/\d/.test(sentence)) return false;
  const analysed = analyse(sentence, { stemming: false });
  if (analysed.length === 0 || analysed.length > MAX_WORDS) return false;
  if (analysed.negations.length > 0) return false;
  return analysed.terms.every((t) => META_WORDS.has(t.word));
}
