// Content words of a sentence or passage for the support score: tokens, stopwords, case
// folding, stems (Porter, memoised) and negation cues, and the passage's sentence-sized units.
// Tokens and unit breaks are defined by two patterns (TOKEN, UNIT_BREAK) and found by hand-written
// scans that give the same result faster. Values (numbers, amounts, dates) are read by values.ts;
// here a number is just a token.

import { stemmer } from 'stemmer';

export interface Term {
  /** Lower-cased surface form ("employees"). */
  word: string;
  /** Stem used for matching ("employe"). */
  stem: string;
  /** Index among all tokens of the text (for windows and negation scope). */
  position: number;
}

// Function words carry no claim. Negation words are deliberately absent: they are cues
// (see NEGATION_WORDS), and dropping them would make "not eligible" match "eligible".
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else so as at by for from in into of off on onto out over to up upon with within ' +
    'about above across after against along among around before behind below beneath beside besides between beyond ' +
    'during except inside near since through throughout toward towards under until via ' +
    'is are was were be been being am do does did doing done have has had having ' +
    'can could may might must shall should will would ' +
    'i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves ' +
    'this that these those there here which who whom whose what when where why how ' +
    'all any both each either few more most other some such only own same than too very also just ' +
    'again further once ever yet still even well s t d ll m o re ve y ' +
    'one ones its'
  ).split(/\s+/),
);

export const NEGATION_WORDS = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'cannot',
  'without',
  'nowhere',
]);

const CLITICS = new Set(['s', 'd', 'll', 're', 've', 'm']);
const IRREGULAR_NEGATED: Record<string, string> = { ca: 'can', wo: 'will', sha: 'shall' };

/**
 * Words and numbers; apostrophes inside words kept so that "doesn't" and "company's" stay
 * whole. This pattern defines a token; `TokenScanner` finds the same tokens by hand on ASCII
 * text and asks this pattern wherever it meets any other character.
 */
export const TOKEN = /\d+(?:[.,]\d+)*|[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = isDigit(word) ? word : stemmer(word);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

export interface TermOptions {
  /** Match stems ("applies" = "applied"); when false, exact lower-case words. */
  stemming: boolean;
}

export interface AnalysedText {
  /** Content terms in order. */
  terms: Term[];
  /** Token positions of negation cues ("not", "no", "never", "-n't"…). */
  negations: number[];
  /** Number of tokens (for positions). */
  length: number;
  /** Character range of the unit in the analysed text. */
  start: number;
  end: number;
}

/** "not only … but also" affirms; "No. 5" is a number. */
export function isFalseNegation(word: string, text: string, after: number): boolean {
  if (word === 'not') return /^\s+(only|just|merely|simply)\b/.test(text.slice(after, after + 10));
  if (word === 'no') return /^\.\s*\d/.test(text.slice(after, after + 4));
  return false;
}

/** Splits text into content terms and negation cues. */
export function analyse(text: string, options: TermOptions): AnalysedText {
  return analyseUnits(text, options, false)[0];
}

/**
 * Where a passage's sentence-sized units end: a line break, or a sentence end before a
 * capital. The definition of `unitBreaks`, which finds the same breaks without a regex.
 */
export const UNIT_BREAK = /\n+|(?<=[.!?]["')\]]?)\s+(?=["'(\[]?[A-Z0-9])/g;

/** `\s` of a regular expression: ASCII blanks, no-break and typographic spaces, line separators, BOM. */
export function isRegexSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

const isSentenceEnd = (c: number): boolean => c === 46 || c === 33 || c === 63; // . ! ?
const isCloser = (c: number): boolean => c === 34 || c === 39 || c === 41 || c === 93; // " ' ) ]
const isOpener = (c: number): boolean => c === 34 || c === 39 || c === 40 || c === 91; // " ' ( [
const isCapitalOrDigit = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/** Start offsets of UNIT_BREAK's matches in `text`, found with one scan of character codes. */
export function unitBreaks(text: string): number[] {
  const breaks: number[] = [];
  scanBreaks(text, 0, text.length, breaks);
  return breaks;
}

/**
 * Appends the starts of UNIT_BREAK's matches that begin in text[from, to) (whatever the text
 * around: the context read is the whole text). Breaks lie in whitespace, never inside a token,
 * so the gaps between tokens can be scanned one by one with the same result as the whole text.
 */
export function scanBreaks(text: string, from: number, to: number, breaks: number[]): void {
  const n = text.length;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if ((c > 32 && c < 128) || !isRegexSpace(c)) continue;
    if (c === 10) {
      breaks.push(i);
      while (i + 1 < n && text.charCodeAt(i + 1) === 10) i++;
      continue;
    }
    if (i === 0) continue;
    const before = text.charCodeAt(i - 1);
    if (!(isSentenceEnd(before) || (i >= 2 && isCloser(before) && isSentenceEnd(text.charCodeAt(i - 2))))) continue;
    let j = i + 1;
    while (j < n && isRegexSpace(text.charCodeAt(j))) j++;
    if (j === n) continue;
    const next = text.charCodeAt(j);
    if (isCapitalOrDigit(next) || (j + 1 < n && isOpener(next) && isCapitalOrDigit(text.charCodeAt(j + 1)))) {
      breaks.push(i);
      i = j - 1;
    }
  }
}

// What an ASCII character is to a token: a digit, a letter, or other (as is any non-ASCII one).
const OTHER = 0;
const DIGIT = 1;
const LETTER = 2;
const ASCII_KIND = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_KIND[c] = DIGIT;
for (let c = 65; c <= 90; c++) ASCII_KIND[c] = ASCII_KIND[c + 32] = LETTER;
const kindAt = (s: string, i: number): number => {
  const c = s.charCodeAt(i);
  return c < 128 ? ASCII_KIND[c] : OTHER;
};

/**
 * The tokens of a (lower-cased) text one at a time, exactly as TOKEN's global matches: plain
 * ASCII is read character by character, and the pattern itself reads past anything else, so
 * that words the caller does not need cost no string.
 */
export class TokenScanner {
  /** Range of the current token. */
  start = 0;
  end = 0;
  /** The current token is ASCII letters and digits only (no apostrophe, separator or other character). */
  plain = true;

  constructor(private readonly text: string) {}

  next(): boolean {
    const s = this.text;
    const n = s.length;
    let i = this.end;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c >= 128) return this.byPattern(i);
      const kind = ASCII_KIND[c];
      if (kind === DIGIT) {
        // \d+(?:[.,]\d+)*
        let j = i + 1;
        while (j < n && kindAt(s, j) === DIGIT) j++;
        let plain = true;
        while (j + 1 < n && (s.charCodeAt(j) === 46 || s.charCodeAt(j) === 44) && kindAt(s, j + 1) === DIGIT) {
          plain = false;
          j += 2;
          while (j < n && kindAt(s, j) === DIGIT) j++;
        }
        return this.found(i, j, plain);
      }
      if (kind === LETTER) {
        // [\p{L}\p{N}]+ then (?:['’]\p{L}+)*; any character past ASCII is left to the pattern.
        let j = i + 1;
        while (j < n && kindAt(s, j) !== OTHER) j++;
        if (j === n) return this.found(i, j, true);
        if (s.charCodeAt(j) >= 128) return this.byPattern(i);
        let plain = true;
        while (j + 1 < n && s.charCodeAt(j) === 39) {
          const d = s.charCodeAt(j + 1);
          if (d >= 128) return this.byPattern(i);
          if (ASCII_KIND[d] !== LETTER) break;
          plain = false;
          j += 2;
          while (j < n && kindAt(s, j) === LETTER) j++;
          if (j < n && s.charCodeAt(j) >= 128) return this.byPattern(i);
        }
        return this.found(i, j, plain);
      }
      i++;
    }
    return this.finished();
  }

  private found(start: number, end: number, plain: boolean): boolean {
    this.start = start;
    this.end = end;
    this.plain = plain;
    return true;
  }

  private finished(): false {
    this.start = this.end = this.text.length;
    return false;
  }

  private byPattern(from: number): boolean {
    TOKEN.lastIndex = from;
    const m = TOKEN.exec(this.text);
    if (!m) return this.finished();
    // A word after a character past ASCII that is no part of it (a no-break space, a dash, a quote) is as plain as any.
    const end = m.index + m[0].length;
    return this.found(m.index, end, isAsciiAlphanumeric(this.text, m.index, end));
  }
}

/** text[start, end) is ASCII letters and digits only. */
function isAsciiAlphanumeric(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || ASCII_KIND[c] === OTHER) return false;
  }
  return true;
}

/** The word a token stands for: "1,500" → "1500", "company's" → "company", "can't" → "can". */
export function tokenWord(token: string): string {
  // "1,500" and "1500" are one number.
  let word = isDigit(token) ? token.replace(/,(?=\d{3}(?!\d))/g, '') : token;
  const apostrophe = Math.max(word.indexOf("'"), word.indexOf('’'));
  if (apostrophe > 0) {
    word = word.replace(/’/g, "'");
    if (word.endsWith("n't")) {
      word = IRREGULAR_NEGATED[word.slice(0, -3)] ?? word.slice(0, -3);
    } else if (CLITICS.has(word.slice(apostrophe + 1))) {
      word = word.slice(0, apostrophe);
    } else {
      word = word.replace(/'/g, '');
    }
  }
  return word;
}

/** "-n't" negates the token it ends ("doesn't", "can’t"). */
export function isContractedNegation(token: string): boolean {
  return token.endsWith("n't") || token.endsWith('n’t');
}

/** A token that names content: a number, or a word of two letters or more that is not a stopword. */
export function isContentWord(word: string): boolean {
  return isDigit(word) || (word.length > 1 && !STOPWORDS.has(word));
}

/**
 * Analyses a passage as sentence-sized units (lines, then sentence ends) in one pass over the
 * text; with `split` false the whole text is one unit.
 */
export function analyseUnits(text: string, options: TermOptions, split = true): AnalysedText[] {
  const breaks = split ? unitBreaks(text) : [];
  breaks.push(Infinity);
  const units: AnalysedText[] = [];
  const newUnit = (start: number): AnalysedText => ({ terms: [], negations: [], length: 0, start, end: text.length });
  let unit = newUnit(0);
  let nextBreak = 0;
  let position = 0;
  const lower = text.toLowerCase();
  const tokens = new TokenScanner(lower);
  while (tokens.next()) {
    if (tokens.start >= breaks[nextBreak]) {
      while (tokens.start >= breaks[nextBreak]) nextBreak++;
      unit.end = breaks[nextBreak - 1];
      if (unit.length) units.push(unit);
      unit = newUnit(breaks[nextBreak - 1]);
      position = 0;
    }
    const token = lower.slice(tokens.start, tokens.end);
    const word = tokenWord(token);
    if (!tokens.plain && isContractedNegation(token)) unit.negations.push(position);
    if (NEGATION_WORDS.has(word)) {
      if (!isFalseNegation(word, lower, tokens.end)) unit.negations.push(position);
    } else if (isContentWord(word)) {
      unit.terms.push({ word, stem: options.stemming ? stem(word) : word, position });
    }
    unit.length = ++position;
  }
  if (unit.length || units.length === 0) units.push(unit);
  return units;
}

export function isDigit(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 48 && c <= 57;
}
