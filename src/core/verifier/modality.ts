// An obligation is more than a permission. "GitHub is required to terminate the agreement" where
// the passage says "GitHub may terminate this Agreement" states a duty the passage does not give:
// every word is there, the verb too, but its modal says "must" where the passage says "may". The
// other way round ("may" where the passage says "must") claims less, and is not read here.

import { stem } from '../text/terms';
import { LruCache } from './passageScan';

// A modal of obligation before a verb (an adverb may sit between): "must", "shall", "is required
// to", "are obliged to", "has to". Not "will" (a future as often as a duty) nor "need to" (what a
// reader needs to do to use a permission: "you'll need to ask" for "you can ask").
const OBLIGATION =
  /(?<![\p{L}\p{N}'’])(not\s+|n['’]t\s+)?(?:must|shall|(?:is|are|was|were|be|been|being)\s+(?:required|obliged|obligated|bound)\s+to|(?:has|have|had)\s+to)\s+(?:(\p{L}+ly)\s+)?(\p{L}+)/giu;
// A modal of permission or possibility before a verb: "may", "can", "could", "might", "is allowed to".
const PERMISSION =
  /(?<![\p{L}\p{N}'’])(?:may|can|could|might|(?:is|are)\s+(?:allowed|permitted|entitled)\s+to)\s+(?:(\p{L}+ly)\s+)?(\p{L}+)/giu;
// A word that is no verb after a modal: a negation (the polarity check's), "only" (a restriction:
// "may reassign … only after 90 days" is a rule, not a leave), "also", "be", "not".
const NOT_A_VERB = new Set(['not', 'only', 'also', 'be', 'never', 'still', 'then', 'now', 'always', 'even', 'just']);

// The verbs of the sentences read last (a sentence is checked against each passage it cites).
const OBLIGED = new LruCache<string, { stem: string; said: string }[]>(64);
// Runs of letters (made once: the bundler builds a `\p{…}` literal written in a function on every call).
const LETTERS = /\p{L}+/gu;

/** The verbs the text puts under a modal of obligation (stems), with the words as written. */
export function obligedVerbs(text: string): { stem: string; said: string }[] {
  let out = OBLIGED.get(text);
  if (out) return out;
  out = [];
  OBLIGED.set(text, out);
  for (const m of text.matchAll(OBLIGATION)) {
    const verb = m[3].toLowerCase();
    if (m[1] || NOT_A_VERB.has(verb) || NOT_A_VERB.has((m[2] ?? '').toLowerCase())) continue;
    // "doesn't have to", "isn't required to": a negated obligation is no obligation.
    if (/(?:\bnot|n['’]t)\s*$/iu.test(text.slice(Math.max(0, (m.index ?? 0) - 8), m.index))) continue;
    out.push({ stem: stem(verb), said: m[0].trim() });
  }
  return out;
}

/**
 * The passage side (kept per passage text by the caller): for each verb stem, whether every place
 * that writes the verb after a modal or bare writes it under a permission. Read only for the stems
 * asked about.
 */
export function onlyPermitted(passage: string, verb: string): string | undefined {
  let permitted: string | undefined;
  const permittedAt = new Set<number>();
  for (const m of passage.matchAll(PERMISSION)) {
    const word = m[2].toLowerCase();
    if (NOT_A_VERB.has(word) || NOT_A_VERB.has((m[1] ?? '').toLowerCase()) || stem(word) !== verb) continue;
    permittedAt.add((m.index ?? 0) + m[0].length - m[2].length);
    permitted ??= m[0].trim();
  }
  if (!permitted) return undefined;
  // Any other place that writes the verb (bare, or under another modal) may state the duty.
  for (const m of passage.matchAll(LETTERS)) {
    if (!permittedAt.has(m.index ?? 0) && stem(m[0].toLowerCase()) === verb) return undefined;
  }
  return permitted;
}

/**
 * A verb the sentence puts under an obligation while the window's text writes it only under a
 * permission: the explanation, or undefined.
 */
export function obligationNotGiven(sentence: string, windowText: () => string): string | undefined {
  for (const { stem: verb, said } of obligedVerbs(sentence)) {
    const permitted = onlyPermitted(windowText(), verb);
    if (permitted) return `the sentence says '${said}'; the passage says '${permitted}'`;
  }
  return undefined;
}
