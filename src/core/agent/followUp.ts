// Follow-up questions: a question that leans on the turn before it ("and for part-time staff?",
// "what about contractors?", "how long?", "is it a real person who looks at it?") is rewritten
// into a standalone question that carries the previous turn's question (its subject, never its
// answer or its evidence); that question is retrieved and answered, and shown as "Answered as".
// A question that says what it is about is answered alone, as asked: nothing of an earlier turn
// reaches its retrieval. Deterministic and lexical, so it works offline and without a model.

import { analyse } from '../text/terms';
import type { TermStats } from '../text/termStats';

/** The turn a question follows: what was asked, and what was answered (its own rewrite, if any). */
export interface PreviousTurn {
  question: string;
  answeredAs?: string;
}

export interface StandaloneQuestion {
  /** What is retrieved and answered. */
  text: string;
  /** The question as asked. */
  asked: string;
  /** The earlier question carried into `text` (its subject); absent when the question stands alone. */
  carried?: string;
  /**
   * The follow-up names a new subject for the earlier question ("and for part-time staff?"):
   * an answer must be about these words, not only about the earlier question's.
   */
  newSubject?: string;
}

/** How `text` joins the carried question and the follow-up (one rule: read back by nobody, shown to users). */
export const FOLLOW_UP_JOIN = ' — ';

/** The carried question is cut to this many words (a long chain keeps its first turn's subject and the latest turns). */
const MAX_CARRIED_WORDS = 60;

/** Opening words of a question that continues the one before ("and …", "what about …", "same for …"). */
const CONTINUATION_OPENING =
  /^\s*(?:and|or|but|also|plus|so|then|what about|how about|what if|even if|same for|same with|same goes for|is that|does that|is this|does this|was that|as for|in that case|if so)\b/i;

/** A follow-up that only swaps the subject: "and for X?", "what about X?", "same for X?", "X?" — the earlier question with X instead. */
const SUBJECT_SWAP =
  /^\s*(?:(?:and|or|but|also|plus)\s+)?(what about|how about|same for|same with|same goes for|as for|for|with)?\s*(.+?)\s*[?.!]*\s*$/i;
/** A new subject is a name or a noun phrase: no question word, pronoun or clause in it. */
const NOT_A_SUBJECT =
  /\b(?:how|what|when|who|whom|which|where|why|if|i|i'm|me|my|you|we|us|it|its|that|there|they|them|this|these|those|then|do|does|did|is|are|was|were|can|could|will|would|should)\b/i;
const MAX_SUBJECT_WORDS = 4;

/** Pronouns and adverbs that point back at the earlier turn. */
const POINTING_BACK =
  /\b(?:it|itself|they|them|theirs|those|these|this|then|anyway|else|instead|either|at least|as well|the same)\b/i;
/** Possessives, which in a longer question usually point inside it ("employees … in their first year"). */
const POSSESSIVE = /\b(?:its|their)\b/i;
/**
 * A pointing word leans on the turn before only in a question with few words of its own: "how do I
 * reset my password if it expired?" finds its "it" inside.
 */
const POINTING_NEEDS_FEWER_THAN = 4;
const POSSESSIVE_NEEDS_FEWER_THAN = 3;

/** "Is it OK to…", "it's possible to…": a dummy "it" that points at nothing. */
const DUMMY_IT =
  /\b(?:is|was|would|will|isn't|it's|it is)\s+(?:it\s+)?(?:ok|okay|possible|allowed|fine|true|legal|required|necessary|mandatory|permitted|enough|worth|safe|normal|common|better|wise|appropriate|acceptable|against)\b/gi;

/** "that" as a pronoun ("does that count?", "what if I'm over that?"), not as a conjunction ("…says that I…"). */
const POINTING_THAT =
  /(?:^|\b(?:is|was|does|did|do|about|for|with|of|over|than|like|past|after|before|under|beyond|on|to|from|without)\s+)that\b(?!\s+(?:i|you|we|they|he|she|it|the|a|an|my|your|our|their|his|her|its|this|there|someone|somebody|people|github|gsa|tts|18f)\b)/i;

/** "there" that points back (not "is there…?"). */
const POINTING_THERE = /\b(?<!is |are |was |were |be )there\b(?!\s+(?:is|are|was|were|be|any|a)\b)/i;

/** "one" standing for something named before ("filing one", "the one that…"). */
const POINTING_ONE =
  /\b(?:\p{L}+ing|the|that|this|another|which|each)\s+ones?\b(?!\s+(?:of|more|less|free|person|account|day|week|month|year|hour|time)\b)|\bones?(?=\s*(?:[?.!,]|$))/iu;

/**
 * Words a question uses to ask rather than to say what it is about: question words, verbs of
 * asking and doing, and the kinds of value asked for ("how many days"). A follow-up with no
 * distinctive word beyond these (or one, in a very short question) does not say what it is about.
 */
const ASKING_WORDS = new Set(
  (
    'policy policies rule rules allowed allow allowing happen happens happened need needs needed know tell told explain question please ' +
    'get gets getting got give given go goes going take takes taken put use used using make makes made want wants find found hear back ' +
    'say says said mean means end ended stop start work done come comes keep see look looks let lets try ask asked ' +
    'much many long often soon fast quickly far big biggest old time times day days week weeks month months year years hour hours minute minutes ' +
    'business number amount cost costs price prices total limit max maximum min minimum first last next each every per percent ' +
    'thing things stuff way ways case cases part kind someone somebody anyone anybody person people user users request requests ' +
    'ok okay fine sure right wrong good still already actually really exactly usually'
  ).split(/\s+/),
);

/** A term is distinctive when at most 1 passage in 20 holds it (or 1 passage, in a small index); a corpus's own subject ("GitHub") is not. */
const DISTINCTIVE_SHARE = 1 / 20;

/** The IDF a distinctive term reaches (termStats.ts: ln((N + 1) / (df + 1)) + 1; N read back from the weight of an unseen term). */
function distinctiveIdf(termStats: TermStats): number {
  const passages = Math.exp(termStats.idf('\u0000never-seen') - 1) - 1;
  return Math.log((passages + 1) / (Math.max(1, passages * DISTINCTIVE_SHARE) + 1)) + 1 - 1e-9;
}

/**
 * The question to retrieve and answer. Without a previous turn, or when the question says what it
 * is about, it is the question itself; a follow-up gets the previous turn's question (as it was
 * answered) carried in front of it.
 */
export function standaloneQuestion(
  question: string,
  previous: PreviousTurn | undefined,
  termStats?: TermStats,
): StandaloneQuestion {
  const asked = question.trim();
  if (!previous || !leansOnPrevious(asked, termStats)) return { text: asked, asked };
  const newSubject = swappedSubject(asked);
  // A new subject with names of its own ("and GitHub Sponsors?") replaces the names the earlier question was about.
  const earlier = previous.answeredAs ?? previous.question;
  const carried = carriedQuestion(
    newSubject && subjectNames(newSubject).length ? withoutNames(earlier, subjectNames(newSubject)) : earlier,
  );
  if (!carried) return { text: asked, asked };
  return {
    text: `${carried.replace(/[\s?.!]+$/u, '')}${FOLLOW_UP_JOIN}${asked}`,
    asked,
    carried,
    ...(newSubject ? { newSubject } : {}),
  };
}

/** True when the question cannot be answered without the turn before it. */
export function leansOnPrevious(question: string, termStats?: TermStats): boolean {
  if (CONTINUATION_OPENING.test(question)) return true;
  const own = distinctiveWords(question, termStats).length;
  if (pointsBack(question) && own < POINTING_NEEDS_FEWER_THAN) return true;
  if (POSSESSIVE.test(question) && own < POSSESSIVE_NEEDS_FEWER_THAN) return true;
  // No word of its own that says what it is about, or one in a question of a few words ("how much are tickets?").
  return own === 0 || (own === 1 && (question.match(/[\p{L}\p{N}]+/gu) ?? []).length <= SHORT_QUESTION_WORDS);
}

/** "How much are tickets?": a question this short with one distinctive word leans on the one before. */
const SHORT_QUESTION_WORDS = 4;

/** "and for part-time staff?" → "part-time staff"; "blood?" → "blood"; undefined for a follow-up that asks something new about the same subject. */
export function swappedSubject(question: string): string | undefined {
  const swap = SUBJECT_SWAP.exec(question);
  if (!swap) return undefined;
  const subject = swap[2];
  const words = subject.split(/\s+/).filter(Boolean);
  if (!subject || NOT_A_SUBJECT.test(subject) || words.length > (swap[1] ? MAX_SUBJECT_WORDS + 2 : MAX_SUBJECT_WORDS)) {
    return undefined;
  }
  return subject;
}

function pointsBack(question: string): boolean {
  const withoutDummy = question.replace(DUMMY_IT, ' ');
  return (
    POINTING_BACK.test(withoutDummy) ||
    POINTING_THAT.test(question) ||
    POINTING_THERE.test(question) ||
    POINTING_ONE.test(question)
  );
}

/** The words that say what a question is about: content words beyond asking words, rare in the documents. */
export function distinctiveWords(question: string, termStats?: TermStats): string[] {
  const words = analyse(question, { stemming: true }).terms.filter(
    (t) => !ASKING_WORDS.has(t.word) && !/^\d/.test(t.word),
  );
  const least = termStats ? distinctiveIdf(termStats) : 0;
  const distinctive = termStats ? words.filter((t) => termStats.idf(t.stem) >= least) : words;
  return [...new Set(distinctive.map((t) => t.stem))];
}

/** Capitalised words after a question's first word, and words with digits: what a question names. */
export function names(text: string): string[] {
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}()'’-]*/gu) ?? [];
  return words.filter((w, i) => /\d/.test(w) || (i > 0 && /^\p{Lu}/u.test(w) && !/^(?:I|I'm|I’m|I've|I’ll)$/u.test(w)));
}

/** The names in a subject (its first word too: "GitHub Sponsors"). */
function subjectNames(subject: string): string[] {
  return (subject.match(/[\p{L}\p{N}][\p{L}\p{N}()'’-]*/gu) ?? []).filter((w) => /\d/.test(w) || /^\p{Lu}/u.test(w));
}

/** The text without the names it shares with none of `keep` (the follow-up's own names). */
function withoutNames(text: string, keep: string[]): string {
  const kept = new Set(keep.map((w) => w.toLowerCase()));
  const drop = new Set(names(text).filter((w) => !kept.has(w.toLowerCase())));
  const out = (text.match(/[\p{L}\p{N}][\p{L}\p{N}()'’-]*|[^\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => !drop.has(w))
    .join('');
  return out.replace(/\s{2,}/g, ' ').trim();
}

function carriedQuestion(text: string): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length <= MAX_CARRIED_WORDS) return words.join(' ');
  // Keep the first turn's subject (the start) and the latest follow-up (the end).
  const half = MAX_CARRIED_WORDS / 2;
  return [...words.slice(0, half), '…', ...words.slice(-half)].join(' ');
}
