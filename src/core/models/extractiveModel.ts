// The offline backend: deterministic, no network, no key. It searches once with the question,
// then answers with the 1–3 passage sentences that best cover the question's key terms, each
// cited; when the passages do not cover the question's key terms it abstains with NOT_FOUND
// naming what is missing. Its answer goes through the same verifier as any model's.

import { notFound } from '../../domain/abstention';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse } from '../types';
import { analyse } from '../verifier/terms';
import { termStatsFromTexts, type TermStats } from '../verifier/termStats';
import { splitSentences } from '../verifier';
import { SEARCH_TOOL_NAME } from '../agent/instruction';

export const EXTRACTIVE_MODEL_NAME = 'extractive';

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
      const question = lastUserText(request.messages);
      const passages = returnedPassages(request.messages);
      if (passages === undefined) {
        if (request.tools.some((t) => t.name === SEARCH_TOOL_NAME)) {
          return { text: '', toolCalls: [{ id: 'extractive-1', name: SEARCH_TOOL_NAME, args: { query: question } }] };
        }
        return say(request, notFound('no passages were searched for this question.'));
      }
      return say(request, answer(question, passages, options.termStats?.()));
    },
  };
}

function say(request: ChatRequest, text: string): ChatResponse {
  request.onText?.(text);
  return { text, toolCalls: [] };
}

export function answer(question: string, passages: ReturnedPassage[], corpusStats?: TermStats): string {
  const howWords = new Set([...question.toLowerCase().matchAll(/\bhow\s+(\p{L}+)/gu)].map((m) => m[1]));
  // "How old / long / much / soon…" asks for a value: the word after "how" is not a topic.
  const questionTerms = analyse(question, { stemming: true }).terms.filter((t) => !QUESTION_FILLER.has(t.word) && !howWords.has(t.word));
  const keyTerms = unique(questionTerms.map((t) => t.stem));
  if (keyTerms.length === 0) return notFound('the question has no terms to look for in the documents.');
  if (passages.length === 0) return notFound(`no passage in the documents matches ${quoteList(keyTerms)}.`);

  const covered = new Set<string>();
  for (const p of passages) for (const t of analyse(`${p.heading}\n${p.text}`, { stemming: true }).terms) covered.add(t.stem);

  // Names and numbers the question is specifically about ("Japan", "401(k)") must be there.
  const anchors = unique(anchorWords(question).map((w) => analyse(w, { stemming: true }).terms[0]?.stem).filter((s): s is string => !!s));
  const missingAnchors = anchors.filter((a) => !covered.has(a));
  if (missingAnchors.length) {
    return notFound(`the documents found do not mention ${quoteList(missingAnchors.map((m) => surface(question, m)))}.`);
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
    return notFound(`the documents found do not mention ${quoteList(missing.map((m) => surface(question, m)))}.`);
  }

  const candidates: { text: string; id: string; score: number; order: number }[] = [];
  let order = 0;
  for (const p of passages) {
    const headingTerms = new Set(analyse(p.heading, { stemming: true }).terms.map((t) => t.stem));
    for (const line of p.text.split('\n')) {
      for (const s of splitSentences(stripListMarker(line))) {
        const text = s.text.trim();
        if (!text || text.endsWith(':') || text.split(/\s+/).length < 3) continue;
        const stems = new Set(analyse(text, { stemming: true }).terms.map((t) => t.stem));
        const score = keyTerms.reduce((sum, t) => sum + (stems.has(t) ? weight(t) : headingTerms.has(t) ? weight(t) * 0.5 : 0), 0) / total;
        candidates.push({ text, id: p.id, score, order: order++ });
      }
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  const best = candidates[0];
  if (!best || best.score < SENTENCE_MIN) {
    return notFound(`no sentence in the documents found answers this; closest terms: ${quoteList(keyTerms.map((k) => surface(question, k)))}.`);
  }
  const picked = candidates.filter((c) => c.score >= Math.max(SENTENCE_MIN, best.score * 0.75)).slice(0, MAX_SENTENCES);
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

function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return m.text;
  }
  return '';
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

/** The word as the user wrote it, for messages (stems read badly). */
function surface(question: string, stemmed: string): string {
  const hit = analyse(question, { stemming: true }).terms.find((t) => t.stem === stemmed);
  if (!hit) return stemmed;
  const asWritten = new RegExp(`\\b${hit.word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'iu').exec(question);
  return asWritten ? asWritten[0] : hit.word;
}

function quoteList(words: string[]): string {
  const q = words.map((w) => `"${w}"`);
  return q.length <= 1 ? (q[0] ?? 'the question') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}
