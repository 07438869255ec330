// The embedding workers of an embedder (embeddingWorker.ts): started together, each with its own
// ONNX session, they take a bulk embedding's batches one after another (each worker at most two
// at a time, so none waits for the next while the others work) and give back each batch's
// vectors. A worker that fails or exits rejects what it held and breaks the set: the embedder
// then goes on in its own thread. Idle workers do not keep a process alive.

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PaddedBatch } from './embeddingBatches';
import {
  isFromEmbeddingWorker,
  type EmbeddingWorkerData,
  type FromEmbeddingWorker,
  type ToEmbeddingWorker,
} from './embeddingWorkerMessages';

/** Batches a worker holds at once: one running, one waiting in its queue. */
const IN_FLIGHT = 2;
/** Workers unused this long are stopped (their sessions' memory freed); the next bulk call starts them again. */
const IDLE_MS = 30_000;

/** The worker script shipped beside the running bundle (dist/embeddingWorker.js), if there is one. */
export function bundledEmbeddingWorkerScript(): string | undefined {
  const file = path.join(__dirname, 'embeddingWorker.js');
  return existsSync(file) ? file : undefined;
}

/** Why the workers cannot embed (a worker failed to start, failed, or exited). */
export class EmbeddingWorkersBroken extends Error {}

/** What LazyEmbeddingWorkers needs of a set of workers. */
export interface WorkerSet {
  embed(batch: PaddedBatch, signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

interface Job {
  batch: PaddedBatch;
  signal?: AbortSignal;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  held: Map<number, Job>;
  /** Batches this worker embedded. */
  embedded: number;
}

export class EmbeddingWorkers implements WorkerSet {
  private readonly queue: Job[] = [];
  private nextId = 0;
  private broken: Error | undefined;
  private closed = false;

  private constructor(private readonly slots: Slot[]) {
    for (const slot of slots) {
      slot.worker.on('message', (m: unknown) => this.receive(slot, m));
      slot.worker.on('error', (error) =>
        this.fail(new EmbeddingWorkersBroken(`an embedding worker failed: ${error.message}`)),
      );
      slot.worker.on('exit', (code) => {
        if (!this.closed) this.fail(new EmbeddingWorkersBroken(`an embedding worker exited (code ${code})`));
      });
      slot.worker.unref();
    }
  }

  /** Starts `count` workers on `data`'s model; rejects (and stops them all) when one cannot load it. */
  static async start(script: string, data: EmbeddingWorkerData, count: number): Promise<EmbeddingWorkers> {
    const workers = Array.from({ length: count }, () => new Worker(script, { workerData: data }));
    try {
      await Promise.all(workers.map(ready));
    } catch (error) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw error;
    }
    return new EmbeddingWorkers(workers.map((worker) => ({ worker, held: new Map(), embedded: 0 })));
  }

  /** How many batches each worker embedded so far. */
  get embeddedByWorker(): number[] {
    return this.slots.map((s) => s.embedded);
  }

  /** The unit-length vectors of a batch's rows, from whichever worker is free first. */
  embed(batch: PaddedBatch, signal?: AbortSignal): Promise<Float32Array[]> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, signal, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.fail(new EmbeddingWorkersBroken('the embedding workers were closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.slots.reduce((a, b) => (b.held.size < a.held.size ? b : a));
      if (slot.held.size >= IN_FLIGHT) return;
      const job = this.queue.shift() as Job;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason instanceof Error ? job.signal.reason : new Error('aborted'));
        continue;
      }
      const id = this.nextId++;
      if (slot.held.size === 0) slot.worker.ref();
      slot.held.set(id, job);
      const { inputs, width } = job.batch;
      const message: ToEmbeddingWorker = {
        type: 'embed',
        id,
        rows: inputs.input_ids.dims[0],
        width,
        inputs: Object.fromEntries(Object.entries(inputs).map(([name, t]) => [name, t.data])),
      };
      slot.worker.postMessage(message);
    }
  }

  private receive(slot: Slot, message: unknown): void {
    if (!isFromEmbeddingWorker(message) || (message.type !== 'embedded' && message.type !== 'error')) {
      this.fail(new EmbeddingWorkersBroken('an embedding worker sent a malformed message'));
      return;
    }
    const job = slot.held.get(message.id);
    if (!job) return;
    slot.held.delete(message.id);
    if (slot.held.size === 0) slot.worker.unref();
    if (message.type === 'embedded') {
      slot.embedded++;
      job.resolve(message.vectors);
    } else job.reject(new Error(message.message));
    this.dispatch();
  }

  /** Rejects everything held or queued; the set embeds nothing more. */
  private fail(error: Error): void {
    this.broken ??= error;
    for (const slot of this.slots) {
      for (const job of slot.held.values()) job.reject(error);
      slot.held.clear();
      slot.worker.unref();
    }
    for (const job of this.queue.splice(0)) job.reject(error);
  }
}

/**
 * An embedder's workers: started by the first bulk call, stopped after IDLE_MS without one, and
 * given up for good when they cannot start or one fails (the embedder's own thread then embeds).
 */
export class LazyEmbeddingWorkers {
  private workers: Promise<WorkerSet | undefined> | undefined;
  private failed = false;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private calls = 0;

  constructor(
    private readonly start: () => Promise<WorkerSet>,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Each batch's vectors, in order; undefined when the workers cannot give them. Aborts reject. */
  async embed(batches: PaddedBatch[], signal?: AbortSignal): Promise<Float32Array[][] | undefined> {
    if (this.failed) return undefined;
    this.calls++;
    clearTimeout(this.idle);
    const starting = (this.workers ??= this.start().catch(() => this.giveUp()));
    try {
      const workers = await starting;
      if (!workers) return undefined;
      try {
        return await Promise.all(batches.map((b) => workers.embed(b, signal)));
      } catch (error) {
        signal?.throwIfAborted();
        if (!(error instanceof EmbeddingWorkersBroken)) throw error;
        await workers.close();
        return this.giveUp();
      }
    } finally {
      if (--this.calls === 0) this.closeWhenIdle();
    }
  }

  /** Stops the workers now (a later bulk call starts them again). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const workers = this.workers;
    this.workers = undefined;
    await (await workers)?.close();
  }

  private giveUp(): undefined {
    this.failed = true;
    this.workers = Promise.resolve(undefined);
    return undefined;
  }

  private closeWhenIdle(): void {
    if (this.failed) return;
    this.idle = setTimeout(() => void this.close(), this.idleMs);
    this.idle.unref();
  }
}

/** Waits for a new worker's first message: `ready`, or why it cannot embed. */
function ready(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      worker.off('message', onMessage);
      worker.off('error', done);
      worker.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (m: unknown) => {
      const message = m as FromEmbeddingWorker;
      if (!isFromEmbeddingWorker(m)) {
        done(new EmbeddingWorkersBroken('an embedding worker sent a malformed first message'));
      } else if (message.type === 'ready') done();
      else if (message.type === 'failed') {
        done(new EmbeddingWorkersBroken(`an embedding worker could not load the model: ${message.message}`));
      } else done(new EmbeddingWorkersBroken(`an embedding worker sent ${message.type} before ready`));
    };
    const onExit = (code: number) =>
      done(new EmbeddingWorkersBroken(`an embedding worker exited (code ${code}) before it was ready`));
    worker.on('message', onMessage);
    worker.on('error', done);
    worker.on('exit', onExit);
  });
}
