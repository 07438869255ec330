// The contract of an indexing run, whichever store runs it (the local index on disk, the shared
// index in PostgreSQL, the index worker in between): its options, its progress, its report, the
// format version of what it writes, and what of a passage the term counts and the embedder see.
// Independent of every store: the store port, the worker messages and both stores import it.

import type { Passage, RetrievalMode } from '../../domain/types';
import type { VectorFill } from '../../domain/partialRetrieval';
import type { Notice } from '../../domain/notices';
import type { Embedder } from '../types';

/** Bump when the manifest layout or the chunker's output changes: old indexes are rebuilt. */
export const INDEX_FORMAT_VERSION = 7;

/** Who holds an index's writer lock (what its lock file says): another process indexing it. */
export interface LockHolder {
  pid: number;
  host: string;
  token: string;
  /** ISO time the lock was taken. */
  since: string;
}

export interface IndexProgress {
  phase: 'scanning' | 'reading' | 'embedding' | 'saving';
  done: number;
  total: number;
  file?: string;
  /** While embedding: how many of the index's passages have a committed vector. */
  vectors?: VectorFill;
}

export interface IndexReport {
  documents: number;
  passages: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  embedded: number;
  skipped: { path: string; reason: string }[];
  retrieval: RetrievalMode;
  notices: Notice[];
  ms: number;
  /** Vector commits of this run's fill, and the time they took (writes only, not embedding). */
  vectorCommits?: { count: number; ms: number };
  /**
   * Set when the index folder refused this run's writes (full disk, read-only, quota): the run's
   * changes live in memory only, and the folder keeps `kept`, the index as last saved (null: none).
   */
  writeRefused?: { code: string; kept: SavedIndex | null };
  /** Set when another process held the writer lock and the run did not wait: nothing was indexed (null: its lock file was being written). */
  busy?: { pid: number; host: string; since: string } | null;
}

/** The report a run starts from: nothing counted yet, retrieving as `retrieval` says. */
export function emptyReport(retrieval: RetrievalMode): IndexReport {
  return {
    documents: 0,
    passages: 0,
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    embedded: 0,
    skipped: [],
    retrieval,
    notices: [],
    ms: 0,
  };
}

/** What an index folder holds as committed: its counts and when it was saved. */
export interface SavedIndex {
  documents: number;
  passages: number;
  savedAt: string;
}

export interface IndexRunOptions {
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /** Only these docs-relative paths (a watcher's changes); others are left as they are. */
  paths?: string[];
  /** The embedder, or undefined for a lexical-only run. */
  embedder?: Embedder;
  /** Called once the lexical part of the run is committed: answers work from here on. */
  onLexicalReady?: () => void;
  /** Vectors are committed every this many passages or milliseconds, whichever comes first. */
  commitEvery?: { passages?: number; ms?: number };
  /** A run reading more than this many bytes of documents commits its lexical part in batches of about this size. */
  readBatchBytes?: number;
  /**
   * Instead of `embedder`: the model a run would use, loaded only when the run has something to
   * embed (an unchanged index whose vectors all come from this model never loads it).
   */
  lazyEmbedder?: { modelId: string; load(): Promise<Embedder | undefined> };
  /**
   * When another process is indexing this folder: 'wait' for it (the default; `onWaiting` hears
   * once, and answers meanwhile come from the index it has committed), or 'answer': index
   * nothing and answer from the committed index (the report says `busy`).
   */
  whenBusy?: 'wait' | 'answer';
  onWaiting?: (holder: LockHolder | undefined) => void;
}

/** What the term statistics count of a passage. */
export function termText(p: Passage): string {
  return `${p.heading}\n${p.text}`;
}

/** What the embedder sees of a passage: its heading path gives the text its topic. */
export function embeddingText(p: Passage): string {
  return p.heading ? `${p.heading}\n${p.text}` : p.text;
}
