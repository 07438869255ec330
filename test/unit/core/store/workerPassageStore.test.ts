// The index worker over its real boundary: a node:worker_threads thread running
// src/core/indexWorker/worker.ts (compiled on load by tsx: test/support/indexWorkerEntry.cjs), a real index on disk and the real tiny embedding
// model. What crosses: progress, the lexical-ready signal, searches while vectors fill in,
// cancellation (an AbortError, committed vectors kept), errors with their names, and termination.

import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { folderDocSource } from '../../../../src/core/docs/docSource';
import type { IndexProgress } from '../../../../src/core/indexing/indexRun';
import { PassageIndex } from '../../../../src/core/store/local/passageIndex';
import { WorkerPassageStore } from '../../../../src/core/store/workerPassageStore';
import { isFromWorker, isToWorker } from '../../../../src/core/indexWorker/messages';
import { manyDocs } from '../../../support/manyDocs';
import { tinyEmbeddingModelDir, tinyEmbeddingSettings } from '../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

const SCRIPT = path.resolve(__dirname, '../../../support/indexWorkerEntry.cjs');
const DOCUMENTS = 40;

describe('index worker: a real worker thread owns the index; typed messages, cancellation and errors cross the boundary', function () {
  this.timeout(120_000);
  let docs: string;
  let indexDir: string;
  let modelDir: string;
  const open: WorkerPassageStore[] = [];

  const start = async (embedding = true, logs: string[] = []): Promise<WorkerPassageStore> => {
    const store = await WorkerPassageStore.open({
      script: SCRIPT,
      indexDir,
      docs: { folders: [{ name: 'docs', root: docs }] },
      embedding: embedding ? tinyEmbeddingSettings(modelDir) : false,
      log: (level, message) => logs.push(`${level}: ${message}`),
    });
    open.push(store);
    return store;
  };

  before(async () => {
    modelDir = await tinyEmbeddingModelDir();
  });

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, manyDocs(DOCUMENTS));
  });

  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('indexes in the worker: progress and the lexical-ready signal reach the host, then searches are hybrid', async () => {
    const store = await start();
    const phases = new Set<string>();
    let lexicalReadyAt = -1;
    const progress: IndexProgress[] = [];
    const report = await store.update(folderDocSource(docs), {
      commitEvery: { passages: 32 },
      onProgress: (p) => {
        phases.add(p.phase);
        progress.push(p);
      },
      onLexicalReady: () => (lexicalReadyAt = progress.length),
    });
    assert.equal(report.passages, DOCUMENTS * 4);
    assert.equal(report.embedded, DOCUMENTS * 4);
    assert.ok(lexicalReadyAt >= 0, 'the lexical-ready signal crossed');
    assert.ok(
      progress.slice(0, lexicalReadyAt).every((p) => p.phase !== 'embedding'),
      'lexical-ready comes before any embedding',
    );
    const fills = progress.filter((p) => p.vectors).map((p) => p.vectors?.passagesWithVectors ?? -1);
    assert.ok(
      fills.length > 2 && fills.every((n, i) => i === 0 || n >= fills[i - 1]),
      `the figure only grows: ${fills.join(',')}`,
    );
    assert.deepEqual([...phases].sort(), ['embedding', 'reading', 'saving', 'scanning']);
    assert.equal(store.mode(), 'hybrid');
    assert.deepEqual(store.status().vectors, { passagesWithVectors: DOCUMENTS * 4, passages: DOCUMENTS * 4 });
    const found = await store.search('security approval business days', 3);
    assert.equal(found.mode, 'hybrid');
    assert.equal(found.passages.length, 3);
    const [first] = await store.passages([found.passages[0].passage.id, 'no-such-id']);
    assert.equal(first.id, found.passages[0].passage.id);
    assert.ok((await store.termStats([])).idf('approv') > 0);
    assert.equal(await store.commonFolder(), '');
  });

  it("compares texts with the worker's embedding model (TextSimilarity across the boundary), and offers none without one", async () => {
    const lexical = await start(false);
    await lexical.update(folderDocSource(docs), {});
    assert.equal(lexical.similarity(), undefined, 'a lexical-only worker offers no similarity');
    await lexical.close();
    const store = await start();
    await store.update(folderDocSource(docs), {});
    const similarity = store.similarity();
    assert.ok(similarity, 'no similarity with the model loaded in the worker');
    // The generated tiny model (no meaning): the scores' shape and the identity are what is checked here.
    const scores = await similarity.similarity('security approval', ['security approval', 'equipment limits', 'lunch']);
    assert.equal(scores.length, 3);
    assert.ok(Math.abs(scores[0] - 1) < 1e-5, `a text is as close as can be to itself: ${scores[0]}`);
    assert.ok(scores.every((x) => x >= -1 - 1e-6 && x <= 1 + 1e-6));
  });

  it('answers searches while it is still embedding (from the committed lexical part), with the partial figure', async () => {
    const store = await start();
    let during: { mode: string; count: number; vectors?: number } | undefined;
    let searching: Promise<void> | undefined;
    const run = store.update(folderDocSource(docs), {
      commitEvery: { passages: 32 },
      onProgress: (p) => {
        if (p.phase === 'embedding' && p.vectors && p.vectors.passagesWithVectors >= 32 && !searching) {
          searching = store.search('equipment limits manager', 4).then((found) => {
            during = {
              mode: found.mode,
              count: found.passages.length,
              vectors: store.status().vectors?.passagesWithVectors,
            };
          });
        }
      },
    });
    await run;
    await searching;
    assert.ok(during, 'a search ran during the fill');
    assert.equal(during.count, 4);
    assert.equal(during.mode, 'hybrid');
    assert.ok((during.vectors ?? 0) < DOCUMENTS * 4, 'the index was still partial when it answered');
  });

  it('cancellation crosses as an AbortError and keeps the committed vectors; the next run embeds only the rest', async () => {
    const store = await start();
    const controller = new AbortController();
    await assert.rejects(
      store.update(folderDocSource(docs), {
        signal: controller.signal,
        commitEvery: { passages: 32 },
        onProgress: (p) => {
          if (p.vectors && p.vectors.passagesWithVectors >= 64) controller.abort();
        },
      }),
      (error: Error) => error.name === 'AbortError',
    );
    const kept = store.status().vectors?.passagesWithVectors ?? 0;
    assert.ok(kept >= 64 && kept < DOCUMENTS * 4, `kept ${kept}`);
    await store.close();
    const index = await PassageIndex.open(indexDir, docs);
    assert.equal(index.vectorFill().passagesWithVectors, kept, 'what the worker committed is on disk');

    const again = await start();
    const report = await again.update(folderDocSource(docs), {});
    assert.equal(report.embedded, DOCUMENTS * 4 - kept);
  });

  it('errors cross with a clear message: a worker that cannot open its index, a malformed message, a terminated worker', async () => {
    // The index folder is a file: the worker fails to open it and says why.
    const file = path.join(indexDir, 'not-a-folder');
    await writeFile(file, 'x');
    const badDir = indexDir;
    indexDir = file;
    await assert.rejects(start(false), (error: NodeJS.ErrnoException) =>
      /EEXIST|ENOTDIR/.test(`${error.code} ${error.message}`),
    );
    indexDir = badDir;

    const logs: string[] = [];
    const store = await start(false, logs);
    store.postRaw({ type: 'call', op: 'dropEverything', args: {} });
    const deadline = Date.now() + 5_000;
    while (!logs.some((l) => /malformed message/.test(l)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(
      logs.some((l) => l.startsWith('error: ') && /malformed message/.test(l)),
      logs.join('\n'),
    );
    // Still serving after refusing it.
    await store.update(folderDocSource(docs), {});
    assert.equal(store.mode(), 'lexical');
    assert.equal((await store.search('privacy records', 2)).passages.length, 2);

    // Terminated mid-run: the run fails with a message that says what to do; later calls too.
    const running = assert.rejects(
      store.update(folderDocSource(docs), { paths: [] }),
      (error: Error) => error.name === 'IndexWorkerStopped' && /Reindex/.test(error.message),
    );
    await store.close();
    await running;
    await assert.rejects(store.search('x', 1), /index worker stopped/);
  });

  it('commits the lexical part without waiting for an embedding model that is still loading (a slow hub)', async () => {
    // A local stand-in for the model hub that answers only after 8 s, and then with 404.
    const hub = createServer((_req, res) => setTimeout(() => res.writeHead(404).end(), 8_000));
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
    try {
      const port = (hub.address() as AddressInfo).port;
      const store = await WorkerPassageStore.open({
        script: SCRIPT,
        indexDir,
        docs: { folders: [{ name: 'docs', root: docs }] },
        embedding: {
          modelId: 'some-org/some-model',
          cacheDir: path.join(indexDir, 'models'),
          allowRemote: true,
          hubEndpoint: `http://127.0.0.1:${port}`,
          probeTimeoutMs: 10_000,
        },
      });
      open.push(store);
      const started = Date.now();
      let lexicalAfter = -1;
      let embedderThen = '';
      let searched: Promise<{ mode: string; count: number; after: number }> | undefined;
      const report = await store.update(folderDocSource(docs), {
        onLexicalReady: () => {
          lexicalAfter = Date.now() - started;
          embedderThen = store.workerStatus.embedder;
          searched = store
            .search('travel approval', 3)
            .then((r) => ({ mode: r.mode, count: r.passages.length, after: Date.now() - started }));
        },
      });
      assert.equal(embedderThen, 'loading', 'the lexical part was committed while the model was still loading');
      const found = await searched;
      assert.ok(found, 'a search was asked at the lexical commit');
      assert.equal(found.mode, 'lexical');
      assert.equal(found.count, 3);
      assert.ok(
        found.after < 7_000 && found.after - lexicalAfter < 4_000,
        `answered ${found.after - lexicalAfter} ms after the lexical commit: it did not wait for the model (8 s)`,
      );
      assert.ok(lexicalAfter < 8_000, `lexical after ${lexicalAfter} ms`);
      assert.equal(report.passages, DOCUMENTS * 4);
      assert.equal(store.workerStatus.embedder, 'unavailable');
      assert.equal(store.mode(), 'lexical');
      assert.match(store.workerStatus.embedderProblem?.text ?? '', /could not be downloaded \(HTTP 404\)/);
    } finally {
      hub.close();
    }
  });

  it('the message guards refuse what is not a message of the protocol', () => {
    assert.equal(isToWorker({ type: 'call', id: 1, op: 'search', args: { query: 'q', topK: 2 } }), true);
    assert.equal(isToWorker({ type: 'call', id: 1, op: 'eval', args: {} }), false);
    assert.equal(isToWorker({ type: 'cancel', id: -1 }), false);
    assert.equal(isFromWorker({ type: 'result', id: 3, value: null }), true);
    assert.equal(isFromWorker({ type: 'error', id: 3, error: { message: 'no name' } }), false);
    assert.equal(
      isFromWorker({ type: 'status', status: { indexed: true, documents: 1, passages: 1, mode: 'semantic' } }),
      false,
    );
  });
});
