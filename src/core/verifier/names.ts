// Proper names (organisations, products, places, people) read like values: a sentence that names
// one its passage never mentions is not backed, whatever its word overlap. "Refunds are handled
// by Globex [E1]" against a passage about Acme shares every other word and is still false; so is
// a near miss ("Acme Corp" for "Acme Inc"). A name is a capitalised word that does not open the
// sentence, or a word mixing letters and digits ("18F", "W-2"); a name word is found when the
// passage has a word of the same stem (so "Fridays" meets "Friday"), or writes the same name in
// another form: without diacritics, or as an acronym or its expansion ("United States" and
// "U.S.", "NFL" and "National Football League"). Two-letter initials only meet an acronym written
// with stops ("U.S."): "AC" in a passage never vouches for "Acme Corp". "Canadian" does not
// meet "Canada": a rule for nationalities would also let "Julian" meet "Julie".

import { STOPWORDS, stem, TOKEN, TokenScanner, tokenWord } from '../text/terms';
import { matchesOf } from '../text/matches';

export interface NameMention {
  /** The word as written ("Globex"). */
  text: string;
  /** Its stem in lower case, as matched. */
  stem: string;
  /** Initials of the runs of two or more capitalised words it belongs to ("us" and "usn" for "United States Navy"). */
  runs?: string[];
}

/** A passage as name lookups read it. */
export interface PassageNames {
  /** Stems of every word, and of the other forms of its words (see passageStems). */
  stems: Set<string>;
  /** Initials of its runs of capitalised words ("nfl" for "National Football League"). */
  acronyms: Set<string>;
  /** Acronyms it writes: in capitals, three letters or more ("nfl"), or with stops ("us" for "U.S."). */
  written: Set<string>;
}

// Small words inside a name ("Bank of England", "Université de Montréal"): the run goes on.
const NAME_LINKS = new Set(['of', 'and', 'the', 'de', 'du', 'des', 'la', 'le', 'von', 'van', 'der', 'for']);

// Capitalised by convention, not names: dates are values (values.ts reads them).
// Our own copy of the token pattern: the shared one's lastIndex is the token scanner's.
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

const NOT_NAMES = new Set(
  (
    'i ok okay january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday'
  ).split(' '),
);

const POSSESSIVE = /['’]s$|(?<=s)['’]$/u;
// The patterns of the name tests, made once (a pattern written inside a function is built on every
// call: the bundler writes each `\p{…}` literal as `new RegExp(…)`).
const LETTER = /\p{L}/u;
const CAPITAL_FIRST = /^\p{Lu}/u;
const CAMEL_FIRST = /^\p{Ll}+\p{Lu}/u;
const CAPITALS_WORD = /^\p{Lu}[\p{Lu}\d]+$/u;
const CAPITALS_ONLY = /^\p{Lu}{3,}$/u;
const CAMEL_SPLIT = /(?<=\p{Ll})(?=\p{Lu})/u;
const MARKS = /\p{M}/gu;
const STOPPED_ACRONYM = /\b(?:\p{L}\.){2,}/gu;

/** Names the sentence mentions, in order, each once. */
export function extractNames(sentence: string): NameMention[] {
  const names = new Map<string, NameMention>();
  let first = true;
  const tokens = new TokenScanner(sentence);
  while (tokens.next()) {
    const at = tokens.start;
    // The first word of the sentence, and the first after a colon or an opening quote, are capitalised by grammar.
    const isFirst = first;
    first = false;
    // A plain word in lower-case letters only is neither capitalised nor mixed: no name, read no further.
    if (tokens.plain && isLowerWord(sentence, at, tokens.end)) continue;
    // A possessive names what its word names: "the AO's approval" names the AO.
    const token = sentence.slice(at, tokens.end).replace(POSSESSIVE, '');
    const lower = tokenWord(token.toLowerCase());
    if (lower.length < 2 || STOPWORDS.has(lower) || NOT_NAMES.has(lower) || NOT_NAMES.has(lower.replace(/s$/, ''))) {
      continue;
    }
    const mixed = LETTER.test(token) && /\d/.test(token);
    const capitalised = CAPITAL_FIRST.test(token);
    const inner = CAMEL_FIRST.test(token); // "iPhone", "eBay"
    if (!(
      mixed ||
      inner ||
      (capitalised && !isFirst && !opensPhrase(sentence, at)) ||
      (capitalised && CAPITALS_WORD.test(token))
    )) {
      continue;
    }
    const s = stem(fold(lower));
    if (!names.has(s)) names.set(s, { text: token, stem: s });
  }
  for (const run of capitalisedRuns(sentence)) {
    const mentions = run.words.map((word) => names.get(stem(fold(tokenWord(word.toLowerCase())))));
    // Every stretch of two or more words of the run: "United States Navy" holds "United States".
    for (let i = 0; i < run.words.length; i++) {
      for (let j = i + 2; j <= run.words.length; j++) {
        for (let k = i; k < j; k++) {
          const n = mentions[k];
          if (n) (n.runs ??= []).push(run.initials.slice(i, j));
        }
      }
    }
  }
  return [...names.values()];
}

/** text[start, end) is ASCII lower-case letters only (read for a plain token: ASCII letters and digits). */
function isLowerWord(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** The word at `at` follows a colon or an opening quote (read only for a capitalised word). */
function opensPhrase(sentence: string, at: number): boolean {
  return /[:"“‘(]\s?$/u.test(sentence.slice(Math.max(0, at - 2), at));
}

/** Runs of two or more capitalised words (small linking words inside), with their initials. */
function capitalisedRuns(text: string): { words: string[]; initials: string }[] {
  const runs: { words: string[]; initials: string }[] = [];
  let words: string[] = [];
  let pendingLinks = 0;
  let lastEnd = -1;
  const flush = (): void => {
    if (words.length >= 2) runs.push({ words, initials: words.map((w) => fold(w[0].toLowerCase())).join('') });
    words = [];
    pendingLinks = 0;
  };
  const tokens = new TokenScanner(text);
  while (tokens.next()) {
    const at = tokens.start;
    // A run is broken by punctuation between its words ("Paris, Texas" is two names); one space is the usual gap.
    const oneSpace = at - lastEnd === 1 && text.charCodeAt(lastEnd) === 32;
    if (lastEnd >= 0 && !oneSpace && !/^\s+$/.test(text.slice(lastEnd, at))) flush();
    lastEnd = tokens.end;
    // A plain word in lower-case letters only is no capitalised word, and a link only inside a run.
    if (tokens.plain && isLowerWord(text, at, tokens.end) && words.length === 0) continue;
    const token = text.slice(at, tokens.end);
    // /^\p{Lu}/u, read by hand on an ASCII first character.
    const c = token.charCodeAt(0);
    if ((c < 128 ? c >= 65 && c <= 90 : CAPITAL_FIRST.test(token)) && !/\d/.test(token)) {
      words.push(token);
      pendingLinks = 0;
    } else if (words.length && NAME_LINKS.has(token.toLowerCase()) && pendingLinks < 2) {
      pendingLinks++;
    } else {
      flush();
    }
  }
  flush();
  return runs;
}

/** A word without its diacritics: "Hernández" and "Hernandez" are one name. */
function fold(word: string): string {
  return /[^\u0000-\u007f]/.test(word) ? word.normalize('NFD').replace(MARKS, '') : word;
}

/**
 * A passage as name lookups read it: the stems of its words, with the other forms the passage
 * may write a name in: without diacritics, an acronym written with stops ("U.S." is "US", "A.V."
 * is "AV"), words run together by the page's markup ("MemorialBettws" holds "Bettws"), the
 * initials of its runs of capitalised words, and the acronyms it writes.
 */
export function passageStems(passage: string): PassageNames {
  const stems = new Set<string>();
  const written = new Set<string>();
  for (const m of matchesOf(WORDS, passage)) addWordForms(m[0], stems, written);
  addStoppedAcronyms(passage, stems, written);
  return { stems, acronyms: runAcronyms(passage), written };
}

/** What one word of a passage gives name lookups: its stem and its camel-case parts' ("MemorialBettws"), and the acronym it writes in capitals. */
export function addWordForms(word: string, stems: Set<string>, written: Set<string>): void {
  addForm(word, stems, written);
  // The split has a part other than the word only where a lower-case letter meets a capital (one test, not a split).
  if (!CAMEL_POINT.test(word)) return;
  for (const part of word.split(CAMEL_SPLIT)) if (part !== word) addForm(part, stems, written);
}

const CAMEL_POINT = /\p{Ll}\p{Lu}/u;

function addForm(token: string, stems: Set<string>, written: Set<string>): void {
  if (CAPITALS_ONLY.test(token)) written.add(fold(token.toLowerCase()));
  stems.add(stem(fold(tokenWord(token.toLowerCase()))));
}

/** Acronyms written with stops ("U.S." is "US", "A.V." is "AV"): a stem and a written acronym each. */
export function addStoppedAcronyms(passage: string, stems: Set<string>, written: Set<string>): void {
  if (!mayHoldStoppedAcronym(passage)) return;
  for (const m of matchesOf(STOPPED_ACRONYM, passage)) {
    const letters = m[0].replace(/\./g, '');
    addForm(letters, stems, written);
    written.add(fold(letters.toLowerCase()));
  }
}

/**
 * Whether the text may hold a letter, a stop, a letter and a stop ("U.S."): a stop with another
 * one two characters on (three, past a letter outside the Basic Multilingual Plane). Without one
 * the pattern of stopped acronyms cannot match, and the text is not scanned with it.
 */
function mayHoldStoppedAcronym(text: string): boolean {
  for (let p = text.indexOf('.'); p >= 0; p = text.indexOf('.', p + 1)) {
    if (text.charCodeAt(p + 2) === 46 || text.charCodeAt(p + 3) === 46) return true;
  }
  return false;
}

/** The initials of the passage's runs of capitalised words ("nfl" for "National Football League"). */
export function runAcronyms(passage: string): Set<string> {
  const acronyms = new Set<string>();
  for (const r of capitalisedRuns(passage)) {
    acronyms.add(r.initials);
    // A run opening a sentence carries its article: "The Paperwork Reduction Act" is "PRA".
    if (/^(?:the|a|an)$/i.test(r.words[0]) && r.words.length > 2) acronyms.add(r.initials.slice(1));
  }
  return acronyms;
}

/** What a name lookup asks of a passage: `PassageNames`, or a reader that answers the same (passageNames.ts). */
export interface NameLookup {
  stems: { has(stem: string): boolean };
  acronyms: ReadonlySet<string>;
  written: ReadonlySet<string>;
  /** `written.has(acronym)`, answered without building `written` when the lookup can (passageNames.ts). */
  writes?(acronym: string): boolean;
}

/** The names of the sentence the passage never mentions, in any of the forms above. */
export function missingNames(names: readonly NameMention[], passage: NameLookup): NameMention[] {
  return names.filter((n) => !found(n, passage));
}

function found(n: NameMention, passage: NameLookup): boolean {
  if (passage.stems.has(n.stem)) return true;
  // An acronym the passage spells out, or a run of names the passage gives as an acronym.
  if (CAPITALS_ONLY.test(n.text) && passage.acronyms.has(n.stem)) return true;
  return n.runs?.some((r) => (passage.writes ? passage.writes(r) : passage.written.has(r))) ?? false;
}
