// Bulk embedding on worker threads (src/core/retrieval/embeddingWorkers.ts, embeddingWorker.ts):
// the real all-MiniLM-L6-v2 (q8 and fp32), the worker's TypeScript source compiled on load
// (test/support/embeddingWorkerEntry.cjs), and fake workers that cannot start or die mid-run.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { loadEmbedder } from '../../../../src/core/retrieval/embedder';
import { padBatch, type PaddedBatch, type TokenRow } from '../../../../src/core/retrieval/embeddingBatches';
import {
  EmbeddingWorkers,
  EmbeddingWorkersBroken,
  LazyEmbeddingWorkers,
  type WorkerSet,
} from '../../../../src/core/retrieval/embeddingWorkers';
import { isFromEmbeddingWorker, isToEmbeddingWorker } from '../../../../src/core/retrieval/embeddingWorkerMessages';
import { requireRealModel } from '../../../support/realModel';

const SUPPORT = path.resolve(__dirname, '../../../support');
const ENTRY = path.join(SUPPORT, 'embeddingWorkerEntry.cjs');
const CANNOT_LOAD = path.join(SUPPORT, 'embeddingWorkerFakes/cannotLoad.cjs');
const DIES = path.join(SUPPORT, 'embeddingWorkerFakes/diesOnWork.cjs');

/** Texts of many lengths: several model calls, some of several texts, some alone. */
const TEXTS = Array.from(
  { length: 30 },
  (_, i) => `Item ${i}. ${'A supervisor approves travel before anything is booked; receipts follow. '.repeat(i % 7)}`,
);

/** A batch of fake token rows (ids only matter for the model; these are never run). */
const fakeBatch = (rows: number, width: number): PaddedBatch =>
  padBatch(
    Array.from({ length: rows }, () => {
      const row: TokenRow = {
        input_ids: { dims: [1, width], data: new BigInt64Array(width).fill(101n) },
        attention_mask: { dims: [1, width], data: new BigInt64Array(width).fill(1n) },
        token_type_ids: { dims: [1, width], data: new BigInt64Array(width) },
      };
      return row;
    }),
    0,
  );

const sameBits = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

describe('embedding workers: bulk embedding on worker threads, each with its own session (real all-MiniLM-L6-v2)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => {
    dir = requireRealModel();
  });

  for (const dtype of ['q8', 'fp32'] as const) {
    it(`${dtype}: an embedder with two workers gives every text the vector its own thread gives, bit for bit, in the input order`, async () => {
      const settings = { modelId: 'm', localModelPath: dir, allowRemote: false, dtype, workerScript: ENTRY };
      const own = await loadEmbedder({ ...settings, tuning: { workers: 0 } });
      const pooled = await loadEmbedder({ ...settings, tuning: { workers: 2 } });
      const [expected, got] = [await own.embed(TEXTS), await pooled.embed(TEXTS)];
      assert.equal(got.length, TEXTS.length);
      got.forEach((v, i) => assert.ok(sameBits(v, expected[i]), `text ${i}: the workers' vector differs`));
      // Not blind: neighbours differ.
      assert.ok(!sameBits(got[0], expected[1]));
    });
  }

  it('spreads the batches over its workers, each giving the vectors of its batch', async () => {
    const own = await loadEmbedder({ modelId: 'm', localModelPath: dir, allowRemote: false, tuning: { workers: 0 } });
    const { transformers } = await import('../../../../src/core/onnxRuntime').then((m) => m.importTransformers('auto'));
    const tokenizer = (await transformers.AutoTokenizer.from_pretrained(dir, {
      local_files_only: true,
    })) as unknown as (t: string[], o: { padding: boolean; truncation: boolean; max_length: number }) => TokenRow;
    const batches = TEXTS.slice(0, 12).map((t) => [
      tokenizer([t], { padding: false, truncation: true, max_length: 256 }),
    ]);
    const workers = await EmbeddingWorkers.start(
      ENTRY,
      { modelFile: path.join(dir, 'onnx/model_quantized.onnx'), threads: 1, spinning: false },
      2,
    );
    try {
      const out = await Promise.all(batches.map((rows) => workers.embed(padBatch(rows, 0))));
      // Each text alone, as each batch holds it (q8 activations are scaled per batch).
      for (const [i, vectors] of out.entries()) {
        assert.ok(sameBits(vectors[0], (await own.embed([TEXTS[i]]))[0]), `batch ${i}`);
      }
      const counts = workers.embeddedByWorker;
      assert.equal(counts.length, 2);
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        12,
      );
      assert.ok(
        counts.every((n) => n > 0),
        `every worker embedded some batches: ${counts.join(', ')}`,
      );
    } finally {
      await workers.close();
    }
  });

  it('an aborted call rejects with the abort, and sends none of its waiting batches', async () => {
    const workers = await EmbeddingWorkers.start(
      ENTRY,
      { modelFile: path.join(dir, 'onnx/model_quantized.onnx'), threads: 1, spinning: false },
      2,
    );
    try {
      const controller = new AbortController();
      const calls = Array.from({ length: 12 }, () => workers.embed(fakeBatch(1, 64), controller.signal));
      controller.abort();
      const results = await Promise.allSettled(calls);
      const aborted = results.filter((r) => r.status === 'rejected' && (r.reason as Error).name === 'AbortError');
      // At most two batches per worker were sent before the abort; the rest never reach a worker.
      assert.ok(aborted.length >= 8, `${aborted.length} of 12 calls aborted`);
      assert.ok(workers.embeddedByWorker.reduce((a, b) => a + b, 0) <= 4);
    } finally {
      await workers.close();
    }
  });

  it('the embedder goes on in its own thread when its workers die mid-run, with the same vectors', async () => {
    const settings = { modelId: 'm', localModelPath: dir, allowRemote: false };
    const own = await loadEmbedder({ ...settings, tuning: { workers: 0 } });
    const broken = await loadEmbedder({ ...settings, workerScript: DIES, tuning: { workers: 2 } });
    const [expected, got] = [await own.embed(TEXTS), await broken.embed(TEXTS)];
    got.forEach((v, i) => assert.ok(sameBits(v, expected[i]), `text ${i}`));
    // And the next call too (the workers are not started again).
    const [expectedAgain, again] = [await own.embed(TEXTS.slice(0, 10)), await broken.embed(TEXTS.slice(0, 10))];
    again.forEach((v, i) => assert.ok(sameBits(v, expectedAgain[i]), `again, text ${i}`));
  });

  it('idle workers keep no process alive: a process that embedded in bulk ends by itself', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(SUPPORT, 'bulkEmbedMain.ts'), dir, ENTRY], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let printedAt = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      printedAt ||= Date.now();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null | 'hung'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hung');
      }, 150_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    assert.equal(code, 0, `exit ${code}: ${err.slice(-500)}`);
    // At once, not when the idle workers are stopped (30 s later).
    const lingered = Date.now() - printedAt;
    assert.ok(lingered < 10_000, `the process lived ${lingered} ms after its work`);
    assert.match(out, /embedded 24/);
  });
});

describe('embedding workers: starting, failing, stopping', function () {
  this.timeout(60_000);

  it('start rejects, naming the reason, when a worker cannot load its model', async () => {
    await assert.rejects(
      EmbeddingWorkers.start(CANNOT_LOAD, { modelFile: '/nowhere', threads: 1, spinning: false }, 2),
      (e: Error) =>
        e instanceof EmbeddingWorkersBroken && /could not load the model: no model at \/nowhere/.test(e.message),
    );
  });

  it('a worker that exits mid-run rejects what it held and what waited, and the set embeds nothing more', async () => {
    const workers = await EmbeddingWorkers.start(DIES, { modelFile: '/unused', threads: 1, spinning: false }, 2);
    try {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => workers.embed(fakeBatch(1, 8))));
      assert.ok(
        results.every((r) => r.status === 'rejected' && r.reason instanceof EmbeddingWorkersBroken),
        JSON.stringify(results.map((r) => r.status)),
      );
      await assert.rejects(workers.embed(fakeBatch(1, 8)), EmbeddingWorkersBroken);
    } finally {
      await workers.close();
    }
  });

  it('lazy workers: started by the first call, stopped when idle and started again by the next, given up after a failure', async () => {
    let starts = 0;
    let closes = 0;
    const vector = new Float32Array([1, 0]);
    const fake = (): WorkerSet => ({
      embed: (b) => Promise.resolve(Array.from({ length: b.inputs.input_ids.dims[0] }, () => vector)),
      close: () => {
        closes++;
        return Promise.resolve();
      },
    });
    const lazy = new LazyEmbeddingWorkers(() => {
      starts++;
      return Promise.resolve(fake());
    }, 30);
    assert.equal(starts, 0, 'nothing starts before a call');
    assert.deepEqual(await lazy.embed([fakeBatch(2, 4), fakeBatch(1, 4)]), [[vector, vector], [vector]]);
    await lazy.embed([fakeBatch(1, 4)]);
    assert.equal(starts, 1, 'one start for calls in a row');
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(closes, 1, 'stopped when idle');
    await lazy.embed([fakeBatch(1, 4)]);
    assert.equal(starts, 2, 'started again by the next call');
    await lazy.close();

    let tries = 0;
    const failing = new LazyEmbeddingWorkers(() => {
      tries++;
      return Promise.reject(new EmbeddingWorkersBroken('cannot start'));
    });
    assert.equal(await failing.embed([fakeBatch(1, 4)]), undefined, 'undefined: the caller embeds in its own thread');
    assert.equal(await failing.embed([fakeBatch(1, 4)]), undefined);
    assert.equal(tries, 1, 'not started again after a failure');
  });

  it('the messages are checked on both sides', () => {
    const ids = new BigInt64Array(4);
    assert.ok(
      isToEmbeddingWorker({ type: 'embed', id: 1, rows: 2, width: 2, inputs: { input_ids: ids, attention_mask: ids } }),
    );
    assert.ok(
      !isToEmbeddingWorker({
        type: 'embed',
        id: 1,
        rows: 2,
        width: 3,
        inputs: { input_ids: ids, attention_mask: ids },
      }),
      'sizes must match rows × width',
    );
    assert.ok(!isToEmbeddingWorker({ type: 'embed', id: 1, rows: 2, width: 2, inputs: { input_ids: ids } }));
    assert.ok(isFromEmbeddingWorker({ type: 'embedded', id: 3, vectors: [new Float32Array(2)] }));
    assert.ok(!isFromEmbeddingWorker({ type: 'embedded', id: 3, vectors: [[0, 1]] }));
    assert.ok(!isFromEmbeddingWorker({ type: 'done', id: 3 }));
  });
});
