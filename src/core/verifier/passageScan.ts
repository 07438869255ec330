// A passage prepared once for the support check, and read for each sentence checked against it.
// Preparing does everything that depends on the passage alone: lower case, sentence-sized units
// (split as terms.ts `analyseUnits` splits them), token offsets with the prefix code of their first
// three characters (names.ts looks names up by them), and every content word read once into an
// index by stem: for each stem, the units that hold it and whether a negation cue governs it
// there (the first content word within NEGATION_SCOPE tokens after "not/no/never/…", an adverb
// passing it on). Reading the passage for a sentence is then a lookup of each of its terms in that
// index, not a scan of the passage: the result is the same as analysing every word of the passage
// and looking the sentence's terms up. The values of each unit are read at the first sentence that
// states one, once per passage.

import {
  isContentWord,
  isContractedNegation,
  isFalseNegation,
  NEGATION_WORDS,
  stem,
  scanBreaks,
  STOPWORDS,
  TokenScanner,
  tokenWord,
  unitBreaks,
} from '../text/terms';
import { Slab } from './slabs';
import { extractValues, type ValueMention } from './values';

/**
 * Where a term stands in a passage: one entry per unit holding it, 2 × the unit's index, plus 1
 * when a negation governs the term at one place or more of that unit.
 */
export type TermPlaces = number[];

/** A passage as far as it can be read before knowing the sentence. */
export interface PreparedPassage {
  text: string;
  lower: string;
  /**
   * Three numbers per token: start and end in `lower`, and the prefix code of its first three
   * characters (see `prefixCode`) when it is plain, -1 when it is not.
   */
  tokens: Int32Array;
  /** Units holding at least one token: unitFirst[u] is the index of the unit's first token (then the token count). */
  unitFirst: number[];
  /** Character range of each unit in the passage. */
  unitStart: number[];
  unitEnd: number[];
  /** Whether each unit has a negation cue ("not", "no", "-n't"…). */
  unitNegated: Uint8Array;
  /** Each content word's stem, and where it stands. */
  byStem: Map<string, TermPlaces>;
  /** The same by word (stemming off, for the ablation), made at the first read without stemming. */
  byWord?: Map<string, TermPlaces>;
  /** The stem of every plain token (stopwords too), for names (passageNames.ts). */
  plainStems: Set<string>;
  /** Values stated in a unit, by the unit's start offset (read only when a sentence states one). */
  values: Map<number, ValueMention[]>;
}

/** One sentence-sized unit of the passage that contains at least one of the sentence's terms. */
export interface PassageUnit {
  /** Character range of the unit in the passage. */
  start: number;
  end: number;
  /** has[i] = 1: the unit contains sentence term i. */
  has: Uint8Array;
  /** negated[i] = 1: term i is the first content word after a negation cue, within its scope. */
  negated: Uint8Array;
  hasNegation: boolean;
}

// A negation governs the first content word after it, within a few tokens: "may not carry
// over" denies "carry"; a wider scope wrongly denies the objects ("would not start the race").
export const NEGATION_SCOPE = 3;

// The token table is written into a shared slab while the passage is scanned (slabs.ts), then
// copied to an array of its own: a prepared passage is kept across turns, and a view would keep
// its whole slab alive with it.
const TOKEN_SLAB = new Slab((n) => new Int32Array(n));
/** The per-term marks of the units read (passageScan.ts and supportWindow.ts): a view each, no buffer of their own. */
export const UNIT_SLAB = new Slab((n) => new Uint8Array(n));

// The stems of the words that are never content (stopwords, negation words, single letters): a small table.
const FUNCTION_WORD_STEMS = new Map(
  [...STOPWORDS, ...NEGATION_WORDS, ...'abcdefghijklmnopqrstuvwxyz'].map((w) => [w, stem(w)] as const),
);

/** Lower case, units, tokens and the index of the content words of a passage. */
export function preparePassage(text: string): PreparedPassage {
  const lower = text.toLowerCase();
  // Breaks are found in the gaps between tokens as the scan reaches them, unless lower-casing
  // changed the length (then offsets in `lower` and `text` differ: all breaks first, as before).
  const inGaps = lower.length === text.length;
  const breaks = inGaps ? [] : unitBreaks(text);
  const unitFirst: number[] = [];
  const unitStart: number[] = [];
  const unitEnd: number[] = [];
  // At most one token per character: room for that many in the slab, and only the tokens found kept.
  const table = TOKEN_SLAB.reserve(3 * lower.length);
  const base = TOKEN_SLAB.offset;
  let count = 0;
  let nextBreak = 0;
  let start = 0;
  let gap = 0;
  const tokens = new TokenScanner(lower);
  while (tokens.next()) {
    if (inGaps) {
      // A single space after a token (which ends in a letter or digit) never starts a break.
      if (tokens.start - gap !== 1 || text.charCodeAt(gap) !== 32) scanBreaks(text, gap, tokens.start, breaks);
      gap = tokens.end;
    }
    if (nextBreak < breaks.length && tokens.start >= breaks[nextBreak]) {
      while (nextBreak < breaks.length && tokens.start >= breaks[nextBreak]) nextBreak++;
      if (unitFirst.length > unitEnd.length) unitEnd.push(breaks[nextBreak - 1]);
      start = breaks[nextBreak - 1];
    }
    if (unitFirst.length === unitEnd.length) {
      unitFirst.push(count);
      unitStart.push(start);
    }
    const at = base + 3 * count;
    table[at] = tokens.start;
    table[at + 1] = tokens.end;
    table[at + 2] = tokens.plain ? prefixCode(lower, tokens.start, tokens.end) : -1;
    count++;
  }
  if (unitFirst.length > unitEnd.length) unitEnd.push(text.length);
  unitFirst.push(count);
  const passage: PreparedPassage = {
    text,
    lower,
    tokens: TOKEN_SLAB.take(3 * count).slice(),
    unitFirst,
    unitStart,
    unitEnd,
    unitNegated: new Uint8Array(unitStart.length),
    byStem: new Map(),
    plainStems: new Set(),
    values: new Map(),
  };
  passage.byStem = indexTerms(passage, true, passage.plainStems);
  return passage;
}

/**
 * Every content word of the passage read once, by stem (or word): the units that hold it and
 * whether a negation governs it there. A negation cue governs the first content word within
 * NEGATION_SCOPE tokens after it; an adverb passes it on ("not purposefully passing"); "-n't"
 * negates from its own token. Also marks the units that hold a cue.
 */
function indexTerms(passage: PreparedPassage, stemming: boolean, plainStems?: Set<string>): Map<string, TermPlaces> {
  const index = new Map<string, TermPlaces>();
  const { lower, tokens, unitFirst, unitNegated } = passage;
  for (let u = 0; u + 1 < unitFirst.length; u++) {
    const first = unitFirst[u];
    // Position of the latest negation cue whose head (first content word after it) is not read yet.
    let negation = -Infinity;
    for (let t = first; t < unitFirst[u + 1]; t++) {
      const position = t - first;
      const end = tokens[3 * t + 1];
      const plain = tokens[3 * t + 2] >= 0;
      const token = lower.slice(tokens[3 * t], end);
      // A plain token (ASCII letters and digits) is its own word.
      const word = plain ? token : tokenWord(token);
      if (NEGATION_WORDS.has(word)) {
        if (plain) plainStems?.add(FUNCTION_WORD_STEMS.get(word) as string);
        if (!isFalseNegation(word, lower, end)) {
          unitNegated[u] = 1;
          negation = position;
        }
      } else if (isContentWord(word)) {
        const negated = position <= negation + NEGATION_SCOPE ? 1 : 0;
        const key = stemming ? stem(word) : word;
        if (plain) plainStems?.add(key);
        const places = index.get(key);
        const place = 2 * u + negated;
        if (places === undefined) index.set(key, [place]);
        else if (places[places.length - 1] >> 1 === u) places[places.length - 1] |= negated;
        else places.push(place);
        // An adverb passes the negation on ("not purposefully passing itself off" negates "passing").
        negation = negated && word.endsWith('ly') ? position : -Infinity;
      } else if (plain) {
        plainStems?.add(FUNCTION_WORD_STEMS.get(word) ?? stem(word));
      }
      // "-n't" negates from its own position: the word it is attached to is not its head.
      if (!plain && isContractedNegation(token)) {
        unitNegated[u] = 1;
        negation = position;
      }
    }
  }
  return index;
}

/** The values a unit states, read once per passage. */
export function unitValues(passage: PreparedPassage, unit: PassageUnit): ValueMention[] {
  let values = passage.values.get(unit.start);
  if (!values) {
    values = extractValues(
      passage.text.slice(unit.start, unit.end),
      passage.text.slice(Math.max(0, unit.start - 12), unit.start),
    );
    passage.values.set(unit.start, values);
  }
  return values;
}

// Prefix codes: 6-bit codes of up to three ASCII letters or digits, the first in the low bits
// (0 = no character), so that a code of one or two characters is the low bits of a longer one.
// names.ts and passageNames.ts compare a token's first letters by it without making a string.
const CHAR_CODE = new Uint8Array(128);
[...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].forEach(
  (c, i) => (CHAR_CODE[c.charCodeAt(0)] = i + 1),
);

/** Code of `text[i]` if it is an ASCII letter or digit before `end`, else 0. */
function charCode(text: string, i: number, end: number): number {
  if (i >= end) return 0;
  const c = text.charCodeAt(i);
  return c < 128 ? CHAR_CODE[c] : 0;
}

/** Prefix code of text[start, end): its first three characters, stopping at the first that has no code. */
export function prefixCode(text: string, start: number, end: number): number {
  const k0 = charCode(text, start, end);
  const k1 = k0 && charCode(text, start + 1, end);
  const k2 = k1 && charCode(text, start + 2, end);
  return k0 | (k1 << 6) | (k2 << 12);
}

/**
 * The terms of one sentence (stems, or words with stemming off) made ready for reading passages:
 * built once per sentence and kept with it.
 */
export interface TermsToRead {
  terms: readonly string[];
  stemming: boolean;
  /** Position of each term (the last, for a term given twice). */
  index: ReadonlyMap<string, number>;
}

export function termsToRead(terms: readonly string[], stemming: boolean): TermsToRead {
  const index = new Map<string, number>();
  terms.forEach((t, i) => index.set(t, i));
  return { terms, stemming, index };
}

/**
 * The units of the passage that contain any of `terms` (stems, or words with stemming off),
 * in passage order. Units are split as `analyseUnits` splits them; a unit's negated terms are
 * those that are the first content word within NEGATION_SCOPE tokens after a negation cue.
 */
export function readPassage(
  passage: PreparedPassage,
  terms: readonly string[] | TermsToRead,
  stemming: boolean,
): PassageUnit[] {
  const plan = isTermsToRead(terms) ? terms : termsToRead(terms, stemming);
  const places = stemming ? passage.byStem : (passage.byWord ??= indexTerms(passage, false));
  const count = plan.terms.length;
  const byUnit = new Map<number, PassageUnit>();
  for (const [term, i] of plan.index) {
    const found = places.get(term);
    if (found === undefined) continue;
    for (const place of found) {
      const u = place >> 1;
      let unit = byUnit.get(u);
      if (unit === undefined) {
        unit = {
          start: passage.unitStart[u],
          end: passage.unitEnd[u],
          has: UNIT_SLAB.array(count),
          negated: UNIT_SLAB.array(count),
          hasNegation: passage.unitNegated[u] === 1,
        };
        byUnit.set(u, unit);
      }
      unit.has[i] = 1;
      if (place & 1) unit.negated[i] = 1;
    }
  }
  const units = [...byUnit.values()];
  return units.length > 1 ? units.sort((a, b) => a.start - b.start) : units;
}

function isTermsToRead(terms: readonly string[] | TermsToRead): terms is TermsToRead {
  return !Array.isArray(terms);
}

/** A bounded map that forgets the entry used least recently. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly limit: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
  }
}
