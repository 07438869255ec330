// The index worker: a node:worker_threads thread that owns the workspace's local index, so that
// reading, chunking, tokenizing, embedding and writing never block the extension host's event
// loop. It answers searches from the same index in memory while it indexes (between embedding
// batches), so answers work as soon as the lexical part of a run is committed. Built as its own
// bundle (dist/indexWorker.js), started by the host on first use (store/workerPassageStore.ts).

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { lexicalOnlyNotice, type Notice } from '../../domain/notices';
import { workspaceDocSource } from '../docs/docSource';
import { loadEmbedder } from '../retrieval/embedder';
import { LocalPassageStore } from '../store/localPassageStore';
import type { Embedder, TextSimilarity } from '../types';
import { embedderSimilarity } from '../retrieval/textSimilarity';
import type { IndexRunOptions } from '../indexing/indexRun';
import {
  isToWorker,
  toWorkerError,
  type FromWorker,
  type IndexWorkerData,
  type ToWorker,
  type WorkerCalls,
  type WorkerOp,
  type WorkerStatus,
} from './messages';

type Call = Extract<ToWorker, { type: 'call' }>;

/** How long a search (or an index run) waits for an embedding model that is still loading before going on by words. */
const SEARCH_WAITS_FOR_MODEL_MS = 2_000;

const delay = (ms: number): Promise<undefined> => new Promise((resolve) => setTimeout(() => resolve(undefined), ms));

class IndexWorker {
  private embedderState: WorkerStatus['embedder'];
  private embedderProblem: Notice | undefined;
  private embedderLoading: Promise<Embedder | undefined>;
  private embedder: Embedder | undefined;
  private similarityOf: TextSimilarity | undefined;
  private readonly running = new Map<number, AbortController>();

  constructor(
    private readonly port: MessagePort,
    private readonly store: LocalPassageStore,
    private readonly data: IndexWorkerData,
  ) {
    this.embedderState = data.embedding === false ? 'off' : 'loading';
    this.embedderLoading = this.loadEmbedder();
  }

  start(): void {
    this.post({ type: 'ready', status: this.status(), openNotices: this.store.openNotices });
    this.port.on('message', (message: unknown) => this.receive(message));
  }

  private async loadEmbedder(): Promise<Embedder | undefined> {
    const settings = this.data.embedding;
    if (settings === false) return undefined;
    try {
      const embedder = await loadEmbedder({
        ...settings,
        onDownloadProgress: (progress) => this.post({ type: 'download', progress }),
      });
      this.embedder = embedder;
      this.embedderState = 'ready';
      this.post({
        type: 'log',
        level: 'info',
        message: `Embedding model loaded in the index worker: ${embedder.modelId} (${embedder.dimensions} dimensions).`,
      });
      return embedder;
    } catch (error) {
      this.embedderState = 'unavailable';
      this.embedderProblem = lexicalOnlyNotice((error as Error).message);
      this.post({ type: 'log', level: 'warn', message: this.embedderProblem.text });
      return undefined;
    } finally {
      this.post({ type: 'status', status: this.status() });
    }
  }

  private status(): WorkerStatus {
    return {
      ...this.store.status(),
      mode: this.store.mode(this.embedder),
      embedder: this.embedderState,
      ...(this.embedderProblem ? { embedderProblem: this.embedderProblem } : {}),
    };
  }

  private receive(message: unknown): void {
    if (!isToWorker(message)) {
      const id = (message as { id?: unknown } | null)?.id;
      const error = {
        name: 'TypeError',
        message: `The index worker received a malformed message (${describe(message)}).`,
      };
      if (Number.isInteger(id)) this.post({ type: 'error', id: id as number, error });
      else this.post({ type: 'log', level: 'error', message: error.message });
      return;
    }
    if (message.type === 'cancel') {
      this.running.get(message.id)?.abort();
      return;
    }
    this.call(message).then(
      (value) => this.post({ type: 'result', id: message.id, value }),
      (error: unknown) => this.post({ type: 'error', id: message.id, error: toWorkerError(error) }),
    );
  }

  private async call(message: Call): Promise<WorkerCalls[WorkerOp]['returns']> {
    if (message.op === 'index') return this.index(message.id, message.args);
    // A model still loading (a first download) does not hold answers back: after a short wait they
    // search by words, and say so (the turn's retrieval mode is lexical).
    const embedder = await Promise.race([this.embedderLoading, delay(SEARCH_WAITS_FOR_MODEL_MS)]);
    switch (message.op) {
      case 'search': {
        const found = await this.store.search(message.args.query, message.args.topK, embedder);
        return found;
      }
      case 'passages':
        return this.store.passages(message.args.ids);
      case 'termCounts':
        return this.store.termCountsJSON();
      case 'commonFolder':
        return this.store.commonFolder();
      case 'clear':
        await this.store.clear();
        this.post({ type: 'status', status: this.status() });
        return null;
      case 'similarity': {
        if (!embedder) return null;
        this.similarityOf ??= embedderSimilarity(embedder);
        return this.similarityOf.similarity(message.args.query, message.args.texts);
      }
    }
  }

  /**
   * An index run. While the embedding model is still loading (a first download), the lexical part
   * is indexed and committed without it, so answers need not wait for the download; then the
   * vectors are filled in by a second pass once the model is there (it reads nothing again).
   */
  private async index(id: number, args: WorkerCalls['index']['args']): Promise<WorkerCalls['index']['returns']> {
    const controller = new AbortController();
    this.running.set(id, controller);
    const docs = workspaceDocSource(this.data.docs.folders, {
      include: this.data.docs.include,
      exclude: this.data.docs.exclude,
    });
    let lexicalSaid = false;
    const options = (embedder: Embedder | undefined): IndexRunOptions => ({
      signal: controller.signal,
      embedder,
      paths: args.paths,
      commitEvery: args.commitEvery,
      onProgress: (progress) => {
        this.post({ type: 'progress', id, progress });
        if (progress.vectors) this.post({ type: 'status', status: this.status() });
      },
      onWaiting: (holder) => {
        const who = holder ? ` (pid ${holder.pid} on ${holder.host})` : '';
        this.post({
          type: 'log',
          level: 'info',
          message: `Another Evident process${who} is indexing this folder (another window, or evident index in a terminal): waiting for it; answers meanwhile come from what it has saved.`,
        });
      },
      onLexicalReady: () => {
        this.post({ type: 'status', status: this.status() });
        if (!lexicalSaid) this.post({ type: 'lexicalReady', id });
        lexicalSaid = true;
      },
    });
    try {
      // A model on disk loads in a moment: wait for it; a download is not waited for.
      await Promise.race([this.embedderLoading, delay(SEARCH_WAITS_FOR_MODEL_MS)]);
      if (this.embedderState === 'loading') {
        const first = await this.store.update(docs, options(undefined));
        const embedder = await this.embedderLoading;
        if (!embedder) return first;
        const second = await this.store.update(docs, options(embedder));
        // One run as the host sees it: what was read in the first pass, what was embedded in the second.
        return {
          ...second,
          added: first.added,
          updated: first.updated,
          removed: first.removed,
          unchanged: first.unchanged,
          skipped: first.skipped,
          notices: [...first.notices, ...second.notices],
          ms: first.ms + second.ms,
          ...(first.writeRefused && !second.writeRefused ? { writeRefused: first.writeRefused } : {}),
        };
      }
      return await this.store.update(docs, options(await this.embedderLoading));
    } finally {
      this.running.delete(id);
      this.post({ type: 'status', status: this.status() });
    }
  }

  private post(message: FromWorker): void {
    this.port.postMessage(message);
  }
}

function describe(message: unknown): string {
  if (message === null || typeof message !== 'object') return typeof message;
  const type = (message as { type?: unknown }).type;
  return typeof type === 'string' ? `type "${type.slice(0, 40)}"` : 'no type';
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('The index worker must run in a worker thread.');
  const data = workerData as IndexWorkerData;
  try {
    const docs = workspaceDocSource(data.docs.folders, { include: data.docs.include, exclude: data.docs.exclude });
    const store = await LocalPassageStore.open(data.indexDir, docs.root);
    new IndexWorker(port, store, data).start();
  } catch (error) {
    port.postMessage({ type: 'failed', error: toWorkerError(error) } satisfies FromWorker);
  }
}

void main();
