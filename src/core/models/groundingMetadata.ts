// Reads a response's `groundingMetadata` into our own types. The provider's JSON is treated as
// untrusted input: every field is checked, malformed pieces are skipped (never thrown on), and
// chunk indices are kept as sent so the verifier can say which ones point nowhere.

import type { GroundingChunk, GroundingMetadata, GroundingSupport } from '../../domain/types';

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function chunkOf(value: unknown): GroundingChunk {
  const chunk = record(value) ?? {};
  const source = record(chunk.web) ?? record(chunk.retrievedContext) ?? {};
  const uri = text(source.uri) ?? text(source.documentName) ?? '';
  const title = text(source.title) ?? text(record(chunk.web)?.domain) ?? '';
  const body = text(source.text);
  // Kept even when empty: chunk indices are positions, so every chunk must keep its place.
  return body !== undefined && body.trim() ? { uri, title, text: body } : { uri, title };
}

function supportOf(value: unknown): GroundingSupport {
  const support = record(value) ?? {};
  const segment = record(support.segment) ?? {};
  const index = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  const startIndex = index(segment.startIndex);
  const endIndex = index(segment.endIndex);
  const segmentText = text(segment.text);
  return {
    ...(segmentText !== undefined ? { text: segmentText } : {}),
    ...(startIndex !== undefined ? { startIndex } : {}),
    ...(endIndex !== undefined ? { endIndex } : {}),
    chunkIndices: list(support.groundingChunkIndices).filter(
      (i): i is number => typeof i === 'number' && Number.isFinite(i),
    ),
    confidenceScores: list(support.confidenceScores).filter(
      (c): c is number => typeof c === 'number' && Number.isFinite(c),
    ),
  };
}

export function readGroundingMetadata(value: unknown): GroundingMetadata | undefined {
  const metadata = record(value);
  if (!metadata) return undefined;
  const suggestions = text(record(metadata.searchEntryPoint)?.renderedContent);
  return {
    chunks: list(metadata.groundingChunks).map(chunkOf),
    supports: list(metadata.groundingSupports).map(supportOf),
    queries: list(metadata.webSearchQueries).filter((q): q is string => typeof q === 'string'),
    ...(suggestions ? { searchSuggestions: suggestions } : {}),
  };
}
