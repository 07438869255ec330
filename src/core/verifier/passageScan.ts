// Reading a passage for one sentence: which of the sentence's terms each sentence-sized unit of
// the passage contains, and which of them it negates. The result is the same as analysing every
// word of the passage (terms.ts `analyseUnits`) and looking the sentence's terms up, but only
// the tokens that could matter become strings, words and stems. A Porter stem is its word with
// the end rewritten so that all of it but its last letter is a prefix of the word ("approv" of
// "approval", "dai" of "day": each step of the algorithm cuts the word, replaces a suffix by one
// that shares all but at most a last letter with it, or adds one letter, and the one replacement
// that adds two, "biliti" → "ble", always loses its "e" again in step 5). So a plain token (ASCII
// letters and digits only) is skipped unread when it is a stopword or a single letter of up to
// three characters, or when no negation waits for its head there and it starts neither with the
// first letters (up to three) of a sentence term's stem minus its last letter nor with those of
// a negation word of its length. What does not depend on the sentence is prepared once per
// passage and kept by the scorer: lower case, units, token offsets and prefix codes, what each
// token read was, and the values of each unit.

import {
  isContentWord,
  isContractedNegation,
  isDigit,
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
  /** What reading token i found (READ and the other bits below), so that a second sentence does not read it again. */
  seen: Uint8Array;
  /** For each token read that is a content word, 1 + its place in `words` (0 for any other token). */
  slot: Int32Array;
  /** The words of the content tokens read, in the order they were read (few: most tokens are skipped unread). */
  words: string[];
  /** Each one's stem, once a sentence read with stemming has looked it up. */
  stems: (string | undefined)[];
  /** Values stated in a unit, by the unit's start offset (read only when a sentence states one). */
  values: Map<number, ValueMention[]>;
}

// Bits of PreparedPassage.seen.
const READ = 1;
const CONTENT = 2;
const CUE = 4;
const CONTRACTED = 8;

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

// Token tables and what reading them found, as views of shared slabs (slabs.ts): no buffer of its own per passage.
const TOKEN_SLAB = new Slab((n) => new Int32Array(n));
const SEEN_SLAB = new Slab((n) => new Uint8Array(n));
const SLOT_SLAB = new Slab((n) => new Int32Array(n));
/** The per-term marks of the units read (passageScan.ts and supportWindow.ts): a view each, no buffer of their own. */
export const UNIT_SLAB = new Slab((n) => new Uint8Array(n));

/** Lower case, units (split as `analyseUnits` splits them) and tokens of a passage. */
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
  return {
    text,
    lower,
    tokens: TOKEN_SLAB.take(3 * count),
    unitFirst,
    unitStart,
    unitEnd,
    seen: SEEN_SLAB.array(count),
    slot: SLOT_SLAB.array(count),
    words: [],
    stems: [],
    values: new Map(),
  };
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

// Which plain tokens to read, by prefix code: 6-bit codes of up to three ASCII letters or
// digits, the first in the low bits (0 = no character), so that a code of one or two characters
// is the low bits of a longer one. Flags per code: TERM, set for one sentence while it is read
// (a term's stem starts with these characters); SHORT_STOPWORD, the whole token is a stopword
// or a single letter (neither a term nor a cue); and bit L for a negation word of length L
// starting with these characters.
const CHAR_CODE = new Uint8Array(128);
[...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].forEach(
  (c, i) => (CHAR_CODE[c.charCodeAt(0)] = i + 1),
);
const TERM = 1;
const SHORT_STOPWORD = 2;
const FLAGS = new Uint8Array(1 << 18);
// For a code marked TERM while a sentence is read: 1 + its place in the sentence's `codes`.
const SLOT = new Uint16Array(1 << 18);

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

for (const w of [...STOPWORDS, ...'abcdefghijklmnopqrstuvwxyz']) {
  if (w.length <= 3) FLAGS[prefixCode(w, 0, 3)] |= SHORT_STOPWORD;
}
for (const w of NEGATION_WORDS) FLAGS[prefixCode(w, 0, 3)] |= 1 << w.length;

/**
 * The terms of one sentence (stems, or words with stemming off) made ready for reading passages:
 * built once per sentence and kept with it. Each term's prefix code (see `prefixCode`: a number
 * is its token, separators removed, so its first three characters; any other term the first
 * characters, up to three, of its stem minus the last, which every word of that stem starts
 * with), and for each code the whole of those prefixes: a plain token whose first characters
 * match a code is read only when it starts with one of them.
 */
export interface TermsToRead {
  terms: readonly string[];
  stemming: boolean;
  /** Position of each term (the last, for a term given twice). */
  index: ReadonlyMap<string, number>;
  /** The distinct prefix codes of the terms, and for each the prefixes (stem minus its last letter) that have it. */
  codes: readonly number[];
  prefixes: readonly (readonly string[])[];
}

export function termsToRead(terms: readonly string[], stemming: boolean): TermsToRead {
  const index = new Map<string, number>();
  terms.forEach((t, i) => index.set(t, i));
  const byCode = new Map<number, string[]>();
  for (const t of terms) {
    const code = prefixCode(t, 0, isDigit(t) ? 3 : Math.min(3, Math.max(1, t.length - 1)));
    // A term starting with any other character can only be a token that is not plain: always read.
    if (code === 0) continue;
    const list = byCode.get(code) ?? [];
    const prefix = t.slice(0, Math.max(0, t.length - 1));
    if (!list.includes(prefix)) list.push(prefix);
    byCode.set(code, list);
  }
  return { terms, stemming, index, codes: [...byCode.keys()], prefixes: [...byCode.values()] };
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
  const { codes } = plan;
  try {
    for (let k = 0; k < codes.length; k++) {
      FLAGS[codes[k]] |= TERM;
      SLOT[codes[k]] = k + 1;
    }
    return read(passage, plan);
  } finally {
    for (const code of codes) {
      FLAGS[code] &= ~TERM;
      SLOT[code] = 0;
    }
  }
}

function isTermsToRead(terms: readonly string[] | TermsToRead): terms is TermsToRead {
  return !Array.isArray(terms);
}

/** Whether the plain token lower[start, end) with this prefix code starts with the prefix of a term whose code it has. */
function startsLikeTerm(plan: TermsToRead, lower: string, start: number, end: number, prefix: number): boolean {
  const length = end - start;
  for (let level = 0; level < 3; level++) {
    const code = level === 0 ? prefix & 63 : level === 1 ? prefix & 4095 : prefix;
    // A shorter token's code is the same at every longer level: each is looked at once.
    if (level > 0 && code === (level === 1 ? prefix & 63 : prefix & 4095)) break;
    const slot = SLOT[code];
    if (slot === 0) continue;
    for (const p of plan.prefixes[slot - 1]) if (p.length <= length && lower.startsWith(p, start)) return true;
  }
  return false;
}

function read(passage: PreparedPassage, plan: TermsToRead): PassageUnit[] {
  const { index, stemming } = plan;
  const count = plan.terms.length;
  const { lower, tokens, unitFirst } = passage;
  const units: PassageUnit[] = [];
  for (let u = 0; u + 1 < unitFirst.length; u++) {
    const first = unitFirst[u];
    let unit: PassageUnit | undefined;
    let hasNegation = false;
    // Position of the latest negation cue whose head (first content word after it) is not read yet.
    let negation = -Infinity;
    for (let t = first; t < unitFirst[u + 1]; t++) {
      const position = t - first;
      const prefix = tokens[3 * t + 2];
      const end = tokens[3 * t + 1];
      if (prefix >= 0) {
        // A plain token: its prefix code tells whether it can be a sentence term or a cue.
        const length = end - tokens[3 * t];
        if (length <= 3 && (FLAGS[prefix] & SHORT_STOPWORD) !== 0) continue;
        if (position > negation + NEGATION_SCOPE) {
          const two = FLAGS[prefix & 4095];
          const three = FLAGS[prefix];
          const cue = length <= 7 ? (two | three) & (1 << length) : 0;
          // Neither a sentence term nor a negation cue, and no negation waits for its head here.
          if (cue === 0) {
            if (((FLAGS[prefix & 63] | two | three) & TERM) === 0) continue;
            if (!startsLikeTerm(plan, lower, tokens[3 * t], end, prefix)) continue;
          }
        }
      }
      let seen = passage.seen[t];
      if (seen === 0) {
        const token = lower.slice(tokens[3 * t], end);
        const word = tokenWord(token);
        seen = READ;
        if (NEGATION_WORDS.has(word)) {
          if (!isFalseNegation(word, lower, end)) seen |= CUE;
        } else if (isContentWord(word)) {
          seen |= CONTENT;
          passage.slot[t] = passage.words.push(word);
          passage.stems.push(undefined);
        }
        if (prefix < 0 && isContractedNegation(token)) seen |= CONTRACTED;
        passage.seen[t] = seen;
      }
      if (seen & CUE) {
        hasNegation = true;
        negation = position;
      } else if (seen & CONTENT) {
        const k = passage.slot[t] - 1;
        const word = passage.words[k];
        const i = index.get(stemming ? (passage.stems[k] ??= stem(word)) : word);
        if (i !== undefined) {
          unit ??= {
            start: passage.unitStart[u],
            end: passage.unitEnd[u],
            has: UNIT_SLAB.array(count),
            negated: UNIT_SLAB.array(count),
            hasNegation: false,
          };
          unit.has[i] = 1;
          if (position <= negation + NEGATION_SCOPE) unit.negated[i] = 1;
        }
        // An adverb passes the negation on ("not purposefully passing itself off" negates "passing").
        negation = position <= negation + NEGATION_SCOPE && word.endsWith('ly') ? position : -Infinity;
      }
      // "-n't" negates from its own position: the word it is attached to is not its head.
      if (seen & CONTRACTED) {
        hasNegation = true;
        negation = position;
      }
    }
    if (unit) {
      unit.hasNegation = hasNegation;
      units.push(unit);
    }
  }
  return units;
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
