// The messages between the extension host and the index worker (a node:worker_threads thread
// that owns the local index: it indexes, embeds and writes, and answers searches from the same
// index in memory). Requests carry an id; every request gets exactly one `result` or `error`.
// Both sides check what they receive (`isFromWorker`, `isToWorker`): a malformed message is an
// error with its type named, never a silent drop.

import type { Passage, RetrievalMode } from '../../domain/types';
import { isNotice, type Notice } from '../../domain/notices';
import type { DocFolder } from '../docs/docFolders';
import type { EmbeddingSettings } from '../retrieval/embedder';
import type { IndexProgress, IndexReport } from '../indexing/indexRun';
import type { RetrievedPassage } from '../retrieval/retrievedPassage';
import type { StoreStatus } from '../store/passageStore';

/** What the worker is started with (structured-clone data: no functions). */
export interface IndexWorkerData {
  indexDir: string;
  docs: { folders: DocFolder[]; include?: string[]; exclude?: string[] };
  /** Without its download callback (downloads are reported as messages); false for lexical only. */
  embedding: Omit<EmbeddingSettings, 'onDownloadProgress'> | false;
}

/** The worker's state, sent after it opens and after every commit. */
export interface WorkerStatus extends StoreStatus {
  /** The mode a search runs in now (hybrid once vectors from the loaded model are committed). */
  mode: RetrievalMode;
  embedder: 'off' | 'loading' | 'ready' | 'unavailable';
  /** Why there is no embedding model (said in answers' notices; code `lexical-only`). */
  embedderProblem?: Notice;
}

/** The calls the host makes, and what each returns. */
export interface WorkerCalls {
  index: { args: { paths?: string[]; commitEvery?: { passages?: number; ms?: number } }; returns: IndexReport };
  search: { args: { query: string; topK: number }; returns: { mode: RetrievalMode; passages: RetrievedPassage[] } };
  passages: { args: { ids: string[] }; returns: Passage[] };
  /** The term counts as TermCounts JSON (the host rebuilds the weights from them, once per index state). */
  termCounts: { args: Record<string, never>; returns: string };
  commonFolder: { args: Record<string, never>; returns: string };
  clear: { args: Record<string, never>; returns: null };
  /** Cosine similarity of `query` to each text under the worker's embedding model; null without one. */
  similarity: { args: { query: string; texts: string[] }; returns: number[] | null };
}
export type WorkerOp = keyof WorkerCalls;
export const WORKER_OPS: readonly WorkerOp[] = [
  'index',
  'search',
  'passages',
  'termCounts',
  'commonFolder',
  'clear',
  'similarity',
];

export type ToWorker =
  | { [K in WorkerOp]: { type: 'call'; id: number; op: K; args: WorkerCalls[K]['args'] } }[WorkerOp]
  /** Cancels the request `id` (an index run): it ends with an AbortError, keeping what it committed. */
  | { type: 'cancel'; id: number };

/**
 * An error as it crosses the boundary: its name (AbortError stays AbortError), message and code
 * (ours, such as a store's, or Node's, such as ENOENT): the host tells errors apart by the code.
 */
export interface WorkerError {
  name: string;
  message: string;
  code?: string;
}

export type FromWorker =
  | { type: 'ready'; status: WorkerStatus; openNotices: Notice[] }
  | { type: 'failed'; error: WorkerError }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: WorkerError }
  | { type: 'progress'; id: number; progress: IndexProgress }
  /** The lexical part of the run `id` is committed: answers work from here on. */
  | { type: 'lexicalReady'; id: number }
  | { type: 'status'; status: WorkerStatus }
  | { type: 'download'; progress: { file: string; loaded: number; total: number } }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string };

export function toWorkerError(error: unknown): WorkerError {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(error) };
}

/** The error a worker reported, as an Error of the same name (so `AbortError` is recognised). */
export function fromWorkerError(e: WorkerError): Error {
  const error = new Error(e.message) as NodeJS.ErrnoException;
  error.name = e.name;
  if (e.code !== undefined) error.code = e.code;
  return error;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isErrorShape = (v: unknown): v is WorkerError =>
  isRecord(v) && typeof v.name === 'string' && typeof v.message === 'string';
const isStatus = (v: unknown): v is WorkerStatus =>
  isRecord(v) &&
  typeof v.indexed === 'boolean' &&
  isInt(v.documents) &&
  isInt(v.passages) &&
  (v.mode === 'hybrid' || v.mode === 'lexical') &&
  (v.embedderProblem === undefined || isNotice(v.embedderProblem));

/** A message from the worker, checked at the boundary. */
export function isFromWorker(v: unknown): v is FromWorker {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
      return isStatus(v.status) && Array.isArray(v.openNotices) && v.openNotices.every(isNotice);
    case 'failed':
      return isErrorShape(v.error);
    case 'result':
      return isInt(v.id) && 'value' in v;
    case 'error':
      return isInt(v.id) && isErrorShape(v.error);
    case 'progress':
      return isInt(v.id) && isRecord(v.progress) && typeof v.progress.phase === 'string';
    case 'lexicalReady':
      return isInt(v.id);
    case 'status':
      return isStatus(v.status);
    case 'download':
      return isRecord(v.progress) && typeof v.progress.file === 'string';
    case 'log':
      return (v.level === 'info' || v.level === 'warn' || v.level === 'error') && typeof v.message === 'string';
    default:
      return false;
  }
}

/** A message from the host, checked at the boundary. */
export function isToWorker(v: unknown): v is ToWorker {
  if (!isRecord(v) || !isInt(v.id)) return false;
  if (v.type === 'cancel') return true;
  return v.type === 'call' && WORKER_OPS.includes(v.op as WorkerOp) && isRecord(v.args);
}
