// The verifier's public face: what the agent loop, the CLI, the editor and the evaluation call.

export { NOT_FOUND_UNGROUNDED, NOT_FOUND_UNSUPPORTED } from './abstention';
export { verifyGrounded, type GroundingCheckResult } from './groundingCheck';
export { createEntailmentScorer, DEFAULT_ENTAILMENT_MODEL, type EntailmentScorerOptions } from './entailmentScorer';
export { createJudgeScorer } from './judgeScorer';
export {
  createLexicalScorer,
  DEFAULT_LEXICAL_FEATURES,
  type LexicalFeatures,
  type LexicalScorerOptions,
} from './lexicalScorer';
export { splitSentences, type SentenceSpan } from './sentenceSplitter';
export { termStatsFromTexts, type TermStats } from '../text/termStats';
export { DEFAULT_THRESHOLD, defaultVerifierOptions, verifyAnswer, verifyClaim, type VerifierOptions } from './verifier';
export { createClaimChecker, evidenceText, type ClaimChecker, type ClaimCheckOptions } from './claimCheck';
