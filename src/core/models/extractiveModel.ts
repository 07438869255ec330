// The offline backend: deterministic, no network, no key. It searches once with the question,
// then answers with the 1–3 passage sentences that best answer it, each cited; when the passages
// do not answer it abstains with NOT_FOUND naming what is missing. A sentence's score is its
// lexical evidence (the weighted share of the question's key terms it holds, and whether it states
// the kind of value asked for) plus, when the embedding model is loaded, its similarity in meaning
// to the question (all-MiniLM-L6-v2 was trained on question–answer pairs): the similarity orders
// the sentences, lets a paraphrase answer, and makes the model abstain when no sentence is close
// to the question. Without the model the lexical evidence decides alone. Its answer goes through
// the same verifier as any model's.

import { notFound } from '../../domain/abstention';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, FollowUpParts, TextSimilarity } from '../types';
import { analyse } from '../text/terms';
import type { TermStats } from '../text/termStats';
import { questionParts } from '../verifier/relevance';
import { SEARCH_TOOL_NAME } from '../agent/instruction';
import {
  candidateSentences,
  coveredStems,
  QuestionReading,
  unique,
  type Candidate,
  type ReturnedPassage,
} from './extractiveReading';

export const EXTRACTIVE_MODEL_NAME = 'extractive';

/** Share of the question's (IDF-weighted) key terms the passages must contain to answer (lexical evidence alone). */
const COVERAGE_NEEDED = 0.6;
/** A sentence must cover this share of the key terms to be picked (lexical evidence alone). */
const SENTENCE_MIN = 0.3;
const MAX_SENTENCES = 3;
/** Sentences scored by similarity: the best this many by lexical score (embedding every sentence costs time). */
const SEMANTIC_CANDIDATES = 40;

/** How the similarity in meaning weighs with the lexical evidence (chosen on the dev sets and the first generalisation set: docs/measurements.md). */
export interface ExtractiveTuning {
  /** Weight of the sentence's similarity (cosine, the sentence read with its section's heading) in its score; the lexical score weighs 1. */
  semanticWeight: number;
  /** Weight of its passage's similarity to the question. */
  passageWeight: number;
  /** When the question asks for a kind of value (a number, an amount, a duration, a date), only a sentence stating one answers. */
  requireAskedValue: boolean;
  /** The best sentence must be at least this close to the question, or the model abstains. */
  minSimilarity: number;
  /**
   * …and this close when the question asks for a number, an amount, a duration or a date: sentences
   * stating one are everywhere, so the one giving the asked value must be close to the question in
   * meaning, not merely share its topic.
   */
  valueSimilarity: number;
  /**
   * A sentence this close answers even when the passages miss some of the question's words (a
   * paraphrase), whatever share of them it holds itself: the share falls as a question grows (a
   * question told with the asker's situation has many words, its answer few of them), while its
   * similarity does not. Requiring a lexical share of 0.15 as well was measured (session 8): it
   * dropped right answers on every set, most on questions someone else wrote (docs/measurements.md).
   */
  paraphraseSimilarity: number;
  /**
   * When a kind of value is asked, the sentence stating one must hold this share of the question's
   * key-term weight (its heading's at half weight), whatever its similarity: "answered within three
   * days" does not say how long a reconsideration takes.
   */
  valueSentenceShare: number;
  /**
   * The sentence that follows the best one in its passage is added when it answers too (with the
   * model only): the sentence closest to the question often names the topic and the next one says
   * what the question asks ("If you are moving to a new region, your pay may change. Check the
   * locality pay table…"). It comes beside the picked sentences, one more at most.
   */
  followingSentence: boolean;
}

export const DEFAULT_EXTRACTIVE_TUNING: ExtractiveTuning = {
  semanticWeight: 1.5,
  passageWeight: 1,
  requireAskedValue: true,
  minSimilarity: 0.4,
  valueSimilarity: 0.5,
  paraphraseSimilarity: 0.45,
  valueSentenceShare: 0.2,
  followingSentence: true,
};

export interface ExtractiveOptions {
  /** Term weights over the whole index; without it, weights come from the returned passages. */
  termStats?: () => TermStats | undefined;
  /** Similarity in meaning, when an embedding model is loaded; without it the lexical evidence decides. */
  similarity?: () => TextSimilarity | undefined;
  /** For the dev-set sweep only. */
  tuning?: Partial<ExtractiveTuning>;
}

export function createExtractiveModel(options: ExtractiveOptions = {}): ChatModel {
  const tuning = { ...DEFAULT_EXTRACTIVE_TUNING, ...options.tuning };
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
      const read = readPassages(question, passages, options.termStats?.(), followUp);
      const similarity = options.similarity?.();
      if (read.kind === 'abstain' || !similarity) return say(request, decide(read, undefined, tuning));
      return say(
        request,
        decide(read, await similarities(similarity, question, read.candidates, passages, request.signal), tuning),
      );
    },
  };
}

/** The lexical-only answer (no embedding model): what the offline model says without similarity. */
export function answer(
  question: string,
  passages: ReturnedPassage[],
  corpusStats?: TermStats,
  followUp?: FollowUpParts,
): string {
  return decide(readPassages(question, passages, corpusStats, followUp), undefined, DEFAULT_EXTRACTIVE_TUNING);
}

function say(request: ChatRequest, text: string): ChatResponse {
  request.onText?.(text);
  return { text, toolCalls: [] };
}

type Read =
  | { kind: 'abstain'; text: string }
  | { kind: 'read'; reading: QuestionReading; candidates: Candidate[]; coverage: number; missing: string[] };

/** Reads the question and the passages: an abstention that needs no sentence scores (nothing to look for, a name missing), or the candidates. */
export function readPassages(
  question: string,
  passages: readonly ReturnedPassage[],
  corpusStats?: TermStats,
  followUp?: FollowUpParts,
): Read {
  const reading = new QuestionReading(question, passages, corpusStats, followUp);
  const keyTerms = reading.keyTerms;
  if (keyTerms.length === 0) {
    return { kind: 'abstain', text: notFound('the question has no terms to look for in the documents.') };
  }
  if (passages.length === 0) {
    return { kind: 'abstain', text: notFound(`no passage in the documents matches ${quoteList(keyTerms)}.`) };
  }
  const covered = coveredStems(passages);
  // Names and numbers the question is specifically about ("Japan", "401(k)") must be there.
  const missingAnchors = reading.anchors.filter((a) => !covered.has(a));
  if (missingAnchors.length) {
    return {
      kind: 'abstain',
      text: notFound(`the documents found do not mention ${quoteList(missingAnchors.map((m) => reading.surface(m)))}.`),
    };
  }
  return {
    kind: 'read',
    reading,
    candidates: candidateSentences(reading, passages),
    coverage: reading.coverage(covered),
    missing: keyTerms.filter((t) => !covered.has(t)),
  };
}

/** How close in meaning a candidate sentence (read with its section's heading) and its passage are to the question. */
export interface Closeness {
  sentence: number;
  passage: number;
}

/**
 * The similarities of the sentences worth one (the best by lexical score: most of a passage's
 * sentences score 0 and answer nothing) and of their passages, in one call to the model.
 */
export async function similarities(
  similarity: TextSimilarity,
  question: string,
  candidates: readonly Candidate[],
  passages: readonly ReturnedPassage[],
  signal?: AbortSignal,
): Promise<Map<Candidate, Closeness>> {
  const scored = [...candidates]
    .sort((a, b) => b.lexical - a.lexical || a.order - b.order)
    .slice(0, SEMANTIC_CANDIDATES);
  const passageIds = [...new Set(scored.map((c) => c.id))];
  const passageText = new Map(passages.map((p) => [p.id, `${p.heading}\n${p.text}`]));
  const texts = [...scored.map(sentenceInContext), ...passageIds.map((id) => passageText.get(id) ?? '')];
  const sims = await similarity.similarity(question, texts, signal);
  const ofPassage = new Map(passageIds.map((id, i) => [id, sims[scored.length + i]]));
  return new Map(scored.map((c, i) => [c, { sentence: sims[i], passage: ofPassage.get(c.id) ?? 0 }]));
}

/** A sentence as the model compares it: under the last part of its heading ("Advanced sick leave: You can request…"). */
function sentenceInContext(c: Candidate): string {
  const section = c.heading.split(' > ').at(-1)?.trim();
  return section ? `${section}: ${c.text}` : c.text;
}

/** Picks the sentences that answer (or abstains), by lexical score and, when given, similarity to the question. */
export function decide(
  read: Read,
  sims: ReadonlyMap<Candidate, Closeness> | undefined,
  tuning: ExtractiveTuning,
): string {
  if (read.kind === 'abstain') return read.text;
  const { reading, candidates } = read;
  const surface = (stem: string) => reading.surface(stem);
  const sim = (c: Candidate) => sims?.get(c)?.sentence ?? 0;
  const score = (c: Candidate) => {
    const closeness = sims?.get(c);
    return closeness
      ? c.lexical + tuning.semanticWeight * closeness.sentence + tuning.passageWeight * closeness.passage
      : c.lexical;
  };
  // With the model only: without it the lexical evidence decides as it always has (the fallback must not change).
  const valueAsked = !!sims && tuning.requireAskedValue && reading.askedValues().length > 0;
  const quantityAsked = valueAsked && reading.asksQuantity();
  // Without the model, a sentence answers on its words alone; with it, a sentence close enough in
  // meaning answers (a paraphrase), and one far from the question never does.
  const answers = (c: Candidate) =>
    (!valueAsked || (c.statesValue && c.topical >= tuning.valueSentenceShare)) &&
    (sims
      ? sim(c) >= (quantityAsked ? tuning.valueSimilarity : tuning.minSimilarity) &&
        (c.lexical >= SENTENCE_MIN || sim(c) >= tuning.paraphraseSimilarity)
      : c.lexical >= SENTENCE_MIN);
  // A follow-up that names a new subject ("and for part-time staff?") is answered only by sentences about it.
  const subject = reading.followUp?.newSubject;
  const ranked = candidates
    .filter((c) => (!sims || sims.has(c)) && (!subject || aboutSubject(c, subject, reading)))
    .sort((a, b) => score(b) - score(a) || a.order - b.order);
  const best = ranked.find(answers);
  const paraphrase = !!sims && !!best && sim(best) >= tuning.paraphraseSimilarity;
  if (read.coverage < COVERAGE_NEEDED && !paraphrase) {
    return notFound(`the documents found do not mention ${quoteList(read.missing.map(surface))}.`);
  }
  if (!best) {
    return notFound(
      subject
        ? `the documents found do not say this for "${subject}".`
        : `no sentence in the documents found answers this; closest terms: ${quoteList(reading.keyTerms.map(surface))}.`,
    );
  }
  const floor = score(best) * 0.75;
  const picked = ranked.filter((c) => answers(c) && score(c) >= floor).slice(0, MAX_SENTENCES);
  coverParts(reading, sims ? ranked.filter(answers) : ranked, picked);
  if (sims && tuning.followingSentence) {
    const next = ranked.find((c) => c.id === best.id && c.order === best.order + 1);
    if (next && !picked.includes(next) && answers(next)) picked.push(next);
  }
  picked.sort((a, b) => a.order - b.order);
  return picked.map((c) => cite(c.text, c.id)).join(' ');
}

/** The sentence (or its passage's heading) holds at least half the weight of the new subject's words. */
function aboutSubject(c: Candidate, subject: string, reading: QuestionReading): boolean {
  const stems = unique(analyse(subject, { stemming: true }).terms.map((t) => t.stem));
  if (stems.length === 0) return true;
  const heading = new Set(analyse(c.heading, { stemming: true }).terms.map((t) => t.stem));
  const total = stems.reduce((sum, t) => sum + reading.weight(t), 0);
  return (
    stems.filter((t) => c.stems.has(t) || heading.has(t)).reduce((sum, t) => sum + reading.weight(t), 0) / total >= 0.5
  );
}

/**
 * Each part of a multi-part question gets its best sentence, when one meets it; a part none
 * meets is named by the turn's relevance check as not found.
 */
function coverParts(reading: QuestionReading, answering: readonly Candidate[], picked: Candidate[]): void {
  const parts = questionParts(reading.followUp ? reading.followUp.asked : reading.question);
  if (parts.length < 2) return;
  for (const part of parts) {
    const partTerms = unique(
      analyse(part, { stemming: true })
        .terms.map((t) => t.stem)
        .filter((t) => reading.keyTerms.includes(t)),
    );
    if (partTerms.length === 0) continue;
    const partTotal = partTerms.reduce((sum, t) => sum + reading.weight(t), 0);
    const partScore = (c: Candidate) =>
      partTerms.reduce((sum, t) => sum + (c.stems.has(t) ? reading.weight(t) : 0), 0) / partTotal;
    if (picked.some((c) => partScore(c) >= 0.5)) continue;
    const forPart = answering
      .filter((c) => !picked.includes(c))
      .sort((a, b) => partScore(b) - partScore(a) || a.order - b.order)[0];
    if (forPart && partScore(forPart) >= 0.5) picked.push(forPart);
  }
}

/** "Refunds take 5 days." + E2 → "Refunds take 5 days [E2]." */
function cite(sentence: string, id: string): string {
  const m = /^(.*?)([.!?]*)$/s.exec(sentence.trim());
  const body = m ? m[1] : sentence;
  const end = m && m[2] ? m[2][0] : '.';
  return `${body} [${id}]${end}`;
}

function lastUserMessage(messages: ChatMessage[]): { text: string; followUp?: FollowUpParts } {
  const last = messages.filter((m): m is Extract<ChatMessage, { role: 'user' }> => m.role === 'user').at(-1);
  return { text: last?.text ?? '', ...(last?.followUp ? { followUp: last.followUp } : {}) };
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

/** Words named in a message: a few, then how many more (a pasted text may miss thousands). */
const MAX_NAMED = 6;

function quoteList(words: string[]): string {
  const q = words.slice(0, MAX_NAMED).map((w) => `"${w}"`);
  if (words.length > MAX_NAMED) return `${q.join(', ')} and ${words.length - MAX_NAMED} more`;
  return q.length <= 1 ? (q[0] ?? 'the question') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}
