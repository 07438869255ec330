// One turn of the second route (built-in grounding), in the same shape as the cited agent loop:
// one invocation id, the provider's search instead of our searchPolicies tool, each grounding
// chunk recorded in the ledger as E1, E2… (in the order the provider lists them), drafts
// streamed untouched, the final text verified from the grounding metadata, and the ledger
// released in `finally` (success, error, cancellation).

import { randomUUID } from 'node:crypto';
import { turnMetrics } from '../../domain/coverage';
import type { Notice } from '../../domain/notices';
import type { AbstentionCause, TurnResult } from '../../domain/types';
import type { GroundedModel } from '../types';
import type { VerifierOptions } from '../verifier/verifier';
import { verifyGrounded } from '../verifier/groundingCheck';
import { NO_ANSWER, streamModelCall, TurnCancelled, type TurnEvent } from './agentLoop';
import { GROUNDED_INSTRUCTION } from './instruction';
import type { EvidenceLedger } from './ledger';

export interface GroundedTurnDeps {
  ledger: EvidenceLedger;
  /** The lexical check for chunks that carry text (Vertex AI Search). */
  verifier?: Partial<VerifierOptions>;
}

export interface GroundedTurnOptions {
  id?: string;
  signal?: AbortSignal;
  onDraft?: (textSoFar: string) => void;
  onEvent?: (event: TurnEvent) => void;
  notices?: Notice[];
}

export async function runGroundedTurn(
  question: string,
  model: GroundedModel,
  deps: GroundedTurnDeps,
  options: GroundedTurnOptions = {},
): Promise<TurnResult> {
  if (!question.trim()) throw new Error('The question is empty.');
  const signal = options.signal ?? new AbortController().signal;
  const invocationId = randomUUID();
  const evidence = deps.ledger.begin(invocationId);
  try {
    if (signal.aborted) throw new TurnCancelled();
    const response = await streamModelCall(signal, options.onDraft, (onText) =>
      model.generate({ question, system: GROUNDED_INSTRUCTION, signal, onText }),
    );
    if (signal.aborted) throw new TurnCancelled();

    // Evidence: the grounding chunks in order; chunkIds[j] is chunk j's id in this turn.
    const chunkIds = (response.metadata?.chunks ?? []).map((chunk) => evidence.recordChunk(chunk).id);
    const recorded = [...evidence.all()];
    const query = response.metadata?.queries.join(' · ') || question;
    options.onEvent?.({ type: 'search', query, evidence: recorded });

    options.onEvent?.({ type: 'verifying' });
    const checked = response.text.trim()
      ? await verifyGrounded(response.text, response.metadata, chunkIds, evidence, deps.verifier, signal)
      : { answer: NO_ANSWER, abstained: true, sentences: [], supports: [], notices: [] };
    if (signal.aborted) throw new TurnCancelled();
    // The model's own NOT_FOUND (or no text) leaves no sentence to judge; else the check kept nothing.
    const abstainedBy: AbstentionCause | undefined = !checked.abstained
      ? undefined
      : checked.sentences.length === 0
        ? 'model'
        : 'verifier';
    return {
      id: options.id,
      invocationId,
      question,
      answer: checked.answer,
      abstained: checked.abstained,
      sentences: checked.sentences,
      evidence: recorded,
      metrics: turnMetrics(recorded.length, checked),
      model: model.name,
      retrieval: model.route,
      grounding: {
        route: model.route,
        supports: checked.supports,
        queries: response.metadata?.queries ?? [],
        ...(response.metadata?.searchSuggestions ? { searchSuggestions: response.metadata.searchSuggestions } : {}),
      },
      notices: [...(options.notices ?? []), ...checked.notices],
      ...(abstainedBy ? { abstainedBy } : {}),
    };
  } finally {
    deps.ledger.release(invocationId);
  }
}
