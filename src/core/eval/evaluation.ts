// The evaluation set: questions labelled answerable or not, with keywords a correct answer must
// contain and the files that hold the answer. Scores what matters for a grounded assistant:
// answer accuracy, abstention precision and recall, false abstentions, citation coverage, drop
// rate, and recall@k of the gold files among the retrieved passages.

import type { TurnResult } from '../../domain/types';
import { isFactual } from '../../domain/coverage';
import { requireString } from '../jsonl';

export interface EvalQuestion {
  id: string;
  question: string;
  answerable: boolean;
  answer_keywords: string[];
  gold_files: string[];
}

export function checkEvalQuestion(value: Record<string, unknown>): string | undefined {
  return (
    requireString(value, 'id') ??
    requireString(value, 'question') ??
    (typeof value.answerable === 'boolean' ? undefined : '"answerable" must be true or false') ??
    (value.answer_keywords === undefined || isStringArray(value.answer_keywords) ? undefined : '"answer_keywords" must be an array of strings') ??
    (value.gold_files === undefined || isStringArray(value.gold_files) ? undefined : '"gold_files" must be an array of strings')
  );
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export interface EvalItem {
  question: EvalQuestion;
  result: TurnResult;
  correct: boolean;
  /** Share of gold files among the retrieved sources (answerable questions with gold files). */
  goldRecall?: number;
}

export interface EvalReport {
  questions: number;
  answerable: number;
  unanswerable: number;
  /** Correct answers (answerable: not abstained and every keyword present) and correct abstentions, over all. */
  accuracy: number;
  /** Over answerable questions only. */
  answerAccuracy: number;
  abstentionPrecision: number;
  abstentionRecall: number;
  falseAbstentionRate: number;
  /** Mean of each answer's citation coverage (src/domain/coverage.ts) over answers that did not abstain. */
  citationCoverage: number;
  /** Dropped sentences over all factual sentences the model wrote. */
  dropRate: number;
  /** Mean share of gold files among the retrieved passages' sources (k = passages retrieved). */
  recallAtK: number;
  k: number;
  items: { id: string; correct: boolean; abstained: boolean; answerable: boolean; goldRecall?: number }[];
}

export function scoreItem(question: EvalQuestion, result: TurnResult): EvalItem {
  const answer = result.answer.toLowerCase();
  const correct = question.answerable
    ? !result.abstained && (question.answer_keywords ?? []).every((k) => answer.includes(k.toLowerCase()))
    : result.abstained;
  let goldRecall: number | undefined;
  if (question.answerable && question.gold_files?.length) {
    const sources = new Set(result.evidence.map((e) => e.source));
    goldRecall = question.gold_files.filter((g) => sources.has(g)).length / question.gold_files.length;
  }
  return { question, result, correct, goldRecall };
}

export function summarizeEvaluation(items: EvalItem[], k: number): EvalReport {
  const answerable = items.filter((i) => i.question.answerable);
  const unanswerable = items.filter((i) => !i.question.answerable);
  const abstained = items.filter((i) => i.result.abstained);
  const answered = items.filter((i) => !i.result.abstained);
  const factual = items.flatMap((i) => i.result.sentences.filter(isFactual));
  const withGold = answerable.filter((i) => i.goldRecall !== undefined);
  return {
    questions: items.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    accuracy: ratio(items.filter((i) => i.correct).length, items.length),
    answerAccuracy: ratio(answerable.filter((i) => i.correct).length, answerable.length),
    abstentionPrecision: ratio(abstained.filter((i) => !i.question.answerable).length, abstained.length),
    abstentionRecall: ratio(unanswerable.filter((i) => i.result.abstained).length, unanswerable.length),
    falseAbstentionRate: ratio(answerable.filter((i) => i.result.abstained).length, answerable.length),
    citationCoverage: mean(answered.map((i) => i.result.metrics.coverage)),
    dropRate: ratio(factual.filter((s) => s.verdict === 'dropped').length, factual.length),
    recallAtK: mean(withGold.map((i) => i.goldRecall ?? 0)),
    k,
    items: items.map((i) => ({ id: i.question.id, correct: i.correct, abstained: i.result.abstained, answerable: i.question.answerable, goldRecall: i.goldRecall })),
  };
}

function ratio(n: number, d: number): number {
  return d === 0 ? 0 : n / d;
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
