// Rows of the shared index as the store and its indexing runs read and write them: a passage
// row and its columns, and a vector as pgvector's text form (only finite vectors: PostgreSQL
// rejects NaN, which a model gives for a text of only zero-width or control characters).

import pgvector from 'pgvector';
import type { Passage } from '../../../domain/types';

export interface PassageRow {
  id: string;
  source: string;
  heading_path: string[];
  heading: string;
  start_line: number;
  end_line: number;
  text: string;
  version: string;
  score?: number;
}

export const PASSAGE_COLUMNS = 'id, source, heading_path, heading, start_line, end_line, text, version';

export function toPassage(r: PassageRow): Passage {
  return {
    id: r.id,
    source: r.source,
    headingPath: r.heading_path,
    heading: r.heading,
    startLine: r.start_line,
    endLine: r.end_line,
    text: r.text,
    version: r.version,
  };
}

/** True when every component is a finite number (a vector pgvector accepts and cosine can rank). */
export function finiteVector(v: Float32Array | undefined): v is Float32Array {
  if (!v || v.length === 0) return false;
  for (const x of v) if (!Number.isFinite(x)) return false;
  return true;
}

export function vectorSql(v: Float32Array): string {
  return pgvector.toSql(Array.from(v)) ?? '[]';
}
