// Content words of a sentence or passage for the support score: tokens, stopwords, case
// folding, stems (Porter, memoised) and negation cues. Values (numbers, amounts, dates) are
// read by values.ts; here a number is just a token.

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
const STOPWORDS = new Set(
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

export const NEGATION_WORDS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without', 'nowhere']);

const CLITICS = new Set(['s', 'd', 'll', 're', 've', 'm']);
const IRREGULAR_NEGATED: Record<string, string> = { ca: 'can', wo: 'will', sha: 'shall' };

/** Words and numbers; apostrophes inside words kept so that "doesn't" and "company's" stay whole. */
const TOKEN = /\d+(?:[.,]\d+)*|[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

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
function isFalseNegation(word: string, text: string, after: number): boolean {
  if (word === 'not') return /^\s+(only|just|merely|simply)\b/.test(text.slice(after, after + 10));
  if (word === 'no') return /^\.\s*\d/.test(text.slice(after, after + 4));
  return false;
}

/** Splits text into content terms and negation cues. */
export function analyse(text: string, options: TermOptions): AnalysedText {
  return analyseUnits(text, options, false)[0];
}

// Where a passage's sentence-sized units end: a line break, or a sentence end before a capital.
const UNIT_BREAK = /\n+|(?<=[.!?]["')\]]?)\s+(?=["'(\[]?[A-Z0-9])/g;

/**
 * Analyses a passage as sentence-sized units (lines, then sentence ends) in one pass over the
 * text; with `split` false the whole text is one unit.
 */
export function analyseUnits(text: string, options: TermOptions, split = true): AnalysedText[] {
  const breaks: number[] = [];
  if (split) for (const m of text.matchAll(UNIT_BREAK)) breaks.push(m.index);
  breaks.push(Infinity);
  const units: AnalysedText[] = [];
  const newUnit = (start: number): AnalysedText => ({ terms: [], negations: [], length: 0, start, end: text.length });
  let unit = newUnit(0);
  let nextBreak = 0;
  let position = 0;
  const lower = text.toLowerCase();
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(lower); match; match = TOKEN.exec(lower)) {
    if (match.index >= breaks[nextBreak]) {
      while (match.index >= breaks[nextBreak]) nextBreak++;
      unit.end = breaks[nextBreak - 1];
      if (unit.length) units.push(unit);
      unit = newUnit(breaks[nextBreak - 1]);
      position = 0;
    }
    // "1,500" and "1500" are one number.
    let word = isDigit(match[0]) ? match[0].replace(/,(?=\d{3}(?!\d))/g, '') : match[0];
    const apostrophe = Math.max(word.indexOf("'"), word.indexOf('’'));
    if (apostrophe > 0) {
      word = word.replace(/’/g, "'");
      if (word.endsWith("n't")) {
        unit.negations.push(position);
        word = IRREGULAR_NEGATED[word.slice(0, -3)] ?? word.slice(0, -3);
      } else if (CLITICS.has(word.slice(apostrophe + 1))) {
        word = word.slice(0, apostrophe);
      } else {
        word = word.replace(/'/g, '');
      }
    }
    if (NEGATION_WORDS.has(word)) {
      if (!isFalseNegation(word, lower, match.index + match[0].length)) unit.negations.push(position);
    } else if (isDigit(word) || (word.length > 1 && !STOPWORDS.has(word))) {
      unit.terms.push({ word, stem: options.stemming ? stem(word) : word, position });
    }
    unit.length = ++position;
  }
  if (unit.length || units.length === 0) units.push(unit);
  return units;
}

function isDigit(word: string): boolean {
  const c = word.charCodeAt(0);
  return c >= 48 && c <= 57;
}
