// The record kept of every turn: the four numbers (retrieved, coverage, dropped, abstained) with
// time, model, index version and topic, appended to a metrics log; and an audit record saying
// which passage, source lines and document version backed each evidence id (ids and versions,
// never passage texts: the text can be found again from source, lines and version). Both are
// JSON Lines, bounded by size (logFile.ts), safe with several writers.

import { isFactual } from '../../domain/coverage';
import type { Feedback, GroundingSupportRecord, TurnResult } from '../../domain/types';
import { appendBounded, DEFAULT_LOG_LIMITS, type LogLimits } from './logFile';
import { topicOf } from './topic';

export type { Feedback } from '../../domain/types';

export interface TurnLogPaths {
  metricsLog?: string;
  auditLog?: string;
  limits?: LogLimits;
  /** The folder holding every document of the index (topics are taken below it). */
  commonFolder?: string;
}

export interface MetricsRecord {
  time: string;
  invocationId: string;
  model: string;
  retrieval: string;
  indexVersion: string;
  /** The area of the documents the answer leaned on (topic.ts); null when nothing was retrieved. */
  topic: string | null;
  retrieved: number;
  coverage: number;
  dropped: number;
  abstained: boolean;
  /** Factual sentences (kept + dropped): the denominator of the drop rate. Absent in old lines. */
  factual?: number;
  /** Who made the turn abstain: the model, the verifier or the relevance check. */
  abstainedBy?: string;
  /** The relevance check's verdict (answers, partial, off-topic), when it ran. */
  relevance?: string;
  /** The user's verdict on the answer: set on a later line of the same invocation (see FeedbackRecord). */
  feedback?: Feedback;
}

/**
 * The user's verdict on an answer, given after its metrics line was written: a line of the same
 * log with the turn's invocation id and only the optional `feedback` field (no metric fields);
 * a reader merges it into the turn's record by invocation id, the latest line winning.
 */
export interface FeedbackRecord {
  time: string;
  invocationId: string;
  feedback: Feedback;
}

export interface AuditRecord {
  time: string;
  invocationId: string;
  model: string;
  indexVersion: string;
  question: string;
  answer: string;
  cited: string[];
  evidence: {
    id: string;
    passageId: string;
    source: string;
    startLine: number;
    endLine: number;
    version: string;
    uri?: string;
    title?: string;
  }[];
  /** Built-in grounding: each support (sentence, chunk ids, uris, confidence when given). */
  supports?: GroundingSupportRecord[];
}

export function metricsRecord(
  result: TurnResult,
  indexVersion: string,
  time = new Date(),
  commonFolder = '',
): MetricsRecord {
  return {
    time: time.toISOString(),
    invocationId: result.invocationId,
    model: result.model,
    retrieval: result.retrieval,
    indexVersion,
    topic: topicOf(result, commonFolder),
    ...result.metrics,
    factual: result.sentences.filter(isFactual).length,
    ...(result.abstainedBy ? { abstainedBy: result.abstainedBy } : {}),
    ...(result.relevance ? { relevance: result.relevance.verdict } : {}),
  };
}

export function auditRecord(result: TurnResult, indexVersion: string, time = new Date()): AuditRecord {
  return {
    time: time.toISOString(),
    invocationId: result.invocationId,
    model: result.model,
    indexVersion,
    question: result.question,
    answer: result.answer,
    cited: [...new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations))],
    evidence: result.evidence.map((e) => ({
      id: e.id,
      passageId: e.passageId,
      source: e.source,
      startLine: e.startLine,
      endLine: e.endLine,
      version: e.version,
      ...(e.uri !== undefined ? { uri: e.uri } : {}),
      ...(e.title !== undefined ? { title: e.title } : {}),
    })),
    ...(result.grounding ? { supports: result.grounding.supports } : {}),
  };
}

export async function appendTurnLog(result: TurnResult, indexVersion: string, paths: TurnLogPaths): Promise<void> {
  const time = new Date();
  const limits = paths.limits ?? DEFAULT_LOG_LIMITS;
  if (paths.metricsLog) {
    await appendBounded(
      paths.metricsLog,
      JSON.stringify(metricsRecord(result, indexVersion, time, paths.commonFolder)),
      limits,
    );
  }
  if (paths.auditLog) {
    await appendBounded(paths.auditLog, JSON.stringify(auditRecord(result, indexVersion, time)), limits);
  }
}

/** Appends the user's verdict on an answer to the turn log (see FeedbackRecord). */
export async function appendFeedback(
  metricsLog: string,
  invocationId: string,
  feedback: Feedback,
  time = new Date(),
  limits: LogLimits = DEFAULT_LOG_LIMITS,
): Promise<void> {
  const record: FeedbackRecord = { time: time.toISOString(), invocationId, feedback };
  await appendBounded(metricsLog, JSON.stringify(record), limits);
}
