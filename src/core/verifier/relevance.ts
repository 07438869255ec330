// "Does this answer the question?": the turn-level check after the support check. The verifier
// keeps sentences that their passages back; this check asks whether what is kept addresses what
// was asked: its focus words, the names it mentions, and the kind of value it asks for ("how
// many hours" wants a number of hours, "how long" a duration, "when" a date or a time). A
// question of several parts ("How many days do I get, and who approves them?") is checked part
// by part. Conservative by design: a part counts as answered unless the kept text clearly misses
// it, because turning a right answer into an abstention is a failure too.

import { analyse, type Term } from './terms';
import { extractNames } from './names';
import { uniformTermStats, type TermStats } from './termStats';

import type { TurnRelevance } from '../types';

/** The verdict and what the documents do and do not say, in words a reader can act on. */
export type Relevance = TurnRelevance;

/** What the check reads: the question, and the kept sentences with the headings of the passages they cite. */
export interface RelevanceInput {
  question: string;
  /** Kept sentences (citations may stay in; they are not words). */
  kept: string[];
  /** Heading paths of the passages the kept sentences cite (they name the topic a sentence is about). */
  headings: string[];
  /** Term weights of the index (informative words weigh more); uniform without. */
  termStats?: TermStats;
}

/**
 * Share of a part's (weighted) focus words the kept text must contain for the part to count as
 * answered. Chosen on the dev set (docs/measurements.md); low on purpose (conservative).
 */
export const FOCUS_NEEDED = 0.25;

// Words that say what kind of question it is, not what it is about.
const QUESTION_WORDS = new Set(
  ('policy policies rule rules allowed allow happen happens need needs know tell explain question please get gets ' +
    'much many long often soon old document documents say says said mean means way ways kind type work works go ' +
    'happen required require requires make makes take takes let lets use used using want wants like').split(' '),
);

type ValueKind = 'number' | 'duration' | 'date';

interface QuestionPart {
  text: string;
  terms: Term[];
  names: { text: string; stem: string }[];
  kind?: ValueKind;
  /** "how many hours": the unit the number must come with ("hour"). */
  unit?: string;
}

const TIME_UNITS = /\b(?:second|minute|hour|day|week|fortnight|month|quarter|year|business day|working day)s?\b/i;
const NUMBER = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|thousand|half|once|twice|single|double)\b/i;
const DATE_WORDS = /\d|\b(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|before|after|within|until|by|prior|during|end|start|beginning|daily|weekly|monthly|annually|yearly|immediately|deadline|when)\b/i;

/** A question's parts: separate questions, or clauses joined by "and" before a question word. */
export function questionParts(question: string): string[] {
  const pieces = question
    .split(/\?+\s*|[;]\s+|,?\s+(?:and|or|also)\s+(?=(?:how|what|who|whom|whose|which|when|where|why|is|are|can|could|do|does|did|should|must|will|would|may)\b)/i)
    .map((p) => p.trim())
    .filter((p) => analyse(p, { stemming: true }).terms.length > 0);
  return pieces.length ? pieces : [question];
}

function readPart(text: string): QuestionPart {
  const lower = text.toLowerCase();
  const how = /\bhow\s+(many|much|long|soon|often|late|early|far)\b(?:\s+([\p{L}-]+))?/u.exec(lower);
  let kind: ValueKind | undefined;
  let unit: string | undefined;
  if (how) {
    if (how[1] === 'long' || how[1] === 'soon' || how[1] === 'late' || how[1] === 'early') kind = 'duration';
    else if (how[1] === 'often') kind = 'date';
    else if (how[1] === 'many' || how[1] === 'much') {
      kind = 'number';
      // "how many hours": a number of hours ("how much vacation time" names no unit).
      const next = how[1] === 'many' && how[2] ? analyse(how[2], { stemming: true }).terms[0] : undefined;
      if (next && !QUESTION_WORDS.has(next.word)) unit = next.stem;
    }
  } else if (/^\s*(?:(?:by\s+)?when\s+(?:do|does|did|is|are|was|were|will|would|can|could|should|must|may|has|have)|what date|what time|which date|which day)\b/.test(lower)) {
    kind = 'date';
  }
  const howWord = how?.[1];
  const terms = analyse(text, { stemming: true }).terms.filter((t) => !QUESTION_WORDS.has(t.word) && t.word !== howWord);
  // Names the question asks about ("18F", "GitHub", "Japan"); "I" and sentence starts are grammar.
  const names = extractNames(text);
  return { text, terms, names, kind, unit };
}

/** Whether the kept text states a value of the kind asked for. */
function hasValue(part: QuestionPart, text: string, stems: Set<string>): boolean {
  if (!part.kind) return true;
  if (part.kind === 'number') return NUMBER.test(text) && (!part.unit || stems.has(part.unit));
  if (part.kind === 'duration') return NUMBER.test(text) ? TIME_UNITS.test(text) || /\b(?:immediately|same day|overnight)\b/i.test(text) : /\b(?:immediately|same day|overnight|indefinitely)\b/i.test(text);
  return DATE_WORDS.test(text);
}

interface PartCheck {
  part: QuestionPart;
  answered: boolean;
  found: Term[];
  missing: Term[];
  missingNames: string[];
  valueMissing: boolean;
}

function checkPart(part: QuestionPart, text: string, stems: Set<string>, sentenceStems: Set<string>, stats: TermStats): PartCheck {
  const focus = uniqueByStem(part.terms);
  const found = focus.filter((t) => stems.has(t.stem));
  // The kept sentences themselves (not only the headings above them) must meet the question:
  // at least two of its focus words, or half of them when it has fewer than four.
  const inSentences = focus.filter((t) => sentenceStems.has(t.stem)).length;
  const sentencesMeet = inSentences >= Math.min(2, Math.ceil(focus.length / 2));
  const missing = focus.filter((t) => !stems.has(t.stem));
  const weight = (ts: Term[]) => ts.reduce((sum, t) => sum + stats.idf(t.stem), 0);
  const total = weight(focus);
  const coverage = total > 0 ? weight(found) / total : 1;
  const missingNames = part.names.filter((n) => !stems.has(n.stem)).map((n) => n.text);
  const valueMissing = !hasValue(part, text, stems);
  return { part, answered: coverage >= FOCUS_NEEDED && sentencesMeet && missingNames.length === 0 && !valueMissing, found, missing, missingNames, valueMissing };
}

function uniqueByStem(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((t) => !seen.has(t.stem) && seen.add(t.stem));
}

function quoted(words: string[], limit = 4): string {
  const unique = [...new Set(words)];
  const q = unique.slice(0, limit).map((w) => `"${w}"`);
  if (unique.length > limit) return `${q.join(', ')} and ${unique.length - limit} more`;
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

/** What a part misses, in words: its missing names, its missing focus words, or the value asked for. */
function whatIsMissing(c: PartCheck): string {
  if (c.missingNames.length) return quoted(c.missingNames);
  const kind = c.part.kind === 'number' ? `a number${c.part.unit ? ` of ${c.part.unit}s` : ''}` : c.part.kind === 'duration' ? 'a duration' : 'a date or time';
  if (c.valueMissing && c.missing.length === 0) return kind;
  const words = quoted(c.missing.map((t) => t.word));
  return c.valueMissing ? `${words} (nor ${kind})` : words;
}

/** The verdict for a turn whose kept sentences are `kept`. */
export function checkRelevance(input: RelevanceInput): Relevance {
  const keptText = input.kept.join(' ').replace(/\[E\d+(?:\s*,\s*E\d+)*\]/g, ' ');
  const text = `${input.headings.join('\n')}\n${keptText}`;
  const stems = new Set(analyse(text, { stemming: true }).terms.map((t) => t.stem));
  const sentenceStems = new Set(analyse(keptText, { stemming: true }).terms.map((t) => t.stem));
  const stats = input.termStats ?? uniformTermStats;
  const checks = questionParts(input.question).map((p) => checkPart(readPart(p), text, stems, sentenceStems, stats));
  const answered = checks.filter((c) => c.answered);
  if (answered.length === checks.length) return { verdict: 'answers', reason: 'the kept sentences address the question' };
  if (answered.length > 0) {
    const open = checks.filter((c) => !c.answered);
    return {
      verdict: 'partial',
      reason: `part of the question is not answered: ${open.map((c) => `"${c.part.text}" (the documents found do not mention ${whatIsMissing(c)})`).join('; ')}`,
    };
  }
  const mentioned = [...new Set(checks.flatMap((c) => c.found.map((t) => t.word)))];
  const missing = checks.map(whatIsMissing).filter(Boolean).join('; ');
  const reason = mentioned.length
    ? `the documents found mention ${quoted(mentioned)} but not ${missing}`
    : `the documents found do not mention ${missing}`;
  return { verdict: 'off-topic', reason };
}
