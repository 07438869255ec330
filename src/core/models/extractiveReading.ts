// What the offline (extractive) model reads: the question's key terms and their weights, the
// names it must find, and every sentence of the returned passages that could answer it, each with
// its lexical score (the weighted share of key terms it holds). Deciding which sentences answer,
// with or without the embedding model, is extractiveModel.ts's job.

import type { FollowUpParts } from '../types';
import { analyse, TOKEN, tokenWord, type Term } from '../text/terms';
import { termStatsFromTexts, type TermStats } from '../text/termStats';
import { splitSentences } from '../verifier';
import { askedValues, askingSentences, CASUAL_HEDGES, countedTerms, questionParts } from '../verifier/relevance';

// Our own copy of the token pattern: matchAll starts from a regex's lastIndex, which the shared one keeps between scans.
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

/**
 * Words that say what kind of question it is, not what it is about; and contractions typed without
 * their apostrophe ("whats", "im", "dont"), which are function words like their written forms.
 */
const QUESTION_FILLER = new Set([
  ...(
    'policy policies rule rules allowed allow happen happens need needs know tell explain question please get gets much many long often document documents say says said mean means ' +
    'whats hows whos wheres whens im ive ill id dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt youre theyre'
  ).split(' '),
  ...CASUAL_HEDGES,
]);

/** Weight of a word carried from the earlier question when picking sentences (the follow-up's own words weigh 1). */
const CONTEXT_SHARE = 0.25;
/** Weight of a word of the asker's situation told beside the question (it often names the topic: "Left my PIV card at home."). */
const SITUATION_SHARE = 0.5;
/** Added to the score of a sentence that states the kind of value the question asks for (chosen on the dev set). */
export const VALUE_BONUS = 0.2;
/** A worked example's steps and conclusion, not the rule itself. */
const CALCULATION = /\d\s*(?:[a-z ]{0,24})?\s(?:x|×|\*|=)\s*\d/i;
const WORKED_EXAMPLE =
  /^(?:for (?:example|instance)|e\.g\.|example\b|in (?:this|that|the above) (?:example|case)|therefore|thus|hence|so,|this means)/i;
const QUESTION_WORD = /\b(?:how|what|when|who|whom|which|where|why)\b/i;

export interface ReturnedPassage {
  id: string;
  heading: string;
  text: string;
}

/** A sentence of a returned passage that could answer. */
export interface Candidate {
  text: string;
  /** The evidence id of its passage. */
  id: string;
  heading: string;
  /** Weighted share of the key terms it (or, at half weight, its heading) holds, plus the value bonus. */
  lexical: number;
  /** Weighted share of the key terms it (or, at half weight, its heading) holds: the lexical score without the value bonus. */
  topical: number;
  /** It states the kind of value the question asks for. */
  statesValue: boolean;
  /** Position in the passages (return order, then sentence order). */
  order: number;
  stems: Set<string>;
}

/** The question as the model reads it. */
export class QuestionReading {
  readonly keyTerms: string[];
  readonly anchors: string[];
  private readonly words: QuestionWords;
  private readonly own: Set<string>;
  private readonly stats: TermStats;
  private readonly unseenWeight: number;
  private readonly averageSeen: number;

  constructor(
    /** The question answered (a follow-up's standalone question). */
    readonly question: string,
    passages: readonly ReturnedPassage[],
    corpusStats: TermStats | undefined,
    readonly followUp?: FollowUpParts,
  ) {
    const howWords = new Set([...question.toLowerCase().matchAll(/\bhow\s+(\p{L}+)/gu)].map((m) => m[1]));
    // The question is read once: every later step looks words up here (linear in its length).
    this.words = new QuestionWords(question);
    // "How old / long / much / soon…" asks for a value: the word after "how" is not a topic.
    // "What is the name of the person who…" asks for a name: "name" and "person" are not topics either.
    const nameWords = NAME_ASKED.test(question) ? NAME_QUESTION_WORDS : undefined;
    this.keyTerms = unique(
      this.words.terms
        .filter((t) => !QUESTION_FILLER.has(t.word) && !howWords.has(t.word) && !nameWords?.has(t.word))
        .map((t) => t.stem),
    );
    // The follow-up's own words, or the words of the sentences that ask, decide which sentences are
    // picked; carried words and the asker's situation weigh less.
    this.own = new Set(
      followUp
        ? new QuestionWords(followUp.asked).terms.map((t) => t.stem)
        : askingSentences(question).flatMap((s) => new QuestionWords(s).terms.map((t) => t.stem)),
    );
    // Names and numbers the question is specifically about ("Japan", "401(k)").
    this.anchors = unique(
      questionAnchors(question, followUp)
        .map((w) => analyse(w, { stemming: true }).terms[0]?.stem)
        .filter((s): s is string => !!s),
    );
    // A word the whole corpus never uses is as likely a paraphrase ("yearly" for "annual") as a
    // missing topic: it weighs like an average word rather than like the rarest one.
    this.stats = corpusStats ?? termStatsFromTexts(passages.map((p) => `${p.heading}\n${p.text}`));
    this.unseenWeight = this.stats.idf('\u0000never-seen');
    const seenWeights = this.keyTerms.map((t) => this.stats.idf(t)).filter((w) => w < this.unseenWeight);
    this.averageSeen = seenWeights.length ? seenWeights.reduce((a, b) => a + b, 0) / seenWeights.length : 1;
  }

  weight(stem: string): number {
    const w = this.stats.idf(stem);
    return w >= this.unseenWeight ? this.averageSeen : w;
  }

  /** 1 for the question's (or the follow-up's) own words, less for words carried from the earlier question. */
  share(stem: string): number {
    if (this.own.size === 0 || this.own.has(stem)) return 1;
    return this.followUp ? CONTEXT_SHARE : SITUATION_SHARE;
  }

  /** The word as the user wrote it. */
  surface(stem: string): string {
    return this.words.surface(stem);
  }

  /** Weighted share of the key terms found in `stems` (IDF weights, no carried-word discount). */
  coverage(stems: ReadonlySet<string>): number {
    const total = this.keyTerms.reduce((sum, t) => sum + this.weight(t), 0);
    return total ? this.keyTerms.filter((t) => stems.has(t)).reduce((sum, t) => sum + this.weight(t), 0) / total : 0;
  }

  /** What kind of value is asked: the follow-up's own ("over how long?"), else the question's. */
  askedValues(): ((text: string) => boolean)[] {
    const asked = this.askedText();
    return [...questionParts(asked).flatMap(partValues), ...askedContacts(asked)];
  }

  /** Whether a number, an amount of money, a duration or a date is asked for (contact details and names aside). */
  asksQuantity(): boolean {
    return questionParts(this.askedText()).some((part) => askedValues(part).length > 0);
  }

  /** The words that ask: the follow-up's own when it asks something ("over how long?"), else the question. */
  private askedText(): string {
    const f = this.followUp;
    return f && QUESTION_WORD.test(f.asked) ? f.asked : this.question;
  }
}

/**
 * What states the value one part of the question asks for: the verifier's kinds of value, made
 * precise where the question says more. "What time…" asks for a time of day ("every Thursday
 * morning" names a day, not a time); "how many pay periods…" asks for a count of pay periods
 * ("240 hours" counts something else).
 */
function partValues(part: string): ((text: string) => boolean)[] {
  const kinds = askedValues(part);
  if (kinds.length === 0) return kinds;
  if (TIME_OF_DAY_ASKED.test(part)) return [(text) => TIME_OF_DAY_STATED.test(text)];
  if (PAST_DATE_ASKED.test(part)) return [(text) => DATE_STATED.test(text)];
  const counted = countedWords(part);
  return counted ? kinds.map((states) => (text: string) => states(text) && counts(text, counted)) : kinds;
}

/** "What time…", "by what time of day…" (not "what time frame"): a time of day is asked for. */
const TIME_OF_DAY_ASKED = /\b(?:what|which)\s+time\b(?!\s*(?:frame|period|limit|zone|span|line)s?\b)/i;
/** A clock time ("3:30", "5 p.m.", "9am") or a named one ("noon", "end of the business day"). */
const TIME_OF_DAY_STATED =
  /\b\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m\b|\b\d{1,2}:\d{2}\b|\b(?:noon|midday|midnight|o'clock|close of business|end of (?:the )?(?:business |work(?:ing)? )?day|eod|cob)\b/i;
/** "When did…", "when was…": a point in the past is asked for, a date ("condition before travel" says no when it happened). */
const PAST_DATE_ASKED = /\bwhen\s+(?:exactly\s+|precisely\s+)?(?:did|was|were)\b/i;
/** A date: a month, a year, a written date ("3/14"), or how long ago. */
const DATE_STATED =
  /\b(?:january|february|march|april|june|july|august|september|october|november|december|(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?\s+\d{1,2}|(?:19|20)\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?|ago)\b|\bMay\b/u;
/** "How many <what is counted>", "the number of <what is counted>". */
const COUNT_ASKED = /\b(?:how\s+many|number\s+of)\s+(.*)$/isu;
/** Counts said without a noun after them. */
const COUNT_WITHOUT_UNIT = /\b(?:unlimited|no limit|any number of)\b/i;

/** The stems of the words naming what is counted, or undefined when the part asks for no count. */
function countedWords(part: string): Set<string> | undefined {
  const m = COUNT_ASKED.exec(part);
  if (!m) return undefined;
  const stems = countedTerms(m[1]).map((t) => t.stem);
  return stems.length ? new Set(stems) : undefined;
}

/** Number words a count may be written in, beyond the verifier's values ("only one admin"). */
const COUNT_NUMBER =
  /^(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|hundred|dozen)$/;

/** A number in the text counts one of the counted words: it is followed, within two words, by one of them ("12 unpaid weeks", "thirty (30) days"). */
function counts(text: string, counted: ReadonlySet<string>): boolean {
  if (COUNT_WITHOUT_UNIT.test(text)) return true;
  const tokens = [...text.matchAll(WORDS)].map((m) => tokenWord(m[0].toLowerCase()));
  return tokens.some(
    (t, i) =>
      COUNT_NUMBER.test(t) &&
      tokens
        .slice(i + 1)
        .filter((w) => !/^\d/.test(w))
        .slice(0, 2)
        .some((w) => counted.has(analyse(w, { stemming: true }).terms[0]?.stem ?? '')),
  );
}

/** "What's the phone number…", "a number I can call": a phone number is asked for. */
const PHONE_ASKED =
  /\b(?:phone|telephone|fax)\s+(?:number|line)s?\b|\bnumbers?\s+(?:to|i|we|you|they)\s+(?:can\s+)?(?:call|ring|dial)\b/i;
/**
 * A sentence that gives one ("1-800-222-0364"), or says there is none, the negation beside the
 * phone ("We do not provide phone support", "Telephone: none available"); one that only names a
 * phone ("an official email address and contact phone number", "if you do not hear back, phone the
 * team via the numbers listed in Section 3") gives none.
 */
const PHONE_STATED =
  /\+?\(?\d{1,4}\)?(?:[\s.-]?\d){6,}|\b(?:no|not|none|never)\b(?:\W+[\p{L}'’]+){0,3}?\W+(?:phone|telephone|fax)\b|\b(?:phone|telephone|fax)\b(?:\W+[\p{L}'’]+){0,3}?\W+(?:none|not|unavailable|n\/a)\b/iu;
/** "What email address…", "which email should I use", "who do I email": an email address is asked for. */
const EMAIL_ASKED =
  /\be-?mail\s+(?:address|account)(?:es|s)?\b|\b(?:what|which)\s+e-?mail\b|\bwho\s+(?:do|should|can|could)\s+(?:i|we)\s+e-?mail\b/i;
const EMAIL_STATED = /@|[([]at[)\]]|\be-?mail\b/i;
/** "What's the email address…", "who do I email": the address itself is asked for, not a kind of account ("which email should I use"). */
const EMAIL_ADDRESS_ASKED =
  /\b(?:what|which)(?:'s|’s|s|\s+is|\s+are)?\s+(?:the\s+)?e-?mail\s+address|\be-?mail\s+address(?:es)?\s+(?:do|should|can|could|to|for)\b|\bwho\s+(?:do|should|can|could)\s+(?:i|we)\s+e-?mail\b/i;
/** An address ("privacy@example.org", "security(at)github(dot)com"), or a statement that there is none. */
const EMAIL_ADDRESS_STATED = /@|[([]at[)\]]|\b(?:no|not|none)\b.*\be-?mail\b|\be-?mail\b.*\b(?:no|not|none)\b/i;

/** "What is the name of…", "who is the chief information security officer?": a person's name is asked for. */
const NAME_ASKED =
  /\bwhat(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+(?:the\s+)?(?:actual\s+|full\s+|real\s+)?names?\s+of\b|^\s*who\s+(?:is|are|was|were)\s+(?:the\s+)?(?:[\p{L}'’-]+\s+){0,4}(?:officer|director|ceo|cto|ciso|president|founder|chair|head)s?\b/iu;
const NAME_QUESTION_WORDS = new Set(['name', 'names', 'person', 'people', 'actual', 'full', 'real']);
/** Two capitalised words in a row ("Maria Lopez"), checked against the question's own words below. */
const NAME_RUN = /\b(\p{Lu}\p{Ll}+)\s+(?:\p{Lu}\.\s+)?(\p{Lu}\p{Ll}+)\b/gu;

/**
 * Contact details and names asked for, beyond the verifier's kinds of value: a sentence about
 * something else that holds a number ("Prins Bernhardplein 200") gives no phone number, and one
 * that repeats the title asked about ("contact our Data Protection Officer") gives no name.
 */
function askedContacts(question: string): ((text: string) => boolean)[] {
  const out: ((text: string) => boolean)[] = [];
  if (PHONE_ASKED.test(question)) out.push((text) => PHONE_STATED.test(text));
  if (EMAIL_ADDRESS_ASKED.test(question)) out.push((text) => EMAIL_ADDRESS_STATED.test(text));
  else if (EMAIL_ASKED.test(question)) out.push((text) => EMAIL_STATED.test(text));
  if (NAME_ASKED.test(question)) {
    const asked = new Set(analyse(question, { stemming: true }).terms.map((t) => t.stem));
    const isNew = (word: string) => !asked.has(analyse(word, { stemming: true }).terms[0]?.stem ?? '');
    out.push((text) => [...text.matchAll(NAME_RUN)].some((m) => isNew(m[1]) && isNew(m[2])));
  }
  return out;
}

/** Every sentence of the passages that could answer, with its lexical score; worked examples and repeats left out. */
export function candidateSentences(reading: QuestionReading, passages: readonly ReturnedPassage[]): Candidate[] {
  const asked = reading.askedValues();
  const keyTerms = reading.keyTerms;
  const pickTotal = keyTerms.reduce((sum, t) => sum + reading.share(t) * reading.weight(t), 0);
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  let order = 0;
  for (const p of passages) {
    const headingTerms = new Set(analyse(p.heading, { stemming: true }).terms.map((t) => t.stem));
    for (const line of p.text.split('\n')) {
      // A line that opens a worked example ("For example: … Therefore, 104 hours") is the example throughout.
      if (WORKED_EXAMPLE.test(stripListMarker(line).trim())) continue;
      for (const s of splitSentences(stripListMarker(line))) {
        const text = s.text.trim();
        if (!text || text.endsWith(':') || text.split(/\s+/).length < 3 || isFragment(text)) continue;
        // The same sentence in two passages is said once; a worked example's conclusion
        // ("Therefore, you can request up to 104 hours") is not the rule.
        const key = text
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim();
        if (seen.has(key) || WORKED_EXAMPLE.test(text) || CALCULATION.test(text)) continue;
        seen.add(key);
        const stems = new Set(analyse(text, { stemming: true }).terms.map((t) => t.stem));
        const topical = pickTotal
          ? keyTerms.reduce(
              (sum, t) =>
                sum +
                reading.share(t) *
                  (stems.has(t) ? reading.weight(t) : headingTerms.has(t) ? reading.weight(t) * 0.5 : 0),
              0,
            ) / pickTotal
          : 0;
        // A sentence that states the kind of value asked for ("how long" → a duration) ranks higher.
        const statesValue = asked.some((states) => states(text));
        const lexical = topical > 0 && statesValue ? topical + VALUE_BONUS : topical;
        candidates.push({
          text,
          id: p.id,
          heading: p.heading,
          lexical,
          topical,
          statesValue,
          order: order++,
          stems,
        });
      }
    }
  }
  return candidates;
}

/** The stems of every passage's heading and text. */
export function coveredStems(passages: readonly ReturnedPassage[]): Set<string> {
  const covered = new Set<string>();
  for (const p of passages) {
    for (const t of analyse(`${p.heading}\n${p.text}`, { stemming: true }).terms) covered.add(t.stem);
  }
  return covered;
}

/** Words a lead-in ends with ("To count as complete, a request must"): the rest is in a list after it. */
const DANGLING_END =
  /\b(?:a|an|the|to|of|for|and|or|must|should|will|can|may|is|are|be|by|with|following|include|includes|including|as|that|if|when)\s*$/i;
/** A short line with no sentence end: a title, a link or a table cell ("Daily Check-in Tool FAQ"), not a statement. */
const FRAGMENT_WORDS = 5;

/** A heading-like line or a lead-in cut from its list: never an answer on its own. */
function isFragment(text: string): boolean {
  if (DANGLING_END.test(text)) return true;
  return !/[.!?)"'”’]$/u.test(text) && text.split(/\s+/).length <= FRAGMENT_WORDS && !/\d/.test(text);
}

function stripListMarker(line: string): string {
  return line.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ x]\]\s+)?/, '');
}

/**
 * Names and numbers the answer must be about: the question's; for a follow-up, its own when it
 * names any (they replace the earlier question's: "and in Japan?"), else the carried question's.
 */
function questionAnchors(question: string, followUp: FollowUpParts | undefined): string[] {
  if (!followUp) return askedAnchors(question);
  const own = askedAnchors(followUp.asked);
  return own.length ? own : askedAnchors(followUp.carried);
}

/** The anchors of the sentences that ask: a name in a sentence telling the asker's situation ("I'm going to Berlin.") is context. */
function askedAnchors(text: string): string[] {
  return askingSentences(text).flatMap(anchorWords);
}

/** Words capitalised by grammar or habit, not names ("OK", "I'm"). */
const NOT_ANCHORS = /^(?:I|I'm|I’m|I've|I’ve|I’ll|I'll|I'd|I’d|OK|Ok|Okay)$/u;

/**
 * Words of letters and digits ("401(k)"), and capitalised words that do not open a sentence
 * ("…for a documentary. Anything we should add?"): what the question names.
 */
function anchorWords(question: string): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(/[\p{L}\p{N}][\p{L}\p{N}()'’-]*/gu)) {
    const w = m[0];
    // The character before it, spaces aside (a look back, not a copy: a pasted text has thousands of words).
    let before = m.index - 1;
    while (before >= 0 && /\s/u.test(question[before])) before--;
    const opensSentence = before < 0 || /[.!?;:—–]/u.test(question[before]);
    // A bare number ("I'm 15", "a $3,000 trip", "50%") tells the asker's situation; "401(k)" and "GS-13" name something.
    const named = /\d/.test(w) ? /\p{L}/u.test(w) : !opensSentence && /^\p{Lu}/u.test(w) && !NOT_ANCHORS.test(w);
    if (named) out.push(w);
  }
  return out;
}

export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/**
 * The question read once: its content terms, and for each stem the word as the user wrote it
 * (for messages: stems read badly). Looking a stem up costs nothing, so naming thousands of
 * missing words stays linear in the question's length.
 */
class QuestionWords {
  readonly terms: Term[];
  private readonly byStem = new Map<string, string>();

  constructor(question: string) {
    this.terms = analyse(question, { stemming: true }).terms;
    const asWritten = new Map<string, string>();
    for (const m of question.matchAll(WORDS)) {
      const word = tokenWord(m[0].toLowerCase());
      if (!asWritten.has(word)) asWritten.set(word, m[0].replace(/['’]s$/u, ''));
    }
    for (const t of this.terms) if (!this.byStem.has(t.stem)) this.byStem.set(t.stem, asWritten.get(t.word) ?? t.word);
  }

  surface(stemmed: string): string {
    return this.byStem.get(stemmed) ?? stemmed;
  }
}
