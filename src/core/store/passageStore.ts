// The passage store port: where the passages of a docs tree, their vectors and their lexical
// index live, and how they are searched. Two implementations: the local index on disk
// (`localPassageStore.ts`, one per docs folder and machine) and a shared team index in
// PostgreSQL with pgvector (`postgres/postgresPassageStore.ts`, indexed once, answered from
// everywhere). Both keep the same passage ids, versions and line ranges, so an audit line
// means the same thing whichever store answered.

import type { Passage, RetrievalMode } from '../../domain/types';
import type { VectorFill } from '../../domain/partialRetrieval';
import type { Notice } from '../../domain/notices';
import type { DocSource } from '../docs/docSource';
import type { IndexReport, IndexRunOptions } from '../indexing/indexRun';
import type { RetrievedPassage } from '../retrieval/retrievedPassage';
import type { Embedder } from '../types';
import type { TermStats } from '../text/termStats';

export interface StoreStatus {
  indexed: boolean;
  documents: number;
  passages: number;
  /** The model the stored vectors come from; null for a lexical-only index. */
  embeddingModel: string | null;
  /** How many passages have a vector (a local index whose vectors are filling in); absent when unknown. */
  vectors?: VectorFill;
}

export interface StoreSearch {
  mode: RetrievalMode;
  passages: RetrievedPassage[];
}

export interface PassageStore {
  /** Which index answers, for headers and logs: "local index" or "shared index postgres://host/db" (never a password). */
  readonly label: string;
  readonly kind: 'local' | 'shared';
  /** Why the stored index was not used as it was (rebuild reasons), said once. */
  readonly openNotices: Notice[];
  /** The last known state (read at open, refreshed by update). */
  status(): StoreStatus;
  /** Brings the store up to date with `docs` (incremental). */
  update(docs: DocSource, options: IndexRunOptions): Promise<IndexReport>;
  /** The mode a search with this embedder runs in (hybrid only when the models match). */
  mode(embedder: Embedder | undefined): RetrievalMode;
  /** The top `topK` passages for `query`, best first. */
  search(query: string, topK: number, embedder: Embedder | undefined, signal?: AbortSignal): Promise<StoreSearch>;
  /** Passages by id (unknown ids are left out). */
  passages(ids: readonly string[]): Promise<Passage[]>;
  /**
   * How informative each term is over every passage (the verifier's and relevance check's term
   * weights), exact at least for the stems of `texts` and of every passage a search returned.
   * The local index holds all its counts in memory; a shared index reads only the counts of the
   * stems asked about (kept in its table at index time), so a client's cost does not grow with
   * the corpus. Use the latest object returned.
   */
  termStats(texts: readonly string[]): Promise<TermStats>;
  /** The folder that holds every indexed document with passages ("" when they share none). */
  commonFolder(): Promise<string>;
  /** Removes everything: the next run indexes from scratch. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** A store that cannot be used as asked: another embedding model, a newer schema, unreachable, a role that may not write. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: 'model-mismatch' | 'schema-newer' | 'unreachable' | 'not-indexed' | 'setup' | 'permission',
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
