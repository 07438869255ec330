// The evaluation set: questions labelled answerable or not, with keywords a correct answer must
// contain and the files that hold the answer. Scores what matters for a grounded assistant:
// answer accuracy, abstention precision and recall, false abstentions, citation coverage, drop
// rate, and recall@k of the gold files among the retrieved passages.

import type { AbstentionCause, TurnResult } from '../../domain/types';
import { isFactual } from '../../domain/coverage';
import { requireString } from '../jsonl';
import { questionProblem } from '../agent/question';

export interface EvalQuestion {
  id: string;
  question: string;
  answerable: boolean;
  answer_keywords: string[];
  gold_files: string[];
  /** A follow-up: the id of the earlier line of the set it follows (asked after that turn). */
  after?: string;
  /** A follow-up that changes the subject: it must be answered as asked, not rewritten. */
  selfContained?: boolean;
}

export function checkEvalQuestion(value: Record<string, unknown>): string | undefined {
  return (
    requireString(value, 'id') ??
    requireString(value, 'question') ??
    questionProblem(value.question as string) ??
    (typeof value.answerable === 'boolean' ? undefined : '"answerable" must be true or false') ??
    (value.answer_keywords === undefined || isStringArray(value.answer_keywords) ? undefined : '"answer_keywords" must be an array of strings') ??
    (value.gold_files === undefined || isStringArray(value.gold_files) ? undefined : '"gold_files" must be an array of strings') ??
    (value.selfContained === undefined || typeof value.selfContained === 'boolean' ? undefined : '"selfContained" must be true or false')
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
  /** Abstentions by who made them: the model (NOT_FOUND), the verifier (nothing backed), the relevance check (off the question). */
  abstentionsBy: Record<AbstentionCause, number>;
  /** The same turns as the model wrote them (no support check, no relevance check) and as shown. */
  verifierOff: StageFigures;
  verifierOn: StageFigures;
  items: { id: string; correct: boolean; abstained: boolean; answerable: boolean; goldRecall?: number; abstainedBy?: AbstentionCause; answeredAs?: string }[];
  /** Sets with follow-ups (`after`): how the follow-ups fared (absent for a set without any). */
  followUps?: FollowUpFigures;
}

export interface FollowUpFigures {
  questions: number;
  /** Follow-ups that have a right file: a gold file, or for an unanswerable follow-up on the same subject a gold file of the turn it follows. */
  withRightFiles: number;
  /** …and whose retrieved passages include one. */
  rightFileRetrieved: number;
  /** Follow-ups answered as a rewritten question. */
  rewritten: number;
  /** Follow-ups marked self-contained, and how many of them the rewrite changed (should be none). */
  selfContained: number;
  selfContainedChanged: number;
}

/** Figures of one stage of the turn: before the after-model checks, or after them. */
export interface StageFigures {
  /** Answerable questions answered with every keyword present. */
  answerAccuracy: number;
  /** Share of all questions that abstained. */
  abstentionRate: number;
  /** Unanswerable questions that abstained. */
  abstentionRecall: number;
  /** Answerable questions that abstained. */
  falseAbstentionRate: number;
  /** Off: share of the model's factual sentences that carry an evidence id. On: kept / factual. Mean over answers. */
  citationCoverage: number;
  /** Off: 0 (nothing is dropped). On: dropped / factual sentences. */
  dropRate: number;
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
    dropRate: supportDropRate(items),
    recallAtK: mean(withGold.map((i) => i.goldRecall ?? 0)),
    k,
    abstentionsBy: {
      model: abstained.filter((i) => causeOf(i.result) === 'model').length,
      verifier: abstained.filter((i) => causeOf(i.result) === 'verifier').length,
      relevance: abstained.filter((i) => causeOf(i.result) === 'relevance').length,
    },
    verifierOff: stage(items, (i) => modelAbstained(i.result), (i) => modelText(i.result), (i) => rawCoverage(i.result), () => 0),
    verifierOn: stage(
      items,
      (i) => i.result.abstained,
      (i) => i.result.answer,
      (i) => i.result.metrics.coverage,
      // Support drops only: what the relevance check set aside is counted in its abstentions.
      (all) => supportDropRate(all),
    ),
    items: items.map((i) => ({
      id: i.question.id,
      correct: i.correct,
      abstained: i.result.abstained,
      answerable: i.question.answerable,
      goldRecall: i.goldRecall,
      ...(i.result.abstained ? { abstainedBy: causeOf(i.result) } : {}),
      ...(i.result.answeredAs !== undefined ? { answeredAs: i.result.answeredAs } : {}),
    })),
    ...(items.some((i) => i.question.after !== undefined) ? { followUps: followUpFigures(items) } : {}),
  };
}

function followUpFigures(items: EvalItem[]): FollowUpFigures {
  const byId = new Map(items.map((i) => [i.question.id, i]));
  const followUps = items.filter((i) => i.question.after !== undefined);
  // A right file: a gold file, or for an unanswerable follow-up on the same subject the files of the
  // turn it follows; an unanswerable follow-up that changes the subject has none (it is not counted).
  const rightFiles = (i: EvalItem): string[] =>
    i.question.gold_files?.length ? i.question.gold_files : i.question.selfContained ? [] : (byId.get(i.question.after ?? '')?.question.gold_files ?? []);
  const withRightFiles = followUps.filter((i) => rightFiles(i).length > 0);
  const changed = (i: EvalItem) => i.result.answeredAs !== undefined && i.result.answeredAs !== i.question.question;
  const selfContained = followUps.filter((i) => i.question.selfContained);
  return {
    questions: followUps.length,
    withRightFiles: withRightFiles.length,
    rightFileRetrieved: withRightFiles.filter((i) => i.result.evidence.some((e) => rightFiles(i).includes(e.source))).length,
    rewritten: followUps.filter(changed).length,
    selfContained: selfContained.length,
    selfContainedChanged: selfContained.filter(changed).length,
  };
}

/** Sentences the verifier dropped over the factual sentences written (off-topic ones are the relevance check's). */
function supportDropRate(items: EvalItem[]): number {
  const factual = items.flatMap((i) => i.result.sentences.filter(isFactual));
  return ratio(factual.filter((s) => s.verdict === 'dropped' && s.code !== 'off-topic').length, factual.length);
}

function causeOf(result: TurnResult): AbstentionCause {
  return result.abstainedBy ?? (result.sentences.some((s) => s.verdict !== 'exempt') ? 'verifier' : 'model');
}

/** The model abstained itself (NOT_FOUND, or no answer): the turn would have abstained with no checks. */
function modelAbstained(result: TurnResult): boolean {
  return result.abstained && causeOf(result) === 'model';
}

/** What the model wrote: every sentence, kept or not. */
function modelText(result: TurnResult): string {
  return result.sentences.filter((s) => s.code !== 'after-abstention').map((s) => s.text).join(' ');
}

function rawCoverage(result: TurnResult): number {
  const factual = result.sentences.filter((s) => s.verdict !== 'exempt' && s.code !== 'after-abstention');
  return factual.length ? factual.filter((s) => s.citations.length > 0).length / factual.length : 1;
}

function stage(
  items: EvalItem[],
  abstains: (i: EvalItem) => boolean,
  text: (i: EvalItem) => string,
  coverage: (i: EvalItem) => number,
  dropRate: (answered: EvalItem[]) => number,
): StageFigures {
  const answerable = items.filter((i) => i.question.answerable);
  const unanswerable = items.filter((i) => !i.question.answerable);
  const answered = items.filter((i) => !abstains(i));
  const correct = answerable.filter((i) => !abstains(i) && keywordsIn(i.question, text(i)));
  return {
    answerAccuracy: ratio(correct.length, answerable.length),
    abstentionRate: ratio(items.length - answered.length, items.length),
    abstentionRecall: ratio(unanswerable.filter(abstains).length, unanswerable.length),
    falseAbstentionRate: ratio(answerable.filter(abstains).length, answerable.length),
    citationCoverage: mean(answered.map(coverage)),
    dropRate: dropRate(items),
  };
}

function keywordsIn(question: EvalQuestion, text: string): boolean {
  const lower = text.toLowerCase();
  return (question.answer_keywords ?? []).every((k) => lower.includes(k.toLowerCase()));
}

function ratio(n: number, d: number): number {
  return d === 0 ? 0 : n / d;
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}
