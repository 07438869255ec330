// The words of the product as types: passages, evidence, verdicts, turn results, and the
// ports (interfaces) through which core reaches embedders, vector stores and chat models.
// No `vscode` and no DOM here: the extension host and the CLI both build on these.

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
  /** Set when, at answer time, the source file no longer had `version` (the quoted text may have changed). */
  stale?: boolean;
}

/** Read access to the evidence of one invocation. */
export interface EvidenceLookup {
  get(id: string): Evidence | undefined;
  all(): readonly Evidence[];
}

export type Verdict = 'kept' | 'dropped' | 'exempt';

/** Machine-readable reason codes; `SentenceVerdict.reason` starts with one of these. */
export type ReasonCode =
  | 'supported'
  | 'non-factual'
  | 'no-citation'
  | 'unknown-id'
  | 'low-support'
  | 'value-mismatch'
  | 'negation-mismatch';

export type SupportTier = 'lexical' | 'entailment' | 'judge';

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
  /** Share of factual sentences (kept + dropped) that were kept with a citation, 0..1. */
  coverage: number;
  dropped: number;
  abstained: boolean;
}

export type RetrievalMode = 'hybrid' | 'lexical';

/** Everything one question produced: what the CLI prints and the UI renders. */
export interface TurnResult {
  id?: string;
  invocationId: string;
  question: string;
  answer: string;
  abstained: boolean;
  sentences: SentenceVerdict[];
  evidence: Evidence[];
  metrics: TurnMetrics;
  model: string;
  retrieval: RetrievalMode;
  /** Non-fatal things the user should know (e.g. "embedding model unavailable: lexical only"). */
  notices: string[];
}

// ---------------------------------------------------------------------------------------
// Ports

/** Dense text embedder (transformers.js in production, a generated tiny model in tests). */
export interface Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface ToolDeclaration {
  name: string;
  description: string;
  /** JSON schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface ToolResult {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'user'; text: string }
  /** `raw` keeps a backend's own content (e.g. Gemini parts with signatures) for replay. */
  | { role: 'model'; text: string; toolCalls: ToolCall[]; raw?: unknown }
  | { role: 'tool'; results: ToolResult[] };

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  tools: ToolDeclaration[];
  signal: AbortSignal;
  /** Partial text as it streams (drafts: unverified). */
  onText?: (chunk: string) => void;
}

export interface ChatResponse {
  text: string;
  toolCalls: ToolCall[];
  raw?: unknown;
}

/** A model backend: Gemini, VS Code language models, extractive (offline), scripted (tests). */
export interface ChatModel {
  readonly name: string;
  generate(request: ChatRequest): Promise<ChatResponse>;
}

/** Scores how well a passage backs a sentence (the verifier's third check). */
export interface SupportResult {
  score: number;
  /** Why it is low, in words a reader can act on ("'30 days' — the passage says 90 days"). */
  explanation?: string;
  code?: ReasonCode;
}

export interface SupportScorer {
  readonly tier: SupportTier;
  score(sentence: string, passage: string, signal?: AbortSignal): SupportResult | Promise<SupportResult>;
}
