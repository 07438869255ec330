// A large run (a first index) commits its lexical part in batches of documents, so that the
// passages of the whole corpus are never held at once (docs/measurements.md, build peak memory).
// Real index on disk, real transformers.js embedder (tiny generated model).

import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource, type DocFile } from '../../../../../src/core/docs/docSource';
import { PassageIndex } from '../../../../../src/core/store/local/passageIndex';
import { readBatches } from '../../../../../src/core/indexing/changeSet';
import type { Embedder } from '../../../../../src/core/types';
import { manyDocs } from '../../../../support/manyDocs';
import { removeDir, tempDir, writeDocs } from '../../../../support/workspace';
import { loadTinyEmbedder } from '../../../../support/tinyEmbedder';

const DOCUMENTS = 50;
const QUERIES = [
  'travel approval limits',
  'who may ask for refunds',
  'records of equipment case 17',
  'business days privacy',
];

function file(p: string, size: number): DocFile {
  return { path: p, absPath: `/docs/${p}`, size, mtimeMs: 1, ctimeMs: 1, ino: 1 };
}

async function generation(indexDir: string): Promise<number> {
  return (JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8')) as { generation: number })
    .generation;
}

/** What an index answers: every passage, and the lexical hits of a few questions. */
async function contents(index: PassageIndex): Promise<unknown> {
  const passages = index.allPassages().sort((a, b) => a.id.localeCompare(b.id));
  return { passages, hits: QUERIES.map((q) => index.lexicalQuery(q, 8)), fill: index.vectorFill() };
}

describe('passage index: a large run commits its lexical part in batches (real index, real tiny embedding model)', function () {
  this.timeout(180_000);
  let docs: string;
  let oneBatch: string;
  let batched: string;
  let embedder: Embedder;

  before(async () => {
    embedder = await loadTinyEmbedder();
  });

  beforeEach(async () => {
    docs = await tempDir();
    oneBatch = await tempDir('evident-index-');
    batched = await tempDir('evident-index-');
    await writeDocs(docs, manyDocs(DOCUMENTS));
  });

  afterEach(async () => {
    for (const dir of [docs, oneBatch, batched]) await removeDir(dir);
  });

  it('splits the files to read into batches by size; files known unchanged cost nothing', () => {
    const files = [file('a.md', 600), file('b.md', 600), file('c.md', 600), file('d.md', 600), file('e.md', 100)];
    assert.deepEqual(
      readBatches(files, () => true, 1000).map((b) => b.map((f) => f.path)),
      [['a.md', 'b.md'], ['c.md', 'd.md'], ['e.md']],
    );
    assert.deepEqual(
      readBatches(files, (f) => f.path !== 'b.md' && f.path !== 'c.md', 1000).map((b) => b.map((f) => f.path)),
      [['a.md', 'b.md', 'c.md', 'd.md'], ['e.md']],
    );
    assert.deepEqual(readBatches(files, () => true, 10_000).length, 1);
    assert.deepEqual(
      readBatches([], () => true, 1000),
      [[]],
    );
  });

  it('gives the same passages, lexical hits and vectors as one batch, committed batch by batch (more than the segment limit, so compacted on the way)', async () => {
    const whole = await PassageIndex.open(oneBatch, docs);
    const wholeReport = await whole.update(folderDocSource(docs), { embedder, readBatchBytes: Infinity });
    assert.equal(await generation(oneBatch), 2, 'one lexical commit and one vector commit');

    const batches = readBatches(await folderDocSource(docs).list(), () => true, 1200).length;
    assert.ok(batches > 16, `${batches} batches: more than the passage segments allowed before compaction`);
    const parts = await PassageIndex.open(batched, docs);
    let lexicalReadyAt = -1;
    let reading = 0;
    const phases: string[] = [];
    const report = await parts.update(folderDocSource(docs), {
      embedder,
      readBatchBytes: 1200,
      onProgress: (p) => {
        if (p.phase === 'reading') reading = p.done;
        if (phases[phases.length - 1] !== p.phase) phases.push(p.phase);
      },
      onLexicalReady: () => (lexicalReadyAt = reading),
    });
    assert.equal(lexicalReadyAt, DOCUMENTS, 'answers are announced once every batch is committed');
    // Progress reads as one reading phase (a batch's save is part of it), then saving, then embedding.
    assert.deepEqual(phases, ['scanning', 'reading', 'saving', 'embedding']);
    assert.equal(
      await generation(batched),
      batches + 2,
      'a lexical commit per batch, one naming the embedding model, then the vectors',
    );
    const manifest = JSON.parse(await readFile(path.join(batched, 'manifest.json'), 'utf8')) as {
      lexicalDelta: { add: string[]; remove: string[] };
    };
    assert.deepEqual(
      manifest.lexicalDelta,
      { add: [], remove: [] },
      'every batch wrote a lexical snapshot: an open replays nothing',
    );
    assert.deepEqual(
      { added: report.added, documents: report.documents, passages: report.passages, embedded: report.embedded },
      {
        added: wholeReport.added,
        documents: wholeReport.documents,
        passages: wholeReport.passages,
        embedded: wholeReport.embedded,
      },
    );
    assert.deepEqual(await contents(parts), await contents(whole));
    // And from disk, in a new process's view.
    assert.deepEqual(await contents(await PassageIndex.open(batched, docs)), await contents(whole));
    const v = (await parts.vectorQuery((await embedder.embed(['travel approval']))[0], 5)).map((h) => h.id);
    assert.deepEqual(
      v,
      (await whole.vectorQuery((await embedder.embed(['travel approval']))[0], 5)).map((h) => h.id),
    );
  });

  it('keeps the batches committed before a cancel, and the next run reads only the documents not yet indexed', async () => {
    await (await PassageIndex.open(oneBatch, docs)).update(folderDocSource(docs), { readBatchBytes: Infinity });
    const index = await PassageIndex.open(batched, docs);
    const controller = new AbortController();
    const run = index.update(folderDocSource(docs), {
      readBatchBytes: 2000,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'reading' && p.done >= DOCUMENTS / 2) controller.abort();
      },
    });
    await assert.rejects(run, (error: Error) => error.name === 'AbortError');

    const reopened = await PassageIndex.open(batched, docs);
    const committed = reopened.documentCount;
    assert.ok(committed > 0 && committed <= DOCUMENTS / 2, `${committed} documents committed`);
    const report = await reopened.update(folderDocSource(docs), { readBatchBytes: 2000 });
    assert.equal(report.unchanged, committed, 'committed documents are not read again');
    assert.equal(report.added, DOCUMENTS - committed);
    assert.deepEqual(await contents(reopened), await contents(await PassageIndex.open(oneBatch, docs)));
  });

  it('an edit of a few files after a batched first index is one commit (no batches), and removals in a batched run are applied', async () => {
    const index = await PassageIndex.open(batched, docs);
    await index.update(folderDocSource(docs), { readBatchBytes: 2000 });
    const before = await generation(batched);
    await writeDocs(docs, {
      'travel/policy-0.md': '# travel policy 0\n\nTravel is now approved by the director within one day.\n',
    });
    await index.update(folderDocSource(docs), { readBatchBytes: 2000 });
    assert.equal(await generation(batched), before + 1);
    assert.deepEqual(index.lexicalQuery('director', 3).length, 1);

    // Many files changed and one removed: a batched run again.
    const changed = manyDocs(DOCUMENTS);
    for (const p of Object.keys(changed)) changed[p] = changed[p].replace(/manager/g, 'supervisor');
    delete changed['travel/policy-0.md'];
    await removeDir(docs);
    await writeDocs(docs, changed);
    const report = await index.update(folderDocSource(docs), { readBatchBytes: 2000 });
    assert.equal(report.removed, 1);
    assert.equal(report.updated, DOCUMENTS - 1);
    assert.equal(index.documentCount, DOCUMENTS - 1);
    assert.equal(index.lexicalQuery('manager', 5).length, 0, 'no passage of the old texts is left');
    assert.equal(index.lexicalQuery('director', 5).length, 0, 'the removed document is gone');
    assert.ok(index.lexicalQuery('supervisor', 5).length > 0);
  });
});
