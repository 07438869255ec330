// The strict side of the support check, beside values (values.ts) and names (names.ts): the
// words whose swap changes a claim however much else matches. Weekdays and months ("can't be a
// Friday" against "a federal holiday"), bounds on a value ("more than 5" against "fewer than 5"),
// and quantifiers ("always" against "generally", "all" against "some"). And what is not a claim:
// the answer particle that opens a reply ("No — …", "Yes, …") answers the question and negates
// nothing.

import { anyCase, WORD_CHAR } from '../text/caseless';
import { escapeRegExp, matchesOf } from '../text/matches';
import { STOPWORDS, stem } from '../text/terms';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
// Made once: the bundler builds a `\p{…}` literal written in a function on every call.
const CAPITAL_FIRST = /^\p{Lu}/u;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** Stems of the weekdays and the months that are no other word ("may", "march" are verbs too). */
export const DATE_STEMS: ReadonlySet<string> = new Set(
  [...WEEKDAYS, ...MONTHS.filter((m) => m !== 'may' && m !== 'march')].map((w) => stem(w)),
);
const ABBREVIATED: Record<string, string> = {
  jan: 'january',
  feb: 'february',
  mar: 'march',
  apr: 'april',
  jun: 'june',
  jul: 'july',
  aug: 'august',
  sep: 'september',
  sept: 'september',
  oct: 'october',
  nov: 'november',
  dec: 'december',
  mon: 'monday',
  tue: 'tuesday',
  tues: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  thur: 'thursday',
  thurs: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
};
// /\b(monday|…)s?\b|\bMay\b(?=\s+\d)|\b(jan|…)\.|\b(Jan|JAN|…)\b(?=\s+\d)/gu, the first three
// spelt out without the `i` flag (caseless.ts). An abbreviation without its stop is a date word only
// written as a name, before a number ("Nov 14, 2018", "Sept 2019"): "mar", "dec" and "sun" are words.
const DATE_WORD = new RegExp(
  `(?<!${WORD_CHAR})(${[...WEEKDAYS, ...MONTHS.filter((m) => m !== 'may')].map(anyCase).join('|')})${anyCase('s')}?(?!${WORD_CHAR})` +
    `|(?<!${WORD_CHAR})${anyCase('may')}(?!${WORD_CHAR})(?=\\s+\\d)|(?<!${WORD_CHAR})(${Object.keys(ABBREVIATED).map(anyCase).join('|')})\\.` +
    `|(?<!${WORD_CHAR})(${Object.keys(ABBREVIATED)
      .flatMap((a) => [a[0].toUpperCase() + a.slice(1), a.toUpperCase()])
      .join('|')})(?!${WORD_CHAR})(?=\\s+\\d)`,
  'gu',
);

/** Each short form of a month with its month in full: [["jan", "january"], …]. */
export function monthAbbreviations(): [string, string][] {
  return Object.entries(ABBREVIATED).filter(([, full]) => MONTHS.includes(full));
}

/** The month a word names ("February", "Feb", "sept"), in full and lower case, or undefined. */
export function monthOf(word: string): string | undefined {
  const lower = word.toLowerCase();
  const full = ABBREVIATED[lower] ?? lower;
  return MONTHS.includes(full) ? full : undefined;
}

export interface DateWord {
  /** "friday", "march". */
  word: string;
  kind: 'weekday' | 'month';
  text: string;
}

/** Weekdays and months the text names ("May" only before a day number: "may" is a verb). */
export function dateWords(text: string): DateWord[] {
  const found = new Map<string, DateWord>();
  for (const m of matchesOf(DATE_WORD, text)) {
    const short = m[2] ?? m[3];
    const word = short ? ABBREVIATED[short.toLowerCase()] : (m[1] ?? 'may').toLowerCase();
    if (!found.has(word)) found.set(word, { word, kind: WEEKDAYS.includes(word) ? 'weekday' : 'month', text: m[0] });
  }
  return [...found.values()];
}

/** The weekdays the text names, each where it is written ("Tuesdays" is Tuesday). */
export function weekdayPlaces(text: string): { word: string; text: string; start: number; end: number }[] {
  const out: { word: string; text: string; start: number; end: number }[] = [];
  for (const m of matchesOf(DATE_WORD, text)) {
    const short = m[2] ?? m[3];
    const word = short ? ABBREVIATED[short.toLowerCase()] : (m[1] ?? 'may').toLowerCase();
    const start = m.index ?? 0;
    if (WEEKDAYS.includes(word)) out.push({ word, text: m[0], start, end: start + m[0].length });
  }
  return out;
}

export type DateCheck =
  { kind: 'ok' } | { kind: 'missing'; claimed: DateWord } | { kind: 'mismatch'; claimed: DateWord; found: DateWord };

/** Every weekday and month of the sentence must be in the passage (its `dateWords`); another of the same kind there is a contradiction. */
export function checkDateWords(claimed: readonly DateWord[], inPassage: readonly DateWord[]): DateCheck {
  if (claimed.length === 0) return { kind: 'ok' };
  const words = new Set(inPassage.map((d) => d.word));
  for (const c of claimed) {
    if (words.has(c.word)) continue;
    const other = inPassage.find((d) => d.kind === c.kind);
    return other ? { kind: 'mismatch', claimed: c, found: other } : { kind: 'missing', claimed: c };
  }
  return { kind: 'ok' };
}

// ---------------------------------------------------------------------------------------------
// Bounds on a value: "more than 5", "up to $150", "at least 3 weeks", "5 or fewer".

export type Bound = 'upper' | 'lower';

const UPPER_BEFORE =
  /\b(?:up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|no\s+longer\s+than|no\s+later\s+than|maximum\s+of|a\s+maximum\s+of|max(?:imum)?|less\s+than|fewer\s+than|shorter\s+than|under|below|within|not\s+(?:to\s+)?exceed(?:ing)?|lower\s+than|smaller\s+than|before)\s*$/i;
const LOWER_BEFORE =
  /\b(?:at\s+least|no\s+less\s+than|not\s+less\s+than|no\s+fewer\s+than|no\s+shorter\s+than|minimum\s+of|a\s+minimum\s+of|min(?:imum)?|more\s+than|greater\s+than|longer\s+than|over|above|exceed(?:s|ing)?|beyond|higher\s+than|larger\s+than|after)\s*$/i;
const UPPER_AFTER =
  /^\s*(?:\p{L}+\s+)?(?:or\s+(?:less|fewer|shorter|under|below)|at\s+(?:most|the\s+most)|maximum|max)\b/iu;
const LOWER_AFTER =
  /^\s*(?:\p{L}+\s+)?(?:or\s+(?:more|longer|greater|above|over)|at\s+(?:least|the\s+least)|minimum|min)\b/iu;

// A negated comparison turns the bound over: "can't go above $150" is at most $150, "not below 5" at least 5.
const NEGATED_COMPARISON = String.raw`(?:\bnot|\bnever|\bcannot|n['’]t)\s+(?:\p{L}+\s+){0,2}?`;
const NEGATED_UPPER = new RegExp(
  String.raw`${NEGATED_COMPARISON}(?:more\s+than|above|over|beyond|exceed|higher\s+than|greater\s+than|longer\s+than|later\s+than)\s*$`,
  'iu',
);
const NEGATED_LOWER = new RegExp(
  String.raw`${NEGATED_COMPARISON}(?:less\s+than|fewer\s+than|below|under|lower\s+than|shorter\s+than|earlier\s+than)\s*$`,
  'iu',
);

/** The bound a value carries in its text: the words before it (and "or more" after it). */
export function boundAt(text: string, start: number, end: number): Bound | undefined {
  const before = text.slice(Math.max(0, start - 28), start);
  if (NEGATED_UPPER.test(before)) return 'upper';
  if (NEGATED_LOWER.test(before)) return 'lower';
  if (UPPER_BEFORE.test(before)) return 'upper';
  if (LOWER_BEFORE.test(before)) return 'lower';
  const after = text.slice(end, end + 28);
  if (UPPER_AFTER.test(after)) return 'upper';
  if (LOWER_AFTER.test(after)) return 'lower';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Quantifiers: a universal claim where the passage hedges or limits is a different claim.

const UNIVERSAL =
  /\b(?:always|every|everyone|everybody|everything|all|any|each|without\s+exception|in\s+all\s+cases|regardless)\b/i;
const ALWAYS = /\b(?:always|without\s+exception|in\s+all\s+cases|regardless|never)\b/i;
const HEDGED =
  /\b(?:generally|usually|typically|normally|often|sometimes|in\s+most\s+cases|most|some|certain|may|might|can\s+be|in\s+some\s+cases|occasionally)\b/i;
const UNIVERSAL_STRONG = /\b(?:always|every|everyone|everybody|everything|without\s+exception|in\s+all\s+cases)\b/i;

/** The sentence says "always" or "every…" (not "never"): only then can `quantifierConflict` find one. */
export function claimsUniversal(sentence: string): boolean {
  const strong = UNIVERSAL_STRONG.exec(sentence) ?? (ALWAYS.test(sentence) ? ALWAYS.exec(sentence) : null);
  return strong !== null && !/\bnever\b/i.test(strong[0]);
}

/**
 * A sentence that says "always" (or "every…") where the passage says "generally", "usually",
 * "some" or "may", and nothing universal, claims more than the passage: the word the passage
 * hedges with, or undefined when the quantifiers agree.
 */
export function quantifierConflict(sentence: string, passageWindow: string): string | undefined {
  if (!claimsUniversal(sentence)) return undefined;
  if (UNIVERSAL.test(passageWindow)) return undefined;
  const hedge = HEDGED.exec(passageWindow);
  return hedge ? hedge[0] : undefined;
}

// Quantified nouns: "at most GSA facilities" where the passage says "at any GSA facility", "every
// such expense" where it says "expenses exceeding $150", "on any day" where it says "five or more
// days". The quantifier of a noun is part of the claim: another one on the same noun in the passage,
// and none like the sentence's, is a different claim.

const QUANTIFIER_CLASS: Record<string, string> = {
  all: 'all',
  every: 'all',
  each: 'all',
  any: 'all',
  most: 'most',
  some: 'some',
  several: 'some',
  certain: 'some',
  few: 'few',
  many: 'many',
};
// The quantifier words, once: QUANTIFIER_CLASS's keys.
const QUANTIFIER_WORDS = Object.keys(QUANTIFIER_CLASS).join('|');
const QUANTIFIER = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${QUANTIFIER_WORDS})\s+((?:[\p{L}][\p{L}'’-]*\s+){0,2}[\p{L}][\p{L}'’-]*)`,
  'giu',
);
const ANY_QUANTIFIER = new RegExp(String.raw`\b(?:${QUANTIFIER_WORDS})\b`, 'i');

/** A quick look before `quantifiedNounConflict`: most sentences have no quantifier word. */
export function mentionsQuantifier(sentence: string): boolean {
  return ANY_QUANTIFIER.test(sentence);
}
// After the noun, what narrows it: "expenses exceeding $150", "requests over 10 MB".
// Or a relative clause that says which ones: "a team member who has after-hours access".
const RESTRICTOR = String.raw`(?:(?:exceeding|over|above|under|below|beyond|greater\s+than|more\s+than|less\s+than|fewer\s+than|of\s+more\s+than|of\s+less\s+than|that\s+exceed)\s+[$€£]?\d[\d,.]*|(?:who|that)\s+(?:has|have|holds?|is|are)\s+\p{L}[\p{L}-]*)`;
const RESTRICTED_AFTER = new RegExp(String.raw`^\s*(?:\p{L}+\s+)?${RESTRICTOR}`, 'iu');
// The sentence's own noun phrase narrowed the same way ("any expense over $150").
const RESTRICTED_NP = new RegExp(String.raw`^\s*(?:[\p{L}'’-]+\s+){1,3}?${RESTRICTOR}`, 'iu');
// Before the noun, a count with a lower bound: "five or more days", "at least 3 days".
const COUNT_BEFORE = /(?:(?:\d+|[a-z]+)\s+or\s+more|at\s+least\s+(?:\d+|[a-z]+))\s+(?:[\p{L}-]+\s+)?$/iu;
const QUANTIFIER_BEFORE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${QUANTIFIER_WORDS})\s+(?:[\p{L}.'’-]+\s+){0,2}$`,
  'iu',
);

/**
 * The sentence's quantifier on a noun against the passage window's: a different quantifier on the
 * same noun ("most" / "any"), or a universal where the passage narrows the noun by a value or a
 * count ("every expense" / "expenses exceeding $150", "any day" / "five or more days"), with no
 * place of the window quantifying it as the sentence does. Undefined when they agree or the
 * window says nothing either way.
 */
export function quantifiedNounConflict(sentence: string, passageWindow: string): string | undefined {
  for (const m of matchesOf(QUANTIFIER, sentence)) {
    const word = m[1].toLowerCase();
    // "at most 5" is a bound (values read it); "most" before a noun is a quantifier.
    if (word === 'most' && /\bat\s+$/i.test(sentence.slice(0, m.index)) && /^\s*\d/.test(m[2])) continue;
    const kind = QUANTIFIER_CLASS[word];
    const restrictedHere = RESTRICTED_NP.test(sentence.slice((m.index ?? 0) + m[1].length));
    // The words after the quantifier that may be its noun; a common noun rather than a name
    // ("most GSA facilities": "facilities"), as the passage's quantifiers will tell.
    const written = m[2]
      .split(/\s+/)
      .map((w) => w.replace(/['’]s?$/, ''))
      .filter(
        (w) =>
          !STOPWORDS.has(w.toLowerCase()) &&
          QUANTIFIER_CLASS[w.toLowerCase()] === undefined &&
          !/^(?:such|other)$/i.test(w),
      );
    const common = written.filter((w) => !CAPITAL_FIRST.test(w));
    const candidates = new Set((common.length ? common : written).map((w) => stem(w.toLowerCase())));
    if (candidates.size === 0) continue;
    let agree = false;
    let other: string | undefined;
    // Only the window's words that start like a candidate are stemmed (a Porter stem keeps its word's start).
    const starts = [...candidates].map((c) => escapeRegExp(c.slice(0, Math.max(1, c.length - 1))));
    const near = new RegExp(`(?<![\\p{L}])(?:${starts.join('|')})[\\p{L}'’-]*`, 'giu');
    for (const w of matchesOf(near, passageWindow)) {
      if (!candidates.has(stem(w[0].toLowerCase()))) continue;
      const at = w.index ?? 0;
      const before = passageWindow.slice(Math.max(0, at - 60), at);
      const after = passageWindow.slice(at + w[0].length, at + w[0].length + 40);
      const q = QUANTIFIER_BEFORE.exec(before);
      const theirs =
        q && !/\bat\s+most\s+$/i.test(before.slice(0, q.index + 4)) ? QUANTIFIER_CLASS[q[1].toLowerCase()] : undefined;
      // "any expenses exceeding $150" narrows its universal: it does not back "every expense".
      const narrowed = kind === 'all' && !restrictedHere && RESTRICTED_AFTER.test(after);
      if (theirs === kind && !narrowed) {
        agree = true;
        break;
      }
      if (narrowed) other ??= `${w[0]}${RESTRICTED_AFTER.exec(after)?.[0] ?? ''}`;
      else if (theirs) other ??= `${q?.[0].trim()} ${w[0]}`;
      else if (kind === 'all' && COUNT_BEFORE.test(before)) other ??= `${COUNT_BEFORE.exec(before)?.[0] ?? ''}${w[0]}`;
    }
    if (!agree && other) {
      const said = `${m[1]} ${m[2]
        .split(/\s+/)
        .slice(0, written.length ? m[2].split(/\s+/).indexOf(written[written.length - 1]) + 1 : 1)
        .join(' ')}`;
      return `the sentence says '${said}'; the passage says '${other.trim()}'`;
    }
  }
  return undefined;
}

// "Any change at all", "whatsoever", "of any kind": an emphatic universal in an affirmed sentence.
const EMPHATIC = /\b(?:at\s+all|whatsoever|of\s+any\s+kind|no\s+matter\s+(?:what|how|which|when))\b/i;
const NEGATED_BEFORE = /(?:\b(?:not|no|never|none|nothing|nor|without|cannot)\b|n['’]t\b)/i;

/** The emphatic universal of an affirmed sentence ("any change at all"), or null (and for a negation's "not at all"). */
export function emphaticOf(sentence: string): string | null {
  const m = EMPHATIC.exec(sentence);
  if (!m || NEGATED_BEFORE.test(sentence.slice(0, m.index))) return null;
  // "At all" in a condition or a purpose ("To contact users at all, you need…", "if it is used at all")
  // means "even once": the clause states what any instance needs, as the passage's plain condition does.
  const clause =
    sentence
      .slice(0, m.index)
      .split(/[,;:—–]/u)
      .pop() ?? '';
  return /^at\s+all$/iu.test(m[0]) && CONDITION_OPENER.test(clause) ? null : m[0];
}

const CONDITION_OPENER = /^\s*(?:(?:\w+\s+){0,2}?(?:if|whether|unless|before)\b|(?:in\s+order\s+)?to\s+\p{L})/iu;

/**
 * The sentence's emphatic universal (`emphaticOf`) when its passage window has no universal of
 * its own ("material changes"): the sentence widens the scope. Undefined otherwise.
 */
export function widenedScope(emphatic: string | null, passageWindow: string): string | undefined {
  if (!emphatic) return undefined;
  return UNIVERSAL.test(passageWindow) || EMPHATIC.test(passageWindow) ? undefined : emphatic;
}

// "Without exception", "whichever agency grants it", "regardless of": a claim that nothing is left
// out, which a plain "all" or "any" of the passage does not make ("All details should be
// reimbursable" allows exceptions). Backed only by a window that rules exceptions out itself.
const NO_EXCEPTION =
  /\b(?:without\s+(?:any\s+)?exceptions?|with\s+no\s+exceptions?|no\s+exceptions|whichever\s+(?!(?:is|comes|occurs|happens|applies)\b)\p{L}+|regardless\s+of|in\s+(?:all|every)\s+cases?|under\s+(?:all|any)\s+circumstances)\b/iu;
const RULED_OUT =
  /\b(?:without\s+(?:any\s+)?exceptions?|no\s+exceptions?|regardless|no\s+matter|whatever|whichever|whatsoever|in\s+(?:all|every)\s+cases?|under\s+(?:all|any)\s+circumstances|always|at\s+all|whether\s+or\s+not|either\s+way)\b/iu;

/** The sentence says that nothing is left out ("without exception", "regardless of"): only then is `exceptionRuledOut` asked. */
export function claimsNoException(sentence: string): boolean {
  return NO_EXCEPTION.test(sentence);
}

/** The sentence's "without exception" when the window does not rule exceptions out, else undefined. */
export function exceptionRuledOut(sentence: string, passageWindow: string): string | undefined {
  const m = NO_EXCEPTION.exec(sentence);
  if (!m || NEGATED_BEFORE.test(sentence.slice(0, m.index))) return undefined;
  return RULED_OUT.test(passageWindow) ? undefined : m[0];
}

// ---------------------------------------------------------------------------------------------
// Adverbs that change the claim: when or how a thing happens ("overrides it immediately", "renews
// automatically", "deleted permanently"). Common words, so the distinctive-word check lets them
// through, and a short one is averaged away by the rest of a long sentence; like a weekday, the
// passage must say them (in any form of the word, or one the lexicon takes for it).

// Each adverb with the start every form of its word shares ("temporar-": "temporarily", "temporary").
const CLAIM_ADVERBS: ReadonlyMap<string, string> = new Map(
  (
    'immediately:immediat instantly:instant automatically:automat permanently:permanen temporarily:temporar ' +
    'retroactively:retroactiv indefinitely:indefinit irrevocably:irrevoca unconditionally:unconditional'
  )
    .split(' ')
    .map((pair) => pair.split(':'))
    .map(([word, root]) => [stem(word), root] as const),
);

/**
 * The adverb that changes the claim which the sentence affirms and the passage's window never says
 * in any form ("automatic" says "automatically"), or undefined. `negated`: stems in the scope of the
 * sentence's negations ("renewals aren't automatic" claims less, not more).
 */
export function unbackedClaimAdverb(
  stems: readonly string[],
  covered: readonly boolean[],
  negated: ReadonlySet<string>,
  windowText: () => string,
): string | undefined {
  for (let i = 0; i < stems.length; i++) {
    const root = CLAIM_ADVERBS.get(stems[i]);
    if (root === undefined || covered[i] || negated.has(stems[i])) continue;
    if (!new RegExp(`(?<![\\p{L}])${root}`, 'iu').test(windowText())) return stems[i];
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Answer particles.

const PARTICLE =
  /^\s*(?:\*\*)?(?:no|nope|yes|yeah|yep|correct|right|true|false|exactly|indeed|not\s+quite|not\s+exactly|not\s+(?:usually|always|necessarily|generally|normally|typically|really)|(?:generally|usually|mostly|normally|typically|often|in\s+general)\s+(?:no|not|yes)|unfortunately|good\s+news)(?:\*\*)?\s*(?:[,:;!.]|\s[—–-]{1,2}\s?|[—–])\s*(?:\*\*)?/i;

/**
 * The sentence without the particle that answers the question ("No — unused time is forfeited"
 * reads "unused time is forfeited"); "No employee may…" keeps its "No" (a word follows it directly).
 */
export function withoutAnswerParticle(sentence: string): string {
  const m = PARTICLE.exec(sentence);
  if (!m) return sentence;
  const rest = sentence.slice(m[0].length);
  if (!/[\p{L}\p{N}]/u.test(rest)) return sentence;
  // "No — not in the last year, GitHub has not sold …": the "not" before a fronted phrase repeats the
  // answer, and the clause after the comma says the negation itself; the phrase is its adjunct.
  const echo = ECHOED_NOT.exec(rest);
  return echo && NEGATION_CUE.test(rest.slice(echo[0].length)) ? rest.slice(echo[1].length) : rest;
}

// "not" opening the rest of a reply before a phrase of time, place or scope closed by a comma.
const ECHOED_NOT =
  /^(not\s+)(?:in|within|during|for|since|at|on|under|after|before|by|outside|inside|over|until|as\s+of)\b[^,;:—–]*,/i;
const NEGATION_CUE = /\b(?:not|no|never|none|nor|neither|cannot)\b|n['’]t\b/i;

// ---------------------------------------------------------------------------------------------
// Hedges: what the documents do not say. A partial abstention, not a fact about the policy.

// Who says: the retrieved text itself (any verb of giving), or the policy / a pronoun (only verbs
// of saying, or giving a number or a detail: "the policy does not cover dental" is a claim).
const RETRIEVED = String.raw`(?:(?:the|these|those)\s+)?(?:(?:retrieved|cited|provided|available)\s+)?(?:\p{Lu}[\p{L}\d'’-]*\s+){0,2}(?:documents?|docs|passages?|sources?|excerpts?|results?|materials?|texts?|pages?|sections?|evidence)`;
const SPEAKER = String.raw`(?:(?:the|this|that|these|those)\s+)?(?:(?:[\p{L}-]+\s+)?(?:policy|policies|handbook|guidelines?|guide|article|terms|description|statement|notice|agreement|contract|rules|wording|faq|addendum|entry|section|page)|they|it|this|these|those)`;
const SAY = String.raw`(?:say|state|specify|mention|indicate|spell|clarify|quantify|detail|explain|define|address|elaborate|discuss|tell|note)`;
const GIVE = String.raw`(?:give|list|provide|offer|include|contain|set|show|name|identify|cover|describe|outline|put)`;
// The thing not given, with up to two words of its own ("an hourly rate", "a review time", "a phone number").
const DETAIL = String.raw`(?:(?:a|an|any|the|one|specific|exact|precise|clear|particular)\s+)*(?:[\p{L}-]+\s+){0,2}?(?:number|figure|amount|limit|cap|date|deadline|time\s*frame|timeline|timeframe|time|duration|specifics?|details?|examples?|breakdown|rate|threshold|count|value|percentage|price|cost|fee|guidance|information|answer|list|name|reason|criteria|procedure)\b`;
const NOT = String.raw`(?:do|does|did)\s*(?:not|n['’]t)\s+(?:explicitly\s+|clearly\s+|directly\s+|actually\s+|specifically\s+|further\s+)?`;
const HERE = String.raw`(?:\s+(?:here|shown|above|below|I\s+found|we\s+have|retrieved|provided|available|themselves|itself)){0,2}`;
// A titled source: "The Research Program Terms don't say …", "GitHub's policy doesn't specify …".
const TITLED = String.raw`(?:[Tt]he\s+)?(?:[A-Z][\p{L}'’-]*\s+){1,6}`;
const HEDGE_PATTERNS = [
  // "the passages don't give a number", "the documents do not mention …"
  new RegExp(String.raw`\b${RETRIEVED}${HERE}\s+${NOT}(?:${SAY}|${GIVE})`, 'iu'),
  // "the policy doesn't say …", "they don't specify …", "it doesn't give a number"
  new RegExp(String.raw`\b${SPEAKER}${HERE}\s+${NOT}(?:${SAY}|${GIVE}\s+${DETAIL})`, 'iu'),
  new RegExp(String.raw`(?:^|[,;:]\s*|\b(?:but|and|though|although|however)\s+)${TITLED}${NOT}${SAY}\b`, 'u'),
  // "… is not specified / stated / mentioned", "isn't spelled out"
  /\b(?:(?:is|are|was|were)\s+not|isn['’]t|aren['’]t|wasn['’]t|weren['’]t)\s+(?:explicitly\s+|clearly\s+|further\s+)?(?:specified|stated|mentioned|spelled\s+out|documented|indicated|quantified|detailed|addressed\s+in|given\s+in|listed\s+in|covered\s+in)\b/iu,
  // "there is no information about …", "I found no mention of …"
  /\b(?:there\s+(?:is|are|was|were)\s+no|there['’]s\s+no|(?:I|we)\s+(?:found|find|could\s+find|see|saw)\s+no)\s+(?:\p{L}+\s+){0,2}(?:information|mention|details?|data|figures?|numbers?|guidance|statement|specifics?|reference|indication|amount|limit|cap|date|deadline|fee|price|rate|schedule|timeline|time\s*frame|duration|answer|word)\b/iu,
  // "No dollar cap is given in these passages", "No start time for the breakfast is given in the handbook"
  new RegExp(
    String.raw`\bno\s+(?:[\p{L}-]+\s+){0,5}(?:is|are|was|were)\s+(?:given|listed|stated|mentioned|specified|provided|set\s+out|named)\s+(?:in|by)\s+(?:${RETRIEVED}|${SPEAKER})`,
    'iu',
  ),
  // "None of the passages gives an email address", "the passages say nothing about earlier periods"
  new RegExp(String.raw`\bnone\s+of\s+${RETRIEVED}${HERE}\s+(?:${SAY}|${GIVE})s?\b`, 'iu'),
  new RegExp(String.raw`\b(?:${RETRIEVED}|${SPEAKER})${HERE}\s+(?:${SAY})s?\s+nothing\b`, 'iu'),
  // "I couldn't find …", "I did not find any …"
  /\b(?:I|we)\s+(?:couldn['’]t|could\s+not|can['’]t|cannot|did\s+not|didn['’]t|was\s+unable\s+to|were\s+unable\s+to)\s+find\b/iu,
  // "no number is given", "nothing in the documents says …"
  /\bnothing\s+in\s+(?:the\s+)?(?:documents?|passages?|sources?|policy|handbook|guidelines?)\b/iu,
  /\bnot\s+(?:specified|stated|mentioned|addressed|spelled\s+out)\s+(?:in|by)\b/iu,
];

const PASSIVE_OR_EXISTENTIAL = [/^(?:is|are|was|were|isn|aren|wasn|weren)\b/iu, /^there\b/iu];

/** Where a hedge clause starts in the sentence ("… , but they don't give a number"), or -1. */
function hedgeStart(sentence: string): number {
  let start = -1;
  for (const p of HEDGE_PATTERNS) {
    const m = p.exec(sentence);
    if (m && (start < 0 || m.index < start)) start = m.index;
  }
  if (start < 0) return -1;
  // A passive hedge ("The yearly cap isn't stated …", "There's no amount …") takes its subject:
  // it starts where its clause does.
  if (PASSIVE_OR_EXISTENTIAL.some((p) => p.test(sentence.slice(start, start + 40)))) {
    const clause = /[,;:—–]\s*(?:(?:but|and|although|though|however|yet|while)\s+)?[^,;:—–]*$/u.exec(
      sentence.slice(0, start),
    );
    return clause ? clause.index : 0;
  }
  // The clause begins at the joining word or punctuation before the hedge, if any.
  const before = sentence.slice(0, start);
  const join =
    /(?:[,;:—–]\s*(?:(?:but|and|although|though|however|yet|while)\s+)?|\s(?:but|although|though|however|yet|while)\s+)(?:\p{L}+\s+){0,3}$/iu.exec(
      before,
    );
  return join ? join.index : start;
}

// A clause after the hedge: "…, but refunds take 5 days" is a claim again.
const CLAUSE_AFTER = /[,;]\s*(?:but|however|although|though|yet|still|and)\b|;\s|\s[—–]\s/iu;

export interface HedgeSplit {
  /** The sentence without its hedge clause (what is checked against the passage). */
  claim: string;
  /** The hedge clause, when there is one. */
  hedge?: string;
}

/**
 * Splits off the clause that says what the documents do not state. A hedge that carries a value
 * ("they don't mention the $500 fee") presupposes a fact, so it is no hedge and stays a claim;
 * unless the documents found give each of its values as written (`given`, see hedgeValues.ts):
 * then it names what is missing ("what the office was called before 2016", "the GS-13 role").
 */
export function splitHedge(sentence: string, given?: (hedge: string) => boolean): HedgeSplit {
  const start = hedgeStart(sentence);
  if (start < 0) return { claim: sentence };
  const rest = sentence.slice(start);
  const after = CLAUSE_AFTER.exec(rest.slice(1));
  const end = after ? start + 1 + after.index : sentence.length;
  const hedge = sentence.slice(start, end);
  const bare = hedge.replace(/\[E\d+(?:\s*,\s*E\d+)*\]/g, '');
  if (/\d|[$€£]/u.test(bare) && !(/\d/u.test(bare) && given?.(bare) === true)) return { claim: sentence };
  return { claim: `${sentence.slice(0, start)}${sentence.slice(end)}`, hedge };
}

/** True when the whole sentence says what the documents do not state (nothing else). */
export function isHedge(sentence: string): boolean {
  const { claim, hedge } = splitHedge(sentence);
  if (!hedge) return false;
  const leftover = claim
    .replace(/\[E\d+(?:\s*,\s*E\d+)*\]/g, '')
    .replace(/\b(?:however|unfortunately|but|note|that|said|though|also|and|so)\b/giu, '');
  return !/[\p{L}\p{N}]/u.test(leftover);
}

// ---------------------------------------------------------------------------------------------
// Identifiers: a domain, an address, a path or repository, a chat channel, a form number. One
// character off is another place ("gsa.zoom.us" for "gsa.zoomgov.com", "github/dmca" for
// "github/gov-takedowns"): the passage must hold it as written (case aside).

const IDENTIFIER =
  /(?<![\w.@/#-])(?:#[a-z][\w-]+|[a-z0-9][\w-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)+|[a-z0-9][\w-]{1,}(?:\.[a-z][\w-]{1,})+|[a-z][\w-]{1,}(?:\/[\w.-]{2,})+)(?![\w@/#-]|\.[a-z])/giu;
const NOT_IDENTIFIERS = new Set(['and/or', 'he/she', 'his/her', 'him/her', 's/he', 'w/o', 'either/or', 'yes/no']);

/** Identifiers the sentence names, as written. */
export function identifiers(text: string): string[] {
  return [
    ...new Set(
      matchesOf(IDENTIFIER, text)
        .map((m) => m[0].replace(/[.]+$/, ''))
        .filter((id) => !NOT_IDENTIFIERS.has(id.toLowerCase())),
    ),
  ];
}

/**
 * The first identifier of the sentence the passage does not hold as written; `lower` is the
 * passage in lower case, and `plain` gives its `looseText` (asked only for a quoted title).
 */
export function missingIdentifier(claimed: readonly string[], lower: string, plain: () => string): string | undefined {
  if (claimed.length === 0) return undefined;
  // A quoted title is met as its words in a row (punctuation, case and a leading article aside).
  // Its last word may be singular or plural ("Covered Licenses" / "Covered License").
  const forms = (title: string): string[] => [
    title,
    title.replace(/(?:es|s)$/, ''),
    title.replace(/s$/, ''),
    `${title}s`,
  ];
  return claimed.find(
    (id) =>
      !lower.includes(id.toLowerCase()) &&
      !(
        /\s/.test(id) &&
        [...forms(looseText(id).replace(/^(?:the|a|an) /, '')), ...genusInitial(id)].some((f) =>
          ` ${plain()} `.includes(` ${f} `),
        )
      ),
  );
}

// A scientific name ("Antechinus swainsonii mimetes", "Escherichia coli"): a genus, then one or two
// epithets in lower case. Biology writes the genus as its initial once it is known ("A. swainsonii
// mimetes", "E. coli"); the epithets still have to be written as they are.
const SCIENTIFIC_NAME = /^\p{Lu}\p{Ll}+(?: \p{Ll}{3,}){1,2}$/u;

/** A scientific name as loose text with its genus as an initial ("a swainsonii mimetes"), or nothing. */
function genusInitial(id: string): string[] {
  return SCIENTIFIC_NAME.test(id) ? [looseText(`${id[0]}${id.slice(id.indexOf(' '))}`)] : [];
}

/** A text as quoted titles are looked for in it: lower case, each run of other characters than letters and digits one space. */
export function looseText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Names in quotes ("18F Out of Office", "Use or Lose"): a title is one name, so the passage must
 * hold it as written, not its words scattered ("18F Events" is another calendar).
 */
export function quotedTitles(text: string): string[] {
  const found: string[] = [];
  for (const m of matchesOf(/["“]([^"”\n]{2,60})["”]/gu, text)) {
    const title = m[1].trim().replace(/[.,;:!?]+$/, '');
    const words = title.split(/\s+/);
    if (words.length > 6 || !/^[\p{Lu}\d]/u.test(title)) continue;
    found.push(title);
  }
  return found;
}
