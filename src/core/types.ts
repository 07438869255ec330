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
  /** Built-in grounding (route 2): the web page or data-store document of a grounding chunk. */
  uri?: string;
  /** Built-in grounding: the page or document title the service gave. */
  title?: string;
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
  | 'negation-mismatch'
  /** Built-in grounding: no grounding support segment covers the sentence. */
  | 'no-grounding-support';

/** `grounding`: kept because the provider's grounding supports cover the sentence (route 2). */
export type SupportTier = 'lexical' | 'entailment' | 'judge' | 'grounding';

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

/** The second route: the provider searches (Google Search, a Vertex AI Search data store). */
export type GroundingRoute = 'google-search' | 'vertex-ai-search';

/** How a turn's evidence was found: our own index, or the provider's built-in grounding. */
export type TurnRetrieval = RetrievalMode | GroundingRoute;

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
  retrieval: TurnRetrieval;
  /** Built-in grounding (route 2) only. */
  grounding?: GroundingInfo;
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

export interface GroundedRequest {
  question: string;
  system: string;
  signal: AbortSignal;
  /** Partial text as it streams (drafts: unverified). */
  onText?: (chunk: string) => void;
}

export interface GroundedResponse {
  text: string;
  /** Absent when the response carried no grounding metadata at all. */
  metadata?: GroundingMetadata;
}

/** A model whose provider searches for it (route 2): Gemini + Google Search, Vertex AI Search. */
export interface GroundedModel {
  readonly name: string;
  readonly route: GroundingRoute;
  generate(request: GroundedRequest): Promise<GroundedResponse>;
}
