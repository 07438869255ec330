// The ports (interfaces) through which core reaches embedders, chat models and support
// scorers. The product's own types (passages, evidence, verdicts, turns) live in
// src/domain/types.ts. No `vscode` and no DOM here.

import type { OnnxRuntimeChoice } from './onnxRuntime';
import type { GroundingMetadata, GroundingRoute, ReasonCode, SupportTier } from '../domain/types';

/** Dense text embedder (transformers.js in production, a generated tiny model in tests). */
export interface Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  /** The ONNX runtime it runs on (native, or WebAssembly), when it runs on one. */
  readonly runtime?: OnnxRuntimeChoice;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/**
 * How close texts are in meaning, under the embedding model (cosine of L2-normalised vectors,
 * -1..1). Present only when a real embedding model is loaded; every user of it must also work
 * without it (lexical fallback). The engine provides it; the verifier's relevance and support
 * checks and the extractive model may consume it.
 */
export interface TextSimilarity {
  /** The model the vectors come from (the embedder's id). */
  readonly modelId: string;
  /** Cosine similarity of `query` to each of `texts`, in order. */
  similarity(query: string, texts: readonly string[], signal?: AbortSignal): Promise<number[]>;
}

/** How a follow-up's standalone question was made: the question as asked, and the earlier question carried. */
export interface FollowUpParts {
  asked: string;
  carried: string;
  /** The new subject a subject-swapping follow-up names ("and for part-time staff?" → "part-time staff"). */
  newSubject?: string;
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
  /**
   * `followUp`: the question is a follow-up rewritten with the earlier question it carries
   * (`text` is the rewrite); backends that read only `text` get the standalone question.
   */
  | { role: 'user'; text: string; followUp?: FollowUpParts }
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
  /**
   * The sentence's distinctive words the passage lacks, when they alone sink it (no anchor
   * failed): what a meaning check (TextSimilarity) may still find said in other words.
   */
  missing?: { words: string[]; scoreIfMet: number };
}

/**
 * Parts of a passage's text that give its topic but state nothing: its heading path, as character
 * ranges [start, end) of the text. "Refunds and Cancellations > Monthly plans" names what the
 * passage is about; it does not say that monthly plans are refundable.
 */
export interface PassageContext {
  readonly headings: readonly (readonly [number, number])[];
}

export interface SupportScorer {
  readonly tier: SupportTier;
  score(
    sentence: string,
    passage: string,
    signal?: AbortSignal,
    context?: PassageContext,
  ): SupportResult | Promise<SupportResult>;
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
