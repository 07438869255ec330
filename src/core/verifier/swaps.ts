// A word swapped for another: the sentence is its passage with one word or short phrase replaced
// by another content word the passage does not have, in the same place ("Monthly plans are
// refundable…" against "Annual plans are refundable…"). The words on both sides of the replaced
// span are the passage's, so the sentence claims the passage's fact of another thing: "monthly"
// where the passage says "annual", "contractors" where it says "employees". A word added or dropped
// is not a swap (nothing of the passage is replaced), nor is a word the passage writes in another
// form: the lexicon's alternatives count as the same word, and a shortening ("comp" /
// "compensatory"), an acronym ("PRA" / "Paperwork Reduction Act") or another form of the same word
// ("quarterly" / "quarter") explains the replacement.

import {
  isContentWord,
  isContractedNegation,
  isDigit,
  NEGATION_WORDS,
  stem,
  TOKEN,
  tokenWord,
  type Term,
} from '../text/terms';
import { alternativesOf, antonymsOf, isSoftWord, NEGATIVE_WORDS } from './lexicon';

/** A replacement: what the sentence says and what the passage says in its place. */
export interface Swap {
  said: string;
  passageSays: string;
  /** "the sentence says 'Monthly' where the passage says 'Annual'" */
  explanation: string;
}

export interface SwapInput {
  /** The sentence (citations removed). */
  sentence: string;
  /** Whether the passage's window holds this stem of the sentence (itself or through the lexicon). */
  matched: (stem: string) => boolean;
  /** The texts of the window's units. */
  units: readonly string[];
  stemming: boolean;
  /**
   * Also a replacement in a noun's place (the sentence's opening, after a determiner: "Monthly
   * plans" / "Annual plans"). Off in the product: there a synonym ("the original decision" / "the
   * initial decision") reads the same as another thing, and it cost faithful sentences on the
   * tuning answers without stopping a planted one (docs/verifier.md).
   */
  nounPlaces?: boolean;
}

/** The longest span, in content words, that a replacement may have on either side ("court order" / "search warrant"). */
export const MAX_SWAP_WORDS = 3;

/** A token as the alignment reads it: its word, its stem when it is a content word, whether it is a negation cue. */
interface Token {
  word: string;
  stem: string | undefined;
  cue: boolean;
  start: number;
  end: number;
}

// Our own copy of the token pattern: `matchAll` starts where the shared one's `lastIndex` was left.
const WORD = new RegExp(TOKEN.source, TOKEN.flags);

function tokensOf(text: string, stemming: boolean): Token[] {
  const out: Token[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const word = tokenWord(m[0]);
    const cue = NEGATION_WORDS.has(word) || isContractedNegation(m[0]);
    const content = !cue && isContentWord(word) && !isSoftWord(stemming ? stem(word) : word);
    const start = m.index ?? 0;
    out.push({
      word,
      stem: content ? (stemming ? stem(word) : word) : undefined,
      cue,
      start,
      end: start + m[0].length,
    });
  }
  return out;
}

// Texts read lately (a sentence is checked against several passages, a passage by several sentences).
const READ_LIMIT = 256;
const read = new Map<string, Token[]>();

function tokensRead(text: string, stemming: boolean): Token[] {
  const key = (stemming ? 's' : 'w') + text;
  let tokens = read.get(key);
  if (!tokens) {
    if (read.size >= READ_LIMIT) read.clear();
    read.set(key, (tokens = tokensOf(text, stemming)));
  }
  return tokens;
}

function wordsUsed(stems: readonly string[]): Set<string> {
  const used = new Set(stems);
  for (const s of stems) for (const alt of alternativesOf(s)) for (const part of alt) used.add(part);
  return used;
}

/** The words between two content words, negation cues left out (a negation is the polarity check's). */
function gapWords(tokens: readonly Token[], from: number, to: number): string {
  return tokens
    .slice(from, to)
    .filter((t) => !t.cue)
    .map((t) => t.word)
    .join(' ');
}

/**
 * The first replacement of the sentence's unmatched words by the passage's own words in the same
 * place: an unmatched run of the sentence between two matched words (or a matched word and the
 * sentence's start or end) against a run of the passage's words the sentence never uses between
 * the same two words, with the same function words around it (or the same word and the unit's
 * start or end).
 */
export function findSwap(input: SwapInput): Swap | undefined {
  const said = tokensRead(input.sentence, input.stemming);
  const content = said.flatMap((t, i) => (t.stem ? [i] : []));
  let used: Set<string> | undefined;
  let units: Token[][] | undefined;
  for (let k = 0; k < content.length; k++) {
    if (input.matched(said[content[k]].stem as string)) continue;
    let last = k;
    while (last + 1 < content.length && !input.matched(said[content[last + 1]].stem as string)) last++;
    const run = content.slice(k, last + 1).map((i) => said[i]);
    const before = k > 0 ? content[k - 1] : -1;
    const after = last + 1 < content.length ? content[last + 1] : said.length;
    const site: Site = {
      before: before >= 0 ? said[before] : undefined,
      after: after < said.length ? said[after] : undefined,
      gapBefore: gapWords(said, before + 1, content[k]),
      gapAfter: gapWords(said, content[last] + 1, after),
      negated: said.slice(before + 1, content[k]).some((t) => t.cue),
    };
    k = last;
    if (run.length > MAX_SWAP_WORDS || (!site.before && !site.after) || run.some((t) => isDigit(t.word))) continue;
    // In a noun's place (opening the sentence, or after a determiner) a replaced word names another
    // thing; in a verb's or an adjective's place it is mostly wording ("may affect" / "may impact"),
    // a swap only where the passage negates its word and the sentence does not, or the reverse.
    const opener = site.gapBefore.split(' ').pop() ?? '';
    const nounPlace = DETERMINERS.has(opener) || (!site.before && site.gapBefore === '');
    units ??= input.units.map((u) => tokensRead(u, input.stemming));
    // A passage word the sentence uses: one of its stems, or a word the lexicon takes for one of them.
    used ??= wordsUsed(content.map((i) => said[i].stem as string));
    for (let u = 0; u < units.length; u++) {
      const replaced = replacedIn(units[u], site, used);
      if (!replaced || (!(nounPlace && input.nounPlaces) && replaced.negated === site.negated)) continue;
      // A word with a negation of its own ("excluded" / "not included", "unreimbursed" / "not reimbursed"),
      // or the antonym of the negated word ("private" / "not public"), says what the negation says.
      if (replaced.negated !== site.negated && negationInWords(run, replaced.span)) continue;
      if (explains(run.map(asTerm), replaced.span.map(asTerm))) continue;
      const text = input.units[u];
      const span = replaced.span;
      const said = surface(input.sentence, run[0].start, run[run.length - 1].end);
      const passageSays = surface(text, span[0].start, span[span.length - 1].end);
      return { said, passageSays, explanation: `the sentence says '${said}' where the passage says '${passageSays}'` };
    }
  }
  return undefined;
}

/** Prefixes that negate the word they open ("unreimbursed", "nonrefundable", "disallowed"). */
const NEGATIVE_PREFIX = /^(?:un|non|in|im|il|ir|dis)-?/;

/** One side carries the other's negation in its words: a negative word, a negative prefix, an antonym. */
function negationInWords(said: readonly Token[], passage: readonly Token[]): boolean {
  const all = [...said, ...passage];
  if (all.some((t) => NEGATIVE_WORDS.has(t.stem ?? ''))) return true;
  for (const a of said) {
    for (const b of passage) {
      const [x, y] = [a.stem ?? a.word, b.stem ?? b.word];
      if (antonymsOf(x).includes(y) || antonymsOf(y).includes(x)) return true;
      if (x.replace(NEGATIVE_PREFIX, '') === y || y.replace(NEGATIVE_PREFIX, '') === x) return true;
    }
  }
  return false;
}

/** Where the sentence's run sits: its neighbouring content words and the function words between. */
interface Site {
  before: Token | undefined;
  after: Token | undefined;
  gapBefore: string;
  gapAfter: string;
  /** A negation cue stands between the left neighbour and the run. */
  negated: boolean;
}

/** Words that open a noun phrase: the word after them names a thing. */
const DETERMINERS: ReadonlySet<string> = new Set(
  'a an the this that these those my your his her its our their each every any no'.split(' '),
);

/** The text between two offsets (found in its lower-cased form, the same length unless lower-casing changed it). */
function surface(text: string, start: number, end: number): string {
  const lower = text.toLowerCase();
  return (lower.length === text.length ? text : lower).slice(start, end);
}

const asTerm = (t: Token): Term => ({ word: t.word, stem: t.stem ?? t.word, position: 0 });

/** The passage's content words in the run's place, the sentence using none of them. */
function replacedIn(
  unit: readonly Token[],
  site: Site,
  used: ReadonlySet<string>,
): { span: Token[]; negated: boolean } | undefined {
  const starts: number[] = [];
  if (site.before) {
    for (let j = 0; j < unit.length; j++) if (unit[j].stem && meets(unit[j], site.before)) starts.push(j + 1);
  } else {
    starts.push(0);
  }
  for (let from of starts) {
    // The same function words after the left neighbour.
    let g = from;
    while (g < unit.length && !unit[g].stem) g++;
    if (gapWords(unit, from, g) !== site.gapBefore) continue;
    const negated = unit.slice(from, g).some((t) => t.cue);
    from = g;
    const span: Token[] = [];
    let to = from;
    while (to < unit.length && span.length <= MAX_SWAP_WORDS) {
      const t = unit[to];
      if (t.stem) {
        if (used.has(t.stem) || isDigit(t.word)) break;
        span.push(t);
      }
      to++;
    }
    if (span.length === 0 || span.length > MAX_SWAP_WORDS) continue;
    // Back to the end of the last replaced word: the function words after it must be the sentence's.
    let end = from;
    for (let j = from; j < to; j++) if (unit[j].stem) end = j + 1;
    const next = unit.slice(end).findIndex((t) => t.stem !== undefined);
    const close = next < 0 ? unit.length : end + next;
    if (gapWords(unit, end, close) !== site.gapAfter) continue;
    if (site.after ? close < unit.length && meets(unit[close], site.after) : close === unit.length) {
      return { span, negated };
    }
  }
  return undefined;
}

/** The passage's word is the sentence's, itself or as the lexicon's alternative. */
function meets(passageWord: Token, sentenceWord: Token): boolean {
  const [p, s] = [passageWord.stem as string, sentenceWord.stem as string];
  return p === s || alternativesOf(s).some((alt) => alt.includes(p));
}

/**
 * One side is another form of the other: a shortening or a shared beginning ("comp" /
 * "compensatory", "quarterly" / "quarter"), or an acronym of the other side's words ("PRA" /
 * "Paperwork Reduction Act").
 */
export function explains(said: readonly Term[], passage: readonly Term[]): boolean {
  for (const a of said) {
    for (const b of passage) if (sameBeginning(a.word, b.word) || sameBeginning(a.stem, b.stem)) return true;
  }
  return initials(said, passage) || initials(passage, said);
}

/** Letters a word must share with another from its start to be a form of it. */
const SHARED_BEGINNING = 4;

function sameBeginning(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 3) return false;
  if (long.startsWith(short)) return true;
  let k = 0;
  while (k < short.length && short[k] === long[k]) k++;
  return k >= SHARED_BEGINNING && k >= short.length - 2;
}

/** A word of one side is the initials of the other side's words. */
function initials(acronyms: readonly Term[], words: readonly Term[]): boolean {
  if (words.length < 2) return false;
  const letters = words.map((t) => t.word[0]).join('');
  return acronyms.some((t) => t.word.length >= 2 && letters.includes(t.word));
}
