// The offline backend: deterministic, no network, no key. It searches once with the question,
// then answers with the 1–3 passage sentences that best cover the question's key terms, each
// cited; when the passages do not cover the question's key terms it abstains with NOT_FOUND
// naming what is missing. Its answer goes through the same verifier as any model's.

import { notFound } from '../../domain/abstention';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, FollowUpParts } from '../types';
import { analyse, TOKEN, tokenWord, type Term } from '../verifier/terms';
import { termStatsFromTexts, type TermStats } from '../verifier/termStats';
import { splitSentences } from '../verifier';
import { askedValues, questionParts } from '../verifier/relevance';
import { SEARCH_TOOL_NAME } from '../agent/instruction';

export const EXTRACTIVE_MODEL_NAME = 'extractive';

// Our own copy of the token pattern: matchAll starts from a regex's lastIndex, which the shared one keeps between scans.
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

/** Words that say what kind of question it is, not what it is about. */
const QUESTION_FILLER = new Set(
  'policy policies rule rules allowed allow happen happens need needs know tell explain question please get gets much many long often document documents say says said mean means'
    .split(' '),
);

/** Share of the question's (IDF-weighted) key terms the passages must contain to answer. */
const COVERAGE_NEEDED = 0.6;
/** A sentence must cover this share of the key terms to be picked. */
const SENTENCE_MIN = 0.3;
const MAX_SENTENCES = 3;
/** Added to the score of a sentence that states the kind of value the question asks for (chosen on the dev set). */
const VALUE_BONUS = 0.2;
/** A worked example's steps and conclusion, not the rule itself. */
const CALCULATION = /\d\s*(?:[a-z ]{0,24})?\s(?:x|×|\*|=)\s*\d/i;
const WORKED_EXAMPLE = /^(?:for (?:example|instance)|e\.g\.|example\b|in (?:this|that|the above) (?:example|case)|therefore|thus|hence|so,|this means)/i;

interface ReturnedPassage {
  id: string;
  heading: string;
  text: string;
}

export interface ExtractiveOptions {
  /** Term weights over the whole index; without it, weights come from the returned passages. */
  termStats?: () => TermStats | undefined;
}

export function createExtractiveModel(options: ExtractiveOptions = {}): ChatModel {
  return {
    name: EXTRACTIVE_MODEL_NAME,
    async generate(request: ChatRequest): Promise<ChatResponse> {
      request.signal.throwIfAborted();
      // A follow-up comes rewritten as a standalone question (agent/followUp.ts): it is searched
      // as such, and its own words decide which sentences answer.
      const { text: question, followUp } = lastUserMessage(request.messages);
      const passages = returnedPassages(request.messages);
      if (passages === undefined) {
        if (request.tools.some((t) => t.name === SEARCH_TOOL_NAME)) {
          return { text: '', toolCalls: [{ id: 'extractive-1', name: SEARCH_TOOL_NAME, args: { query: question } }] };
        }
        return say(request, notFound('no passages were searched for this question.'));
      }
      return say(request, answer(question, passages, options.termStats?.(), followUp));
    },
  };
}

function say(request: ChatRequest, text: string): ChatResponse {
  request.onText?.(text);
  return { text, toolCalls: [] };
}

/** Weight of a word carried from the earlier question when picking sentences (the follow-up's own words weigh 1). */
const CONTEXT_SHARE = 0.25;

export function answer(question: string, passages: ReturnedPassage[], corpusStats?: TermStats, followUp?: FollowUpParts): string {
  // A follow-up's standalone question holds the earlier question it carries and the follow-up.
  const read = question;
  const howWords = new Set([...read.toLowerCase().matchAll(/\bhow\s+(\p{L}+)/gu)].map((m) => m[1]));
  // The question is read once: every later step looks words up here (linear in its length).
  const words = new QuestionWords(read);
  const surface = (stemmed: string): string => words.surface(stemmed);
  // "How old / long / much / soon…" asks for a value: the word after "how" is not a topic.
  const questionTerms = words.terms.filter((t) => !QUESTION_FILLER.has(t.word) && !howWords.has(t.word));
  const keyTerms = unique(questionTerms.map((t) => t.stem));
  // The follow-up's own words decide which sentences are picked; carried words weigh less.
  const own = new Set(followUp ? new QuestionWords(followUp.asked).terms.map((t) => t.stem) : keyTerms);
  const share = (stem: string) => (own.size === 0 || own.has(stem) ? 1 : CONTEXT_SHARE);
  if (keyTerms.length === 0) return notFound('the question has no terms to look for in the documents.');
  if (passages.length === 0) return notFound(`no passage in the documents matches ${quoteList(keyTerms)}.`);

  const covered = new Set<string>();
  for (const p of passages) for (const t of analyse(`${p.heading}\n${p.text}`, { stemming: true }).terms) covered.add(t.stem);

  // Names and numbers the question is specifically about ("Japan", "401(k)") must be there.
  const anchors = unique(questionAnchors(question, followUp).map((w) => analyse(w, { stemming: true }).terms[0]?.stem).filter((s): s is string => !!s));
  const missingAnchors = anchors.filter((a) => !covered.has(a));
  if (missingAnchors.length) {
    return notFound(`the documents found do not mention ${quoteList(missingAnchors.map((m) => surface(m)))}.`);
  }

  // A word the whole corpus never uses is as likely a paraphrase ("yearly" for "annual") as a
  // missing topic: it weighs like an average word rather than like the rarest one.
  const stats = corpusStats ?? termStatsFromTexts(passages.map((p) => `${p.heading}\n${p.text}`));
  const unseenWeight = stats.idf('\u0000never-seen');
  const seenWeights = keyTerms.map((t) => stats.idf(t)).filter((w) => w < unseenWeight);
  const averageSeen = seenWeights.length ? seenWeights.reduce((a, b) => a + b, 0) / seenWeights.length : 1;
  const weight = (stem: string) => {
    const w = stats.idf(stem);
    return w >= unseenWeight ? averageSeen : w;
  };
  const total = keyTerms.reduce((sum, t) => sum + weight(t), 0);
  const missing = keyTerms.filter((t) => !covered.has(t));
  const coverage = keyTerms.filter((t) => covered.has(t)).reduce((sum, t) => sum + weight(t), 0) / total;
  if (coverage < COVERAGE_NEEDED) {
    return notFound(`the documents found do not mention ${quoteList(missing.map((m) => surface(m)))}.`);
  }

  // What kind of value is asked: the follow-up's own ("over how long?"), else the carried question's ("and for part-time staff?").
  const asked = askedValues(followUp && QUESTION_WORD.test(followUp.asked) ? followUp.asked : question);
  const pickTotal = keyTerms.reduce((sum, t) => sum + share(t) * weight(t), 0);
  const candidates: { text: string; id: string; score: number; order: number; stems: Set<string> }[] = [];
  const seen = new Set<string>();
  let order = 0;
  for (const p of passages) {
    const headingTerms = new Set(analyse(p.heading, { stemming: true }).terms.map((t) => t.stem));
    for (const line of p.text.split('\n')) {
      // A line that opens a worked example ("For example: … Therefore, 104 hours") is the example throughout.
      if (WORKED_EXAMPLE.test(stripListMarker(line).trim())) continue;
      for (const s of splitSentences(stripListMarker(line))) {
        const text = s.text.trim();
        if (!text || text.endsWith(':') || text.split(/\s+/).length < 3) continue;
        // The same sentence in two passages is said once; a worked example's conclusion
        // ("Therefore, you can request up to 104 hours") is not the rule.
        const key = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
        if (seen.has(key) || WORKED_EXAMPLE.test(text) || CALCULATION.test(text)) continue;
        seen.add(key);
        const stems = new Set(analyse(text, { stemming: true }).terms.map((t) => t.stem));
        const topical = keyTerms.reduce((sum, t) => sum + share(t) * (stems.has(t) ? weight(t) : headingTerms.has(t) ? weight(t) * 0.5 : 0), 0) / pickTotal;
        // A sentence that states the kind of value asked for ("how long" → a duration) ranks higher.
        const score = topical > 0 && asked.some((states) => states(text)) ? topical + VALUE_BONUS : topical;
        candidates.push({ text, id: p.id, score, order: order++, stems });
      }
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  const best = candidates[0];
  if (!best || best.score < SENTENCE_MIN) {
    return notFound(`no sentence in the documents found answers this; closest terms: ${quoteList(keyTerms.map((k) => surface(k)))}.`);
  }
  const picked = candidates.filter((c) => c.score >= Math.max(SENTENCE_MIN, best.score * 0.75)).slice(0, MAX_SENTENCES);
  // Each part of a multi-part question gets its best sentence, when one meets it; a part none
  // meets is named by the turn's relevance check as not found.
  const parts = questionParts(followUp ? followUp.asked : question);
  if (parts.length > 1) {
    for (const part of parts) {
      const partTerms = unique(analyse(part, { stemming: true }).terms.map((t) => t.stem).filter((t) => keyTerms.includes(t)));
      if (partTerms.length === 0) continue;
      const partTotal = partTerms.reduce((sum, t) => sum + weight(t), 0);
      const partScore = (c: { stems: Set<string> }) => partTerms.reduce((sum, t) => sum + (c.stems.has(t) ? weight(t) : 0), 0) / partTotal;
      if (picked.some((c) => partScore(c) >= 0.5)) continue;
      const forPart = candidates.filter((c) => !picked.includes(c)).sort((a, b) => partScore(b) - partScore(a) || a.order - b.order)[0];
      if (forPart && partScore(forPart) >= 0.5) picked.push(forPart);
    }
  }
  picked.sort((a, b) => a.order - b.order);
  return picked.map((c) => cite(c.text, c.id)).join(' ');
}

/** "Refunds take 5 days." + E2 → "Refunds take 5 days [E2]." */
function cite(sentence: string, id: string): string {
  const m = /^(.*?)([.!?]*)$/s.exec(sentence.trim());
  const body = m ? m[1] : sentence;
  const end = m && m[2] ? m[2][0] : '.';
  return `${body} [${id}]${end}`;
}

function stripListMarker(line: string): string {
  return line.replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ x]\]\s+)?/, '');
}

function lastUserMessage(messages: ChatMessage[]): { text: string; followUp?: FollowUpParts } {
  const last = messages.filter((m): m is Extract<ChatMessage, { role: 'user' }> => m.role === 'user').at(-1);
  return { text: last?.text ?? '', ...(last?.followUp ? { followUp: last.followUp } : {}) };
}

const QUESTION_WORD = /\b(?:how|what|when|who|whom|which|where|why)\b/i;

/**
 * Names and numbers the answer must be about: the question's; for a follow-up, its own when it
 * names any (they replace the earlier question's: "and in Japan?"), else the carried question's.
 */
function questionAnchors(question: string, followUp: FollowUpParts | undefined): string[] {
  if (!followUp) return anchorWords(question);
  const own = anchorWords(followUp.asked);
  return own.length ? own : anchorWords(followUp.carried);
}

/** Passages from the tool results of this turn, or undefined when no search has run yet. */
function returnedPassages(messages: ChatMessage[]): ReturnedPassage[] | undefined {
  const toolMessages = messages.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');
  if (toolMessages.length === 0) return undefined;
  const out: ReturnedPassage[] = [];
  for (const m of toolMessages) {
    for (const r of m.results) {
      const list = r.response.passages;
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (item && typeof item === 'object' && typeof item.id === 'string' && typeof item.text === 'string') {
          out.push({ id: item.id, text: item.text, heading: typeof item.heading === 'string' ? item.heading : '' });
        }
      }
    }
  }
  return out;
}

/** Capitalised words after the first word, and words with digits: what the question names. */
function anchorWords(question: string): string[] {
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}()'’-]*/gu) ?? [];
  return words.filter((w, i) => /\d/.test(w) || (i > 0 && /^\p{Lu}/u.test(w) && !/^(I|I'm|I’m|I've|I’ll)$/.test(w)));
}

function unique<T>(items: T[]): T[] {
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

/** Words named in a message: a few, then how many more (a pasted text may miss thousands). */
const MAX_NAMED = 6;

function quoteList(words: string[]): string {
  const q = words.slice(0, MAX_NAMED).map((w) => `"${w}"`);
  if (words.length > MAX_NAMED) return `${q.join(', ')} and ${words.length - MAX_NAMED} more`;
  return q.length <= 1 ? (q[0] ?? 'the question') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}
