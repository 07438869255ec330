// A value is bound to the fact its phrase states: "moved to GSA in 2014" is not backed by a
// passage that gives 2013 where it says "moved to GSA" and 2014 for another fact.

import { analyse } from '../text/terms';
import type { SupportUnit } from './supportWindow';
import { isMeasure, type ValueMention } from './values';

/** What the check reads of a sentence: its text, stems and weights, values, and (cached here) each value's phrase. */
export interface ValueClaim {
  text: string;
  stems: string[];
  weights: number[];
  values: ValueMention[];
  phrases?: { terms: number[]; text: string }[];
  /** For each value, the names of its phrase (indices into the stems), once read. */
  named?: number[][];
  /** Each value's clause: the words between the sentence's clause marks around it (";", ":", a dash). */
  valueClauses?: { terms: number[]; text: string }[];
}

const SEGMENT_BREAK = /[,;:()—–]/u;
// A clause ends at a semicolon, a colon or a dash, not at a comma or parentheses: in "entered as-is,
// with no receipt, as long as the fee is under $75" the value is said of the whole clause.
const CLAUSE_BREAK = /[;:—–]/u;
// A value written as a modifier names a period set elsewhere ("the 30-day rule", "a one-year term").
const MODIFIER = /-\s*\p{L}+$/u;

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

/**
 * A value the passage gives only about something else: "Customers who bought it within the last 30
 * days keep their license rights" where the one place giving 30 days is the notice before a
 * removal; "| `color_mode` | Your selected theme preference | One year |" where One year is another
 * cookie's row. A duration or an amount is bound to the words of its clause (between ";", ":" or a
 * dash; commas and parentheses do not end it): when every place of the passage giving the value
 * holds none of those words (at least two of them, none soft), the passage does not say it of
 * what the sentence says it of. One shared word (a stem or a lexicon alternative) keeps it: the
 * rule reads no wording, only whether the value's own words are anywhere near it. Not read: other
 * values (a street number, a version are names more than measures) and a value written as a
 * modifier ("the 30-day rule" names a period, it does not state one).
 */
export function valueOfNothingSaid(
  claim: ValueClaim,
  units: readonly SupportUnit[],
  valuesOf: (u: SupportUnit) => ValueMention[],
  passage: string,
): string | undefined {
  claim.valueClauses ??= valuePhrases(claim, CLAUSE_BREAK);
  for (let k = 0; k < claim.values.length; k++) {
    const v = claim.values[k];
    const { terms: phrase } = claim.valueClauses[k];
    if (!isMeasure(v.unit) || MODIFIER.test(v.text) || phrase.length < 2) continue;
    const giving = units.filter((u) => valuesOf(u).some((x) => x.key === v.key));
    if (giving.length === 0) continue;
    if (giving.some((u) => phrase.some((i) => u.has[i]))) continue;
    return `'${v.text}' — the passage gives it only for '${passage.slice(giving[0].start, giving[0].end).replace(/\s+/g, ' ').trim()}'`;
  }
  return undefined;
}

/**
 * A value the passage gives for another named thing: "Copilot CLI reached GA on 27 February
 * 2026" where the row that names Copilot CLI gives 25 February 2026, and 27 February 2026 is in
 * a row naming only part of it ("Copilot Enterprise … Dashboard"). The names are those of the
 * value's phrase (`names`: the stems of the sentence's proper names); only a place naming all of
 * them that gives another value of the same unit, while every place giving the sentence's value
 * names some of them but not all, decides (a place naming none, "It reached GA on …", does not).
 */
export function valueOfAnotherName(
  claim: ValueClaim,
  names: readonly { text: string; stem: string }[],
  units: readonly SupportUnit[],
  valuesOf: (u: SupportUnit) => ValueMention[],
): string | undefined {
  if (names.length < 2) return undefined;
  claim.phrases ??= valuePhrases(claim);
  claim.named ??= namesOfPhrases(claim, names);
  for (let k = 0; k < claim.values.length; k++) {
    const v = claim.values[k];
    const named = claim.named[k];
    if (!v.unit || named.length < 2) continue;
    const held = (u: SupportUnit): number => named.filter((i) => u.has[i]).length;
    const whole = units.filter((u) => held(u) === named.length);
    if (whole.length === 0 || whole.some((u) => valuesOf(u).some((x) => x.key === v.key))) continue;
    const others = whole.flatMap((u) => valuesOf(u).filter((x) => x.unit === v.unit && x.key !== v.key));
    if (others.length === 0) continue;
    // Only then the places giving the sentence's value (reading the values of every unit costs).
    const giving = units.filter((u) => valuesOf(u).some((x) => x.key === v.key));
    if (giving.length === 0 || giving.some((u) => held(u) === 0 || held(u) === named.length)) continue;
    const month = v.key.split(' ')[0];
    const other = others.find((x) => x.key.split(' ')[0] === month) ?? others[0];
    const who = named.map((i) => names.find((n) => n.stem === claim.stems[i])?.text ?? claim.stems[i]).join(' ');
    return `'${v.text}' — the passage says ${other.text.replace(/\s+/g, ' ')} for '${who}'`;
  }
  return undefined;
}

/** For each value, the stems (indices) of the sentence's names written in its phrase; read once per sentence. */
function namesOfPhrases(claim: ValueClaim, names: readonly { text: string; stem: string }[]): number[][] {
  const index = new Map(claim.stems.map((s, i) => [s, i] as const));
  const phrases = claim.phrases ?? [];
  return claim.values.map((_, k) => {
    const said = phrases[k]?.text ?? '';
    return [
      ...new Set(
        names
          .filter((n) => writesWord(said, n.text))
          .map((n) => index.get(n.stem))
          .filter((i): i is number => i !== undefined),
      ),
    ];
  });
}

/** Whether `text` holds `word` as a whole word (no letter or digit on either side). */
function writesWord(text: string, word: string): boolean {
  const edge = (c: string | undefined): boolean => c === undefined || !/[\p{L}\p{N}]/u.test(c);
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (edge(text[at - 1]) && edge(text[at + word.length])) return true;
  }
  return false;
}

/** Each value's phrase: the words between the punctuation around it (as indices into the stems). */
function valuePhrases(claim: ValueClaim, breaks = SEGMENT_BREAK): { terms: number[]; text: string }[] {
  const index = new Map(claim.stems.map((s, i) => [s, i] as const));
  return claim.values.map((v) => {
    if (v.start === undefined || v.end === undefined) return { terms: [], text: '' };
    let from = v.start;
    while (from > 0 && !breaks.test(claim.text[from - 1])) from--;
    let to = v.end;
    while (to < claim.text.length && !breaks.test(claim.text[to])) to++;
    const words = analyse(`${claim.text.slice(from, v.start)} ${claim.text.slice(v.end, to)}`, { stemming: true });
    const terms = [
      ...new Set(
        words.terms.map((t) => index.get(t.stem)).filter((i): i is number => i !== undefined && claim.weights[i] > 0),
      ),
    ];
    return { terms, text: claim.text.slice(from, to).trim() };
  });
}
