// Checking claim/evidence pairs outside a conversation (`evident verify`, the evaluation):
// each claim is judged as if the model had written `claim [E1]` with the evidence as E1. Term
// weights come from all the evidence texts of the batch, as the product takes them from its
// passage index.

import type { SupportScorer } from '../types';
import { createLexicalScorer, type LexicalFeatures } from './lexicalScorer';
import { termStatsFromTexts } from '../text/termStats';
import { verifyClaim } from './verifier';

export interface ClaimCheckOptions {
  threshold?: number;
  escalation?: SupportScorer;
  /** Switch lexical ideas off (ablation only). */
  features?: Partial<LexicalFeatures>;
}

export type ClaimChecker = (claim: string, evidence: string) => Promise<{ supported: boolean; score: number }>;

export function createClaimChecker(evidenceTexts: Iterable<string>, options: ClaimCheckOptions = {}): ClaimChecker {
  const scorer = createLexicalScorer({ termStats: termStatsFromTexts(evidenceTexts), features: options.features });
  return (claim, evidence) =>
    verifyClaim(claim, evidence, { threshold: options.threshold, scorer, escalation: options.escalation });
}

/** Evidence as the pairs file gives it: a string, or a list of sentences joined with spaces. */
export function evidenceText(evidence: string | string[]): string {
  return Array.isArray(evidence) ? evidence.join(' ') : evidence;
}
