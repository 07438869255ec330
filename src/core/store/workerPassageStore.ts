// The local index in a worker thread (indexWorker/worker.ts), behind the passage store port: the
// extension host's engine talks to it with typed messages, so indexing never blocks the host's
// event loop, and searches are answered by the worker from its index in memory (also while it
// fills in vectors). Cancellation crosses as a `cancel` message; errors come back with their name
// (an AbortError stays one) and message; a worker that dies fails every open request with a
// message that says so, and `close()` terminates it.

import { Worker } from 'node:worker_threads';
import type { Notice } from '../../domain/notices';
import type { Passage, RetrievalMode } from '../../domain/types';
import type { DocSource } from '../docs/docSource';
import type { IndexProgress, IndexReport, IndexRunOptions } from '../indexing/indexRun';
import type { Embedder, TextSimilarity } from '../types';
import { TermCounts, type TermStats } from '../text/termStats';
import {
  fromWorkerError,
  isFromWorker,
  type FromWorker,
  type IndexWorkerData,
  type ToWorker,
  type WorkerCalls,
  type WorkerOp,
  type WorkerStatus,
} from '../indexWorker/messages';
import type { PassageStore, StoreSearch, StoreStatus } from './passageStore';

export interface WorkerStoreOptions extends IndexWorkerData {
  /** The worker's script (dist/indexWorker.js in the extension). */
  script: string;
  onDownloadProgress?: (p: { file: string; loaded: number; total: number }) => void;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (p: IndexProgress) => void;
  onLexicalReady?: () => void;
}

/**
 * The worker stopped (crashed, or was terminated): the store must be opened again. Told apart by
 * its code (the host gets engine errors across a bundle boundary, where `instanceof` fails).
 */
export class IndexWorkerStopped extends Error {
  readonly code = 'worker-stopped';
  constructor(reason: string) {
    super(`The index worker stopped (${reason}). Run "Evident: Reindex Workspace Docs" to start it again.`);
    this.name = 'IndexWorkerStopped';
  }
}

export class WorkerPassageStore implements PassageStore {
  readonly kind = 'local' as const;
  readonly label = 'local index';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stopped: Error | undefined;
  private stats: Promise<TermStats> | undefined;
  private closing = false;

  private constructor(
    private readonly worker: Worker,
    private latest: WorkerStatus,
    readonly openNotices: Notice[],
    private readonly options: WorkerStoreOptions,
  ) {
    worker.on('message', (message: unknown) => this.receive(message));
    worker.on('error', (error) => this.stop(new IndexWorkerStopped(error.message)));
    worker.on('exit', (code) => this.stop(new IndexWorkerStopped(this.closing ? 'closed' : `exit code ${code}`)));
  }

  /** Starts the worker and waits until it has opened the index. */
  static open(options: WorkerStoreOptions): Promise<WorkerPassageStore> {
    const data: IndexWorkerData = { indexDir: options.indexDir, docs: options.docs, embedding: options.embedding };
    const worker = new Worker(options.script, { workerData: data });
    return new Promise((resolve, reject) => {
      const early: FromWorker[] = [];
      const onMessage = (message: unknown) => {
        if (!isFromWorker(message)) return reject(new Error('The index worker sent a malformed first message.'));
        if (message.type === 'failed') {
          cleanup();
          void worker.terminate();
          return reject(fromWorkerError(message.error));
        }
        if (message.type !== 'ready') {
          early.push(message);
          return;
        }
        cleanup();
        const store = new WorkerPassageStore(worker, message.status, message.openNotices, options);
        for (const m of early) store.receive(m);
        resolve(store);
      };
      const onError = (error: Error) => {
        cleanup();
        reject(new IndexWorkerStopped(error.message));
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new IndexWorkerStopped(`exit code ${code} before it opened the index`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
  }

  /** The worker's last reported state (sent after every commit). */
  get workerStatus(): WorkerStatus {
    return this.latest;
  }

  status(): StoreStatus {
    const { indexed, documents, passages, embeddingModel, vectors } = this.latest;
    return { indexed, documents, passages, embeddingModel, ...(vectors ? { vectors } : {}) };
  }

  /** The worker's own embedder decides (the host loads none): the `embedder` argument is not used. */
  mode(_embedder?: Embedder): RetrievalMode {
    return this.latest.mode;
  }

  async update(_docs: DocSource, options: IndexRunOptions): Promise<IndexReport> {
    this.stats = undefined;
    try {
      return await this.call('index', { paths: options.paths, commitEvery: options.commitEvery }, options.signal, {
        onProgress: options.onProgress,
        onLexicalReady: () => {
          // The documents changed: term counts read before are of the index before.
          this.stats = undefined;
          options.onLexicalReady?.();
        },
      });
    } finally {
      this.stats = undefined;
    }
  }

  search(query: string, topK: number, _embedder?: Embedder, signal?: AbortSignal): Promise<StoreSearch> {
    return this.call('search', { query, topK }, signal);
  }

  passages(ids: readonly string[]): Promise<Passage[]> {
    return this.call('passages', { ids: [...ids] });
  }

  /**
   * Every term count, fetched once per index state (the engine asks at each search and check):
   * they change only with a lexical commit, never with vectors.
   */
  termStats(_texts?: readonly string[]): Promise<TermStats> {
    this.stats ??= this.call('termCounts', {}).then((json) => TermCounts.fromJSON(json).stats());
    this.stats.catch(() => (this.stats = undefined));
    return this.stats;
  }

  commonFolder(): Promise<string> {
    return this.call('commonFolder', {});
  }

  /**
   * Similarity in meaning under the worker's embedding model, once it is loaded there (undefined
   * before, and without one): the texts cross to the worker, the scores come back.
   */
  similarity(): TextSimilarity | undefined {
    const modelId = this.latest.embedder === 'ready' ? this.latest.embeddingModel : null;
    if (modelId === null) return undefined;
    return {
      modelId,
      similarity: async (query, texts, signal) => {
        const scores = await this.call('similarity', { query, texts: [...texts] }, signal);
        if (!scores || scores.length !== texts.length) {
          throw new Error('The index worker has no embedding model to compare texts with.');
        }
        return scores;
      },
    };
  }

  async clear(): Promise<void> {
    this.stats = undefined;
    await this.call('clear', {});
  }

  /**
   * Terminates the worker. Every request still open fails with IndexWorkerStopped ("closed") at
   * once, and so does every later one: a reply the worker sent before it stopped is not taken
   * (the exit event delivers queued replies first, so it would otherwise depend on timing whether
   * an index run in flight resolves or fails). What the worker committed stays on disk.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.stop(new IndexWorkerStopped('closed'));
    await this.worker.terminate();
  }

  /** Posts a raw message (for the tests of the boundary: a malformed one must be refused clearly). */
  postRaw(message: unknown): void {
    this.worker.postMessage(message);
  }

  private call<K extends WorkerOp>(
    op: K,
    args: WorkerCalls[K]['args'],
    signal?: AbortSignal,
    hooks: Pick<Pending, 'onProgress' | 'onLexicalReady'> = {},
  ): Promise<WorkerCalls[K]['returns']> {
    if (this.stopped) return Promise.reject(this.stopped);
    signal?.throwIfAborted();
    const id = this.nextId++;
    return new Promise<WorkerCalls[K]['returns']>((resolve, reject) => {
      const onAbort = () => this.worker.postMessage({ type: 'cancel', id } satisfies ToWorker);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        ...hooks,
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value as WorkerCalls[K]['returns']);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.worker.postMessage({ type: 'call', id, op, args } as ToWorker);
    });
  }

  private receive(message: unknown): void {
    if (!isFromWorker(message)) {
      this.options.log?.('error', 'The index worker sent a malformed message; it was ignored.');
      return;
    }
    switch (message.type) {
      case 'result':
      case 'error': {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.pending.delete(message.id);
        if (message.type === 'result') pending.resolve(message.value);
        else pending.reject(fromWorkerError(message.error));
        return;
      }
      case 'progress':
        this.pending.get(message.id)?.onProgress?.(message.progress);
        return;
      case 'lexicalReady':
        this.pending.get(message.id)?.onLexicalReady?.();
        return;
      case 'status':
      case 'ready':
        this.latest = message.status;
        return;
      case 'download':
        this.options.onDownloadProgress?.(message.progress);
        return;
      case 'log':
        this.options.log?.(message.level, message.message);
        return;
      case 'failed':
        this.stop(fromWorkerError(message.error));
        return;
    }
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const pending of this.pending.values()) pending.reject(this.stopped);
    this.pending.clear();
  }
}
