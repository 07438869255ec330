// A value is bound to the fact its phrase states: "moved to GSA in 2014" is not backed by a
// passage that gives 2013 where it says "moved to GSA" and 2014 for another fact.

import { analyse } from '../text/terms';
import type { SupportUnit } from './supportWindow';
import type { ValueMention } from './values';

/** What the check reads of a sentence: its text, stems and weights, values, and (cached here) each value's phrase. */
export interface ValueClaim {
  text: string;
  stems: string[];
  weights: number[];
  values: ValueMention[];
  phrases?: { terms: number[]; text: string }[];
}

const SEGMENT_BREAK = /[,;:()—–]/u;

/**
 * A value the passage gives for another fact: "moved to GSA in 2014" where the place that says
 * "moved to GSA" (every word of the value's own phrase) gives 2013, and 2014 is in a place
 * about something else ("launched … 2014"). The phrase is the words between the punctuation
 * around the value; only a place holding all of them, and a value of the same unit, decides.
 */
export function valueOfAnotherFact(
  claim: ValueClaim,
  units: readonly SupportUnit[],
  valuesOf: (u: SupportUnit) => ValueMention[],
): string | undefined {
  claim.phrases ??= valuePhrases(claim);
  for (let k = 0; k < claim.values.length; k++) {
    const v = claim.values[k];
    const { terms: phrase, text: said } = claim.phrases[k];
    if (phrase.length < 2) continue;
    const held = (u: SupportUnit): number => phrase.filter((i) => u.has[i]).length;
    const whole = units.filter((u) => held(u) === phrase.length);
    if (whole.length === 0) continue;
    if (whole.some((u) => valuesOf(u).some((x) => x.key === v.key))) continue;
    const other = whole.map((u) => valuesOf(u).find((x) => x.unit === v.unit && x.key !== v.key)).find(Boolean);
    if (!other) continue;
    return `'${v.text}' — the passage says ${other.text.replace(/\s+/g, ' ')} for '${said}'`;
  }
  return undefined;
}

/** Each value's phrase: the words between the punctuation around it (as indices into the stems). */
function valuePhrases(claim: ValueClaim): { terms: number[]; text: string }[] {
  const index = new Map(claim.stems.map((s, i) => [s, i] as const));
  return claim.values.map((v) => {
    if (v.start === undefined || v.end === undefined) return { terms: [], text: '' };
    let from = v.start;
    while (from > 0 && !SEGMENT_BREAK.test(claim.text[from - 1])) from--;
    let to = v.end;
    while (to < claim.text.length && !SEGMENT_BREAK.test(claim.text[to])) to++;
    const words = analyse(`${claim.text.slice(from, v.start)} ${claim.text.slice(v.end, to)}`, { stemming: true });
    const terms = [
      ...new Set(
        words.terms.map((t) => index.get(t.stem)).filter((i): i is number => i !== undefined && claim.weights[i] > 0),
      ),
    ];
    return { terms, text: claim.text.slice(from, to).trim() };
  });
}
