// The record kept of every turn: the four numbers (retrieved, coverage, dropped, abstained) with
// time, model, index version and topic, appended to a metrics log; and an audit record saying
// which source lines and document version backed each evidence id. Both are JSON Lines.

import { appendFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { GroundingSupportRecord, TurnResult } from '../../domain/types';

export interface TurnLogPaths {
  metricsLog?: string;
  auditLog?: string;
}

export interface MetricsRecord {
  time: string;
  invocationId: string;
  model: string;
  retrieval: string;
  indexVersion: string;
  /** The document the answer leaned on most (first cited source, else first retrieved). */
  topic: string | null;
  retrieved: number;
  coverage: number;
  dropped: number;
  abstained: boolean;
  /** Who made the turn abstain: the model, the verifier or the relevance check. */
  abstainedBy?: string;
  /** The relevance check's verdict (answers, partial, off-topic), when it ran. */
  relevance?: string;
}

export interface AuditRecord {
  time: string;
  invocationId: string;
  model: string;
  question: string;
  answer: string;
  cited: string[];
  evidence: { id: string; source: string; startLine: number; endLine: number; version: string; uri?: string; title?: string }[];
  /** Built-in grounding: each support (sentence, chunk ids, uris, confidence when given). */
  supports?: GroundingSupportRecord[];
}

export function metricsRecord(result: TurnResult, indexVersion: string, time = new Date()): MetricsRecord {
  const cited = result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations);
  const topicEvidence = result.evidence.find((e) => e.id === cited[0]) ?? result.evidence[0];
  return {
    time: time.toISOString(),
    invocationId: result.invocationId,
    model: result.model,
    retrieval: result.retrieval,
    indexVersion,
    topic: topicEvidence?.source ?? null,
    ...result.metrics,
    ...(result.abstainedBy ? { abstainedBy: result.abstainedBy } : {}),
    ...(result.relevance ? { relevance: result.relevance.verdict } : {}),
  };
}

export function auditRecord(result: TurnResult, time = new Date()): AuditRecord {
  return {
    time: time.toISOString(),
    invocationId: result.invocationId,
    model: result.model,
    question: result.question,
    answer: result.answer,
    cited: [...new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations))],
    evidence: result.evidence.map((e) => ({
      id: e.id,
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
  if (paths.metricsLog) await appendLine(paths.metricsLog, metricsRecord(result, indexVersion, time));
  if (paths.auditLog) await appendLine(paths.auditLog, auditRecord(result, time));
}

async function appendLine(file: string, record: object): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(record)}\n`);
}
