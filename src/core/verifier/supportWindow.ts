// Which sentence-sized units of a passage hold which words of a sentence, with the lexicon's
// alternatives ("sent" is met by "transmitted", "police" by "law enforcement"), the words that
// carry a negation of their own ("prohibited") and the antonyms of the sentence's words; then the
// best window (up to `limit` units chosen greedily by the weight they add) and how much of each
// clause one place of the passage (a unit and its neighbour) backs.

import {
  type PassageUnit,
  type PreparedPassage,
  readPassage,
  type TermsToRead,
  termsToRead,
  UNIT_SLAB,
} from './passageScan';
import { alternativesOf, antonymsOf, FORBIDDING_WORDS, NEGATIVE_WORDS } from './lexicon';
import { inHeading } from './headingContext';
import type { PassageContext } from '../types';

/** A unit with the sentence's words it holds, directly or through an alternative. */
export interface SupportUnit extends PassageUnit {
  /** Index of the unit in the passage (adjacent units have adjacent indices). */
  index: number;
  /** via[i] = 1: term i is held only through a lexicon alternative. */
  via: Uint8Array;
  /** Stems of the words with a negation of their own ("prohibit", "unabl") in the unit. */
  negativeWords: ReadonlySet<string>;
  /** antonym[i]: bit 1 = the unit affirms a word whose meaning excludes term i's, bit 2 = it negates one. */
  antonym: Uint8Array;
  /** The antonym words found, by term index (for the explanation). */
  antonymWords: ReadonlyMap<number, string>;
}

export interface ReadOptions {
  stemming: boolean;
  /** Look up alternatives, negative words and antonyms (the lexicon); off = exact stems only. */
  lexicon: boolean;
  /** The sentence has a negation cue: the units' negative words matter. */
  negated: boolean;
}

/** What a sentence looks for in a passage, read from the lexicon once per sentence (see `planReading`). */
export interface ReadingPlan {
  /** How many of the terms are the sentence's own stems (they come first). */
  n: number;
  lexicon: boolean;
  /** Every distinct stem to look for: the sentence's, then the extra ones. */
  read: TermsToRead;
  /** The extra stems, each with what it stands for, and its position in `read.terms`. */
  extra: readonly string[];
  meaning: readonly Meaning[];
  at: readonly number[];
  /** The distinct positions of the extra stems. */
  extraAt: readonly number[];
}

type Meaning =
  | { kind: 'alt'; term: number; alt: number; parts: number }
  | { kind: 'negative' }
  | { kind: 'antonym'; term: number; word: string };

const NEGATIVE: Meaning = Object.freeze({ kind: 'negative' });

/**
 * The stems to look for: the sentence's own and, with the lexicon, the alternatives of every
 * term (used only for a term the passage does not hold itself), the negative words and the
 * antonyms. It depends on the sentence only, so a sentence checked against several passages
 * plans once.
 */
export function planReading(stems: readonly string[], options: ReadOptions): ReadingPlan {
  const n = stems.length;
  if (!options.lexicon) {
    return {
      n,
      lexicon: false,
      read: termsToRead(stems, options.stemming),
      extra: [],
      meaning: [],
      at: [],
      extraAt: [],
    };
  }
  // Extra stems to look for, each with what it stands for.
  const extra: string[] = [];
  const meaning: Meaning[] = [];
  const add = (s: string, m: Meaning): void => {
    extra.push(s);
    meaning.push(m);
  };
  let alternatives = 0;
  for (let i = 0; i < n; i++) {
    for (const alt of alternativesOf(stems[i])) {
      const id = alternatives++;
      for (const part of alt) add(part, { kind: 'alt', term: i, alt: id, parts: alt.length });
    }
    for (const a of antonymsOf(stems[i])) add(a, { kind: 'antonym', term: i, word: a });
  }
  for (const w of options.negated ? NEGATIVE_WORDS : FORBIDDING_WORDS) add(w, NEGATIVE);

  // One read of every distinct stem: the sentence's first (index i < n), then the extra ones.
  const terms = [...stems];
  const position = new Map(stems.map((s, i) => [s, i] as const));
  for (const s of extra) {
    if (!position.has(s)) {
      position.set(s, terms.length);
      terms.push(s);
    }
  }
  const at = extra.map((s) => position.get(s) as number);
  return {
    n,
    lexicon: true,
    read: termsToRead(terms, options.stemming),
    extra,
    meaning,
    at,
    extraAt: [...new Set(at)],
  };
}

/**
 * The units holding any sentence term, read in one pass over the passage: the sentence's own
 * stems and, with the lexicon, the alternatives of every term (used only for a term the passage
 * does not hold itself), the negative words and the antonyms, merged into the same units.
 */
export function readUnits(
  passage: PreparedPassage,
  stems: readonly string[] | ReadingPlan,
  options?: ReadOptions,
): SupportUnit[] {
  const plan = Array.isArray(stems) ? planReading(stems, options as ReadOptions) : (stems as ReadingPlan);
  const { n } = plan;
  // A unit's arrays are views of a shared slab, and its words sets the shared empty ones until a word is found.
  const blank = (u: PassageUnit, has: Uint8Array, negated: Uint8Array): SupportUnit => ({
    start: u.start,
    end: u.end,
    hasNegation: u.hasNegation,
    has,
    negated,
    index: unitIndex(passage, u.start),
    via: UNIT_SLAB.array(n),
    negativeWords: NO_WORDS,
    antonym: UNIT_SLAB.array(n),
    antonymWords: NO_ANTONYMS,
  });
  // The sentence's own terms of a unit read (its arrays also hold the extra stems').
  const own = (marks: Uint8Array): Uint8Array => {
    const copy = UNIT_SLAB.array(n);
    for (let i = 0; i < n; i++) copy[i] = marks[i];
    return copy;
  };
  if (!plan.lexicon) return readPassage(passage, plan.read, plan.read.stemming).map((u) => blank(u, u.has, u.negated));
  const { extra, meaning, at, extraAt } = plan;
  const read = readPassage(passage, plan.read, plan.read.stemming);
  // Which terms the passage holds itself, anywhere (an alternative stands only for a term it lacks).
  const found = new Uint8Array(n);
  for (const u of read) for (let i = 0; i < n; i++) if (u.has[i]) found[i] = 1;
  const units: SupportUnit[] = [];
  for (const u of read) {
    let direct = false;
    for (let i = 0; i < n && !direct; i++) if (u.has[i]) direct = true;
    // A unit is made only when it holds a term, directly or through the lexicon (then it is kept).
    let unit = direct ? blank(u, own(u.has), own(u.negated)) : undefined;
    // An extra stem may be one of the sentence's own (j < n).
    let extraHeld = false;
    for (let k = 0; k < extraAt.length && !extraHeld; k++) if (u.has[extraAt[k]]) extraHeld = true;
    let partsSeen: Map<number, number> | undefined;
    let partsNegated: Set<number> | undefined;
    let negativeWords: Set<string> | undefined;
    let antonymWords: Map<number, string> | undefined;
    for (let k = 0; extraHeld && k < extra.length; k++) {
      const j = at[k];
      if (!u.has[j]) continue;
      const m = meaning[k];
      if (m.kind === 'negative') {
        unit ??= blank(u, own(u.has), own(u.negated));
        (negativeWords ??= new Set()).add(extra[k]);
      } else if (m.kind === 'antonym') {
        unit ??= blank(u, own(u.has), own(u.negated));
        unit.antonym[m.term] |= u.negated[j] ? 2 : 1;
        (antonymWords ??= new Map()).set(m.term, m.word);
      } else if (!found[m.term]) {
        partsSeen ??= new Map();
        const seen = (partsSeen.get(m.alt) ?? 0) + 1;
        partsSeen.set(m.alt, seen);
        if (u.negated[j]) (partsNegated ??= new Set()).add(m.alt);
        // found[m.term] is 0: the unit does not hold the term itself.
        if (seen === m.parts && !unit?.has[m.term]) {
          unit ??= blank(u, own(u.has), own(u.negated));
          unit.has[m.term] = 1;
          unit.via[m.term] = 1;
          if (partsNegated?.has(m.alt)) unit.negated[m.term] = 1;
        }
      }
    }
    if (unit) {
      if (negativeWords) unit.negativeWords = negativeWords;
      if (antonymWords) unit.antonymWords = antonymWords;
      units.push(unit);
    }
  }
  units.sort((a, b) => a.start - b.start);
  return units;
}

const NO_WORDS: ReadonlySet<string> = new Set();
const NO_ANTONYMS: ReadonlyMap<number, string> = new Map();

function unitIndex(passage: PreparedPassage, start: number): number {
  // unitStart is sorted: binary search.
  let lo = 0;
  let hi = passage.unitStart.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (passage.unitStart[mid] <= start) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Up to `limit` units chosen greedily by the weight of the terms they add (all units when limit is 0). */
export function bestWindow(
  units: readonly SupportUnit[],
  weights: readonly number[],
  limit: number,
): { chosen: SupportUnit[]; covered: boolean[] } {
  const covered = weights.map(() => false);
  const max = limit > 0 ? limit : units.length;
  const chosen: SupportUnit[] = [];
  while (chosen.length < max) {
    let best = -1;
    let bestGain = 0;
    for (let u = 0; u < units.length; u++) {
      const has = units[u].has;
      let gain = 0;
      for (let i = 0; i < weights.length; i++) if (has[i] && !covered[i]) gain += weights[i];
      if (gain > bestGain) {
        best = u;
        bestGain = gain;
      }
    }
    if (best < 0) break;
    chosen.push(units[best]);
    for (let i = 0; i < weights.length; i++) if (units[best].has[i]) covered[i] = true;
  }
  return { chosen, covered };
}

/**
 * The best window, with the passage's heading path read as what it is: the passage's topic, not a
 * statement. A heading's word counts only where no unit of the text holds it (its topic words, its
 * names and section numbers, a condition the text leaves out: "(or if I don't have a GSA badge)");
 * a word the text holds is the text's to affirm or negate ("Refunds and Cancellations > Monthly
 * plans" does not affirm "refundable" against "Monthly plans are not refundable"). A window the
 * heading fills alone, the text holding none of the sentence's words, is no support (`headingOnly`).
 * `units` are the passage's units with the headings read so.
 */
export function windowBesideHeadings(
  units: readonly SupportUnit[],
  weights: readonly number[],
  limit: number,
  context: PassageContext | undefined,
): { chosen: SupportUnit[]; covered: boolean[]; units: readonly SupportUnit[]; headingOnly: boolean } {
  const heading = (u: SupportUnit): boolean => inHeading(context, u.start, u.end);
  if (!context || !units.some(heading)) return { ...bestWindow(units, weights, limit), units, headingOnly: false };
  const inText = new Uint8Array(weights.length);
  for (const u of units) if (!heading(u)) for (let i = 0; i < inText.length; i++) if (u.has[i]) inText[i] = 1;
  const read = units.map((u) => {
    if (!heading(u)) return u;
    const has = u.has.slice();
    for (let i = 0; i < has.length; i++) if (inText[i]) has[i] = 0;
    return { ...u, has };
  });
  const window = bestWindow(read, weights, limit);
  return { ...window, units: read, headingOnly: window.chosen.length > 0 && window.chosen.every(heading) };
}

/**
 * The largest share of `terms`' weight that one place of the passage holds: a unit, or a unit
 * with the one after it. A sentence is a claim about one place; words gathered from far apart
 * ("court order" from one line, "contents of private repositories" from another) are not one.
 */
export function bestPlace(units: readonly SupportUnit[], terms: readonly number[], weights: readonly number[]): number {
  let total = 0;
  for (const i of terms) total += weights[i];
  if (total === 0) return 1;
  let best = 0;
  for (let u = 0; u < units.length; u++) {
    const next = units[u + 1] && units[u + 1].index === units[u].index + 1 ? units[u + 1] : undefined;
    let matched = 0;
    for (const i of terms) if (units[u].has[i] || next?.has[i]) matched += weights[i];
    best = Math.max(best, matched / total);
  }
  return best;
}
