// The per-answer numbers that come from the verdicts (the lead's TurnMetrics uses them).

import type { SentenceVerdict } from '../types';

export interface VerdictSummary {
  /**
   * Citation coverage: kept / (kept + dropped), i.e. the share of factual sentences that
   * survived with a supporting citation. Exempt sentences are not factual and do not count;
   * 1 when there is no factual sentence (nothing claimed, nothing unsupported).
   */
  coverage: number;
  /** Sentences removed from the answer. */
  dropped: number;
}

export function summarize(sentences: readonly SentenceVerdict[]): VerdictSummary {
  const kept = sentences.filter((s) => s.verdict === 'kept').length;
  const dropped = sentences.filter((s) => s.verdict === 'dropped').length;
  return { coverage: kept + dropped === 0 ? 1 : kept / (kept + dropped), dropped };
}
