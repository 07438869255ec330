// The second route as the CLI and the extension call it: a grounded turn (no docs folder, no
// index: the provider searches), then the metrics and audit records, like Engine.ask.

import { EvidenceLedger } from './agent/ledger';
import { runGroundedTurn } from './agent/groundedTurn';
import type { TurnEvent } from './agent/agentLoop';
import { appendTurnLog } from './metrics/turnLog';
import type { TurnResult } from '../domain/types';
import type { GroundedModel, SupportScorer } from './types';

export interface GroundedAskOptions {
  model: GroundedModel;
  /** Support threshold and escalation for chunks that carry text (Vertex AI Search). */
  verifier?: { threshold?: number; escalation?: SupportScorer };
  metricsLog?: string;
  auditLog?: string;
  signal?: AbortSignal;
  id?: string;
  onDraft?(textSoFar: string): void;
  onEvent?(event: TurnEvent): void;
  /** Told when the logs cannot be written (the answer is still returned). */
  onLogError?(message: string): void;
}

// One ledger for every grounded turn of this process; each turn releases its invocation.
const ledger = new EvidenceLedger();

/** Open grounded invocations (0 between turns). */
export function openGroundedInvocations(): number {
  return ledger.size;
}

export async function askGrounded(question: string, options: GroundedAskOptions): Promise<TurnResult> {
  const result = await runGroundedTurn(
    question,
    options.model,
    { ledger, verifier: { threshold: options.verifier?.threshold, escalation: options.verifier?.escalation } },
    { id: options.id, signal: options.signal, onDraft: options.onDraft, onEvent: options.onEvent },
  );
  try {
    await appendTurnLog(result, options.model.route, { metricsLog: options.metricsLog, auditLog: options.auditLog });
  } catch (error) {
    options.onLogError?.(`Could not write the metrics log: ${(error as Error).message}`);
  }
  return result;
}
