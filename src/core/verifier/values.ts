// Numbers, amounts, durations and dates read as exact values: "30 days" and "90 days" are a
// contradiction, not a partial match, and "$1.5 million" equals "$1,500,000".

import { anyCase, WORD_CHAR } from '../text/caseless';
import { matchesOf } from '../text/matches';
import { stem } from '../text/terms';
import { monthOf } from './anchors';

export interface ValueMention {
  /** Canonical value ("30", "1500000", "1.2.3"). */
  key: string;
  /** Stem of the unit word that follows ("day", "%", "$"), or "" when there is none. */
  unit: string;
  /** The words as written ("30 days"). */
  text: string;
  /** Where the words are in the text read. */
  start?: number;
  end?: number;
}

/** Number words read as values ("three" is 3); the lexicon joins each to its numeral. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  dozen: 12,
};
/**
 * Ordinal words read as their numerals are ("nineteenth century" is "19th century", "fiftieth
 * anniversary" "50th anniversary"). Not "first", "second", "third": a second is a unit of time, a
 * third a share, a third party nobody's rank; alone they are words, as "one" and "a" are.
 */
const ORDINAL_WORDS: Readonly<Record<string, number>> = Object.fromEntries(
  (
    'fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth ' +
    'seventeenth eighteenth nineteenth twentieth'
  )
    .split(' ')
    .map((w, i) => [w, i + 4] as const)
    .concat(
      ['thirtieth', 'fortieth', 'fiftieth', 'sixtieth', 'seventieth', 'eightieth', 'ninetieth'].map(
        (w, i) => [w, 30 + 10 * i] as const,
      ),
      [['hundredth', 100] as const],
    ),
);
/** Scale words: a value after a number ("5 million"), or after "a" / "one" / "half a" ("a million"). */
const SCALE_WORDS = ['thousand', 'million', 'billion'];
const SCALES: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
  k: 1e3,
  m: 1e6,
  bn: 1e9,
};
const CURRENCY: Record<string, string> = {
  $: '$',
  '€': '€',
  '£': '£',
  usd: '$',
  dollar: '$',
  eur: '€',
  euro: '€',
  gbp: '£',
  pound: '£',
};
const UNIT_SKIP = new Set([
  'and',
  'or',
  'to',
  'of',
  'the',
  'a',
  'an',
  'in',
  'on',
  'at',
  'by',
  'for',
  'per',
  'from',
  'with',
  'than',
]);

// A numeral is read whole or not at all: "£1.2m" is not £1 and "3.5km" not 3 (the guard after the
// numeral). An amount with its scale glued on ("£1.2m", "$2M", "€3bn", "$45k") is that amount; a
// number with "k", "m" or "b" glued on and no currency ("100m", "4K", "2b") may be metres, a
// resolution or a subsection: no value. "bn" is a billion wherever it is.
const GLUED_SCALE = /(?<=\d)(bn|[kmb])$/;
// Candidates only (numerals and number words), so that a long passage without numbers costs
// one regex scan; the words around a candidate are read with sticky patterns. A candidate is what
// /\d+(?:[.,:]\d+)*(?:st|nd|rd|th|s)?\b|\b(?:two|three|…)\b/giu matches; that pattern is spelt
// out here without the `i` flag, which makes the scan twice as slow: each letter as a class of its
// cases (a Unicode case-insensitive "s" also matches "ſ", U+017F), and \b as look-arounds on the
// word characters of that mode (ASCII letters, digits, "_", "ſ" and the Kelvin sign U+212A).
export const CANDIDATE = new RegExp(
  `\\d+(?:[.,:]\\d+)*(?:${['st', 'nd', 'rd', 'th', 's', 'bn', 'k', 'm', 'b'].map(anyCase).join('|')})?(?!${WORD_CHAR}|[.,:]\\d)` +
    `|(?<!${WORD_CHAR})(?:${[...Object.keys(NUMBER_WORDS), ...Object.keys(ORDINAL_WORDS), ...SCALE_WORDS, 'one'].map(anyCase).join('|')})(?!${WORD_CHAR})`,
  'gu',
);
// Number words that make one number together: "forty-eight" is 48 (not 40 and 8), "two hundred" is
// 200, "a million", "one thousand" and "half a million" are numbers although "a", "one" and "half"
// are not read as values on their own ("one of the", "a day").
const DIGIT_WORDS: Readonly<Record<string, number>> = { one: 1, ...NUMBER_WORDS };
// "One" is a value before a unit of time ("one year", "one business day", "a one-year term"): a
// duration, like "two days". "One (1) year" is read from its numeral.
const ONE_OF_TIME =
  /[\s-]+(?:(?:business|calendar|working)\s+)?(?:second|minute|hour|day|week|fortnight|month|quarter|year)s?(?![\p{L}\p{N}])/iuy;
const TENS_THEN_DIGIT =
  /^[-\s]\s*(one|two|three|four|five|six|seven|eight|nine|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)(?![\p{L}\p{N}])/iu;
// The ordinals a tens word takes ("twenty-first" is 21st).
const ORDINAL_DIGITS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3 };
const THEN_HUNDRED = /^\s+hundred(?![\p{L}\p{N}])/iu;
const COUNT_BEFORE_SCALE = /(?<![\p{L}\p{N}])(?:(half)\s+an?|an?|one)\s+$/iu;
const MONTH_BEFORE = /(\p{Lu}\p{Ll}{2,8})\.?\s+$/u;
// A range of years written short: "2018–19", "1914-18", "2018/19" (the second year keeps only its last
// two digits); not a date's month and day ("2004-10-19").
const YEAR_BEFORE = /(?<![\d.,])(\d{2})(\d{2})[-–—/]$/;
const MERIDIEM = /^\s?([ap])\.\s?m\.?(?![\p{L}\p{N}])/iu;
const CURRENCY_BEFORE = /([$€£])\s?$/u;
const NEXT_WORD = /[\s-]*(%|[$€£]|\p{L}+)/uy;
// Made once: the bundler builds a `\p{…}` literal written in a function on every call.
const CAPITAL_FIRST = /^\p{Lu}/u;

function numeralKey(token: string): string {
  const bare = token.replace(/(st|nd|rd|th|s)$/, '');
  // Thousands separators are commas before exactly three digits; anything else with several
  // dots (1.2.3) or a colon (9:30) is kept as written.
  const noThousands = bare.replace(/,(?=\d{3}(?!\d))/g, '');
  if (/^\d+(\.\d+)?$/.test(noThousands)) return String(Number(noThousands));
  return noThousands;
}

/**
 * Every value mentioned in the text, in order. `context`: the text just before it, when it is a
 * part of a longer text (a unit of a passage that starts "10, 2014" after "Aug."), read only for
 * the month of a day.
 */
export function extractValues(text: string, context = ''): ValueMention[] {
  const values: ValueMention[] = [];
  // Where the last value read ends: a number word it took in ("hundred" of "two hundred") is not read again.
  let readTo = 0;
  for (const m of matchesOf(CANDIDATE, text)) {
    if (m.index < readTo) continue;
    const token = m[0].toLowerCase();
    const numeric = token.charCodeAt(0) <= 57;
    // A sentence-final period is not a decimal point: "in 1991." reads 1991.
    const glued = numeric ? GLUED_SCALE.exec(token)?.[1] : undefined;
    const numeral = glued ? token.slice(0, -glued.length) : token;
    let key = numeric ? numeralKey(numeral.replace(/[.,:]$/, '')) : String(NUMBER_WORDS[token] ?? ORDINAL_WORDS[token]);
    let start = m.index;
    let end = m.index + m[0].length;
    if (token === 'one') {
      ONE_OF_TIME.lastIndex = end;
      if (!ONE_OF_TIME.test(text)) continue;
      key = '1';
    } else if (!numeric) {
      const words = wordsOfOneNumber(text, token, start, end);
      if (!words) continue;
      ({ key, start, end } = words);
    }
    // "2018–19" is 2018 to 2019: the short year takes its century from the year before it, when it is later.
    if (numeric && /^\d{2}$/.test(token) && !/^[-–—/]\d/.test(text.slice(end, end + 2))) {
      const year = YEAR_BEFORE.exec(text.slice(Math.max(0, start - 6), start));
      if (year && Number(key) > Number(year[2])) key = `${year[1]}${token.slice(0, 2)}`;
    }
    let unit = '';
    const before = CURRENCY_BEFORE.exec(text.slice(Math.max(0, start - 2), start));
    if (before) {
      unit = CURRENCY[before[1]];
      start -= before[0].length;
    }
    if (glued) {
      if (!before && glued !== 'bn') continue;
      key = String(Math.round(Number(key) * SCALES[glued === 'b' ? 'bn' : glued] * 1000) / 1000);
    }
    NEXT_WORD.lastIndex = end;
    let next = NEXT_WORD.exec(text);
    const scale = next ? SCALES[next[1].toLowerCase()] : undefined;
    if (next && scale && /^\d+(\.\d+)?$/.test(key)) {
      key = String(Math.round(Number(key) * scale * 1000) / 1000);
      end = NEXT_WORD.lastIndex;
      next = NEXT_WORD.exec(text);
    }
    if (!unit && next) {
      const word = next[1].toLowerCase();
      if (word === '%' || word === 'percent') unit = '%';
      else if (CURRENCY[word]) unit = CURRENCY[word];
      else if (word.length > 1 && !UNIT_SKIP.has(word) && NUMBER_WORDS[word] === undefined) unit = stem(word);
      if (unit) end = NEXT_WORD.lastIndex;
      // "7 business days": the qualifier is the unit (see TIME_UNITS); the words as written run to "days".
      if (unit === 'busi' || unit === 'work' || unit === 'calendar') {
        const days = NEXT_WORD.exec(text);
        if (days && /^days?$/i.test(days[1])) end = NEXT_WORD.lastIndex;
      }
    }
    // A time of day: "8 AM", "8 a.m." and "8:00 AM" are one time (the hour, when on the hour).
    if (!unit || unit === 'a' || unit === 'p') {
      const meridiem = MERIDIEM.exec(text.slice(end, end + 8));
      if (meridiem) {
        unit = `${meridiem[1].toLowerCase()}m`;
        end += meridiem[0].length;
      }
    }
    // A day of a month is one value with its month: "April 15" is not the 15 of "March 15", and
    // "25 February" is "February 25". A month is a proper noun, written with a capital.
    const day = /^\d{1,2}$/.test(key) && Number(key) >= 1 && Number(key) <= 31;
    if (day && !before) {
      const monthBefore = MONTH_BEFORE.exec(`${context}${text.slice(0, start)}`.slice(-12));
      const month = monthBefore ? monthOf(monthBefore[1]) : undefined;
      const monthAfter = next && CAPITAL_FIRST.test(next[1]) ? monthOf(next[1]) : undefined;
      if (month) {
        key = `${month} ${key}`;
        start = Math.max(0, start - (monthBefore?.[0].length ?? 0));
        if (unit && monthOf(unit) === undefined) end = m.index + m[0].length;
        unit = 'date';
      } else if (monthAfter && unit) {
        key = `${monthAfter} ${key}`;
        unit = 'date';
      }
    }
    // "8 PM" is not "8 AM": the half of the day is part of the value.
    if (unit === 'am' || unit === 'pm') key = `${key.replace(/^(\d{1,2}):00$/, '$1')} ${unit}`;
    values.push({ key, unit, text: text.slice(start, end), start, end });
    readTo = end;
  }
  return values;
}

/**
 * The number that number words starting at `token` write together: "forty-eight", "two hundred",
 * "a million", "half a million"; a scale word with no count before it ("the million") is none.
 */
function wordsOfOneNumber(
  text: string,
  token: string,
  start: number,
  end: number,
): { key: string; start: number; end: number } | undefined {
  const scale = SCALES[token];
  if (scale !== undefined) {
    const count = COUNT_BEFORE_SCALE.exec(text.slice(Math.max(0, start - 10), start));
    if (!count) return undefined;
    return { key: String(count[1] ? scale / 2 : scale), start: start - count[0].length, end };
  }
  let value = NUMBER_WORDS[token] ?? ORDINAL_WORDS[token];
  if (NUMBER_WORDS[token] >= 20 && value <= 90 && value % 10 === 0) {
    const digit = TENS_THEN_DIGIT.exec(text.slice(end, end + 9));
    if (digit) {
      const word = digit[1].toLowerCase();
      value += DIGIT_WORDS[word] ?? ORDINAL_DIGITS[word] ?? ORDINAL_WORDS[word];
      end += digit[0].length;
    }
  }
  if (value < 10 && NUMBER_WORDS[token] !== undefined) {
    const hundred = THEN_HUNDRED.exec(text.slice(end, end + 10));
    if (hundred) {
      value *= 100;
      end += hundred[0].length;
    }
  }
  return { key: String(value), start, end };
}

export type ValueCheck =
  | { kind: 'ok' }
  | { kind: 'mismatch'; claimed: ValueMention; found: ValueMention }
  | { kind: 'missing'; claimed: ValueMention };

// Units of time and of money, as extractValues stems them: a closed class, in which a number with
// another unit is another value ("7 days" is not "7 weeks", "$5" is not "5%"). "business days" and
// "working days" are fewer than days (the unit's qualifier is read as the unit); "calendar days" are days.
const TIME_UNITS: Readonly<Record<string, string>> = {
  second: 'second',
  minut: 'minute',
  hour: 'hour',
  dai: 'day',
  calendar: 'day',
  busi: 'business day',
  work: 'business day',
  week: 'week',
  fortnight: 'fortnight',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};
const MONEY_UNITS = new Set(['$', '€', '£', '%']);

/** Whether a value's unit (as extractValues stems it) measures time or money: a duration, an amount, a share. */
export function isMeasure(unit: string): boolean {
  return TIME_UNITS[unit] !== undefined || MONEY_UNITS.has(unit);
}

/**
 * Whether a passage's value of the same number measures what the sentence's does: either has no
 * unit of time or money ("thirty (30) days": the numeral stands alone), or the same one. A
 * sentence may say "7 days" for "7 business days" (it says less), not "7 business days" for
 * "7 days" (an appended qualifier that changes the value).
 */
function sameMeasure(claimed: string, found: string): boolean {
  const c = TIME_UNITS[claimed] ?? (MONEY_UNITS.has(claimed) ? claimed : undefined);
  const f = TIME_UNITS[found] ?? (MONEY_UNITS.has(found) ? found : undefined);
  if (c === undefined || f === undefined || c === f) return true;
  return c === 'day' && f === 'business day';
}

/**
 * Every value of the sentence must appear in the passage, with the same unit when both give a
 * unit of time or money. A value that is absent while the
 * passage states another value of the same unit is a mismatch; otherwise it is missing.
 */
export function checkValues(sentence: ValueMention[], passage: ValueMention[]): ValueCheck {
  if (sentence.length === 0) return { kind: 'ok' };
  let missing: ValueMention | undefined;
  for (const claimed of sentence) {
    if (passage.some((v) => v.key === claimed.key && sameMeasure(claimed.unit, v.unit))) continue;
    const found = claimed.unit ? passage.find((v) => v.unit === claimed.unit) : undefined;
    if (found) return { kind: 'mismatch', claimed, found };
    missing ??= claimed;
  }
  return missing ? { kind: 'missing', claimed: missing } : { kind: 'ok' };
}
