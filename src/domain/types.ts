// The words of the product as types: passages, evidence, verdicts, turn results and their
// metrics (closed sets of values as const lists, so guards check the same values). The bottom
// layer: no I/O, and no import from anywhere else in src/.
// Core, host, webview and CLI all build on these.

import type { PartialRetrieval } from './partialRetrieval';
import type { Notice } from './notices';

/** A small, single-section piece of one Markdown document. */
export interface Passage {
  /** Stable id: the same document text and section always give the same id. */
  id: string;
  /** Path relative to the docs root, with `/` separators. */
  source: string;
  /** Heading path of the section, outermost first (empty for text before the first heading). */
  headingPath: string[];
  /** `headingPath` joined with " > ". */
  heading: string;
  /** 1-based, inclusive line range in the source file. */
  startLine: number;
  endLine: number;
  /** Plain text of the passage (Markdown syntax removed, one block per line). */
  text: string;
  /** Version of the whole document: a content hash. */
  version: string;
}

/** A passage returned to the model in one turn, under its evidence id (E1, E2…). */
export interface Evidence {
  id: string;
  passageId: string;
  source: string;
  startLine: number;
  endLine: number;
  heading: string;
  text: string;
  version: string;
  /** Built-in grounding (route 2): the web page or data-store document of a grounding chunk. */
  uri?: string;
  /** Built-in grounding: the page or document title the service gave. */
  title?: string;
  /** Set when, at answer time, the source file no longer had `version` (the quoted text may have changed). */
  stale?: boolean;
}

/** Read access to the evidence of one invocation. */
export interface EvidenceLookup {
  get(id: string): Evidence | undefined;
  all(): readonly Evidence[];
}

export const VERDICTS = ['kept', 'dropped', 'exempt'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Machine-readable reason codes; `SentenceVerdict.reason` starts with one of these. */
export type ReasonCode =
  | 'supported'
  | 'non-factual'
  /** Exempt: the sentence says what the documents do not state (a hedge): a partial abstention, not a fact. */
  | 'partial-abstention'
  | 'no-citation'
  | 'unknown-id'
  | 'low-support'
  | 'value-mismatch'
  | 'negation-mismatch'
  /** Text after a `NOT_FOUND:` line: unverified, never part of the answer. */
  | 'after-abstention'
  /** Backed by its passage, but the turn does not answer the question (the relevance check). */
  | 'off-topic'
  /** Built-in grounding: no grounding support segment covers the sentence. */
  | 'no-grounding-support';

/** `grounding`: kept because the provider's grounding supports cover the sentence (route 2). */
export const SUPPORT_TIERS = ['lexical', 'entailment', 'judge', 'grounding'] as const;
export type SupportTier = (typeof SUPPORT_TIERS)[number];

export interface SentenceVerdict {
  text: string;
  citations: string[];
  verdict: Verdict;
  /** `code` or `code: explanation a reader can act on`. */
  reason: string;
  code: ReasonCode;
  /** Best support score over the cited passages (0..1); 0 when not scored. */
  support: number;
  /** Which tier decided (absent when no support check ran). */
  tier?: SupportTier;
  /** Character offsets of the sentence in the model's original text. */
  start: number;
  end: number;
}

export interface TurnMetrics {
  retrieved: number;
  /** Citation coverage, 0..1: defined (with its edge cases) in coverage.ts. */
  coverage: number;
  dropped: number;
  abstained: boolean;
}

/** The verifier's output for one answer text: what the turn result is built from. */
export interface VerifiedText {
  answer: string;
  abstained: boolean;
  sentences: SentenceVerdict[];
}

export const RETRIEVAL_MODES = ['hybrid', 'lexical'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** The user's verdict on an answer (chat feedback, kept in the turn log). */
export const FEEDBACKS = ['helpful', 'unhelpful'] as const;
export type Feedback = (typeof FEEDBACKS)[number];

/** The second route: the provider searches (Google Search, a Vertex AI Search data store). */
export const GROUNDING_ROUTES = ['google-search', 'vertex-ai-search'] as const;
export type GroundingRoute = (typeof GROUNDING_ROUTES)[number];

/** How a turn's evidence was found: our own index, or the provider's built-in grounding. */
export const TURN_RETRIEVALS = [...RETRIEVAL_MODES, ...GROUNDING_ROUTES] as const;
export type TurnRetrieval = (typeof TURN_RETRIEVALS)[number];

/** One grounding support as placed in the answer: what the audit log records. */
export interface GroundingSupportRecord {
  /** The segment text the service sent (empty when it sent none). */
  segment: string;
  /** The answer sentence(s) the segment lies in. */
  sentence: string;
  /** Evidence ids of the segment's grounding chunks (valid indices only). */
  chunks: string[];
  uris: string[];
  /** Highest confidence score the service gave, when it gave any (Gemini 2.5+ gives none). */
  confidence?: number;
  /** Why the support was not used (no segment text, text not found, no valid chunk index). */
  ignored?: string;
}

/** What built-in grounding adds to a turn. */
export interface GroundingInfo {
  route: GroundingRoute;
  supports: GroundingSupportRecord[];
  /** The queries the provider ran (web search). */
  queries: string[];
  /** Google's Search Suggestions markup (`searchEntryPoint.renderedContent`): untrusted HTML. */
  searchSuggestions?: string;
}

/** A grounding chunk as the provider sent it: a web page, or a data-store document (with text). */
export interface GroundingChunk {
  uri: string;
  title: string;
  /** Retrieved context (Vertex AI Search) carries the text it found; web chunks carry none. */
  text?: string;
}

/** A grounding support: an answer segment and the chunk indices the provider says back it. */
export interface GroundingSupport {
  /** The segment text; its offsets are UTF-8 byte offsets, so the text is what is matched. */
  text?: string;
  startIndex?: number;
  endIndex?: number;
  chunkIndices: number[];
  confidenceScores: number[];
}

/** The `groundingMetadata` of a response, read defensively into our own words. */
export interface GroundingMetadata {
  chunks: GroundingChunk[];
  supports: GroundingSupport[];
  queries: string[];
  searchSuggestions?: string;
}

/** Who made a turn abstain: the model said NOT_FOUND, the verifier kept nothing, or the relevance check found the kept text off the question. */
export const ABSTENTION_CAUSES = ['model', 'verifier', 'relevance'] as const;
export type AbstentionCause = (typeof ABSTENTION_CAUSES)[number];

/** "Does this answer the question?" (the check after the support check): its verdicts. */
export const RELEVANCE_VERDICTS = ['answers', 'partial', 'off-topic'] as const;
export type RelevanceVerdict = (typeof RELEVANCE_VERDICTS)[number];

export interface TurnRelevance {
  verdict: RelevanceVerdict;
  /** What the documents do and do not say, in words a reader can act on. */
  reason: string;
}

/** Everything one question produced: what the CLI prints and the UI renders. */
export interface TurnResult {
  id?: string;
  invocationId: string;
  question: string;
  /**
   * A turn that follows an earlier one: the standalone question that was retrieved and answered
   * (a follow-up rewritten with the earlier question; the question itself when it stands alone).
   */
  answeredAs?: string;
  answer: string;
  abstained: boolean;
  sentences: SentenceVerdict[];
  evidence: Evidence[];
  metrics: TurnMetrics;
  model: string;
  retrieval: TurnRetrieval;
  /** Built-in grounding (route 2) only. */
  grounding?: GroundingInfo;
  /** Non-fatal things the user should know (e.g. "embedding model unavailable: lexical only"). */
  notices: Notice[];
  /** The relevance check's verdict (absent when it is off or the turn abstained before it). */
  relevance?: TurnRelevance;
  /** Who made the turn abstain (absent when it answered). */
  abstainedBy?: AbstentionCause;
  /** Searched while the index's vectors were still filling in: how many passages had one. */
  partialRetrieval?: PartialRetrieval;
}
