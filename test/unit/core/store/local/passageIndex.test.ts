import { strict as assert } from 'node:assert';
import { readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource } from '../../../../../src/core/docs/docSource';
import { loadEmbedder, EmbedderUnavailable } from '../../../../../src/core/retrieval/embedder';
import { PassageIndex } from '../../../../../src/core/store/local/passageIndex';
import { INDEX_FORMAT_VERSION } from '../../../../../src/core/indexing/indexRun';
import { HybridRetriever } from '../../../../../src/core/retrieval/hybridRetriever';
import type { Embedder } from '../../../../../src/core/types';
import { isCoordinationFile, removeDir, snapshot, tempDir, writeDocs } from '../../../../support/workspace';
import { loadTinyEmbedder } from '../../../../support/tinyEmbedder';

const DOCS = {
  'refunds.md':
    '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n\n## Monthly plans\n\nMonthly plans are not refundable.\n',
  'travel/lodging.md': '# Lodging\n\nHotel stays are reimbursed up to 180 dollars per night in large cities.\n',
  'security.md': '# Passwords\n\nPasswords must be at least 14 characters long and stored in the password manager.\n',
  'node_modules/pkg/readme.md': '# Not a policy\n\nThis must never be indexed.\n',
};

/** Counts what the embedder is asked to embed, around the real transformers.js embedder. */
function counting(embedder: Embedder): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    texts,
    embed: (batch, signal) => {
      texts.push(...batch);
      return embedder.embed(batch, signal);
    },
  };
}

describe('passage index: vector segments + own BM25 index on disk, real transformers.js embeddings (tiny generated model)', function () {
  this.timeout(120_000);
  let docs: string;
  let indexDir: string;
  let embedder: Embedder;

  before(async () => {
    embedder = await loadTinyEmbedder();
  });

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, DOCS);
  });

  afterEach(async () => {
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('loads the generated model through transformers.js and embeds to its declared size', async () => {
    assert.equal(embedder.dimensions, 64);
    const [a, b, c] = await embedder.embed([
      'annual plan refunds',
      'refunds for annual plans',
      'password length rules',
    ]);
    const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0);
    assert.ok(cos(a, b) > cos(a, c), 'related texts are closer than unrelated ones');
  });

  it('indexes Markdown into passages with lexical and vector entries, skipping node_modules', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const e = counting(embedder);
    const report = await index.update(folderDocSource(docs), { embedder: e });
    assert.equal(report.documents, 3);
    assert.equal(report.passages, 4);
    assert.equal(report.added, 3);
    assert.equal(report.embedded, 4);
    assert.equal(report.retrieval, 'hybrid');
    assert.ok(index.allPassages().every((p) => !p.source.startsWith('node_modules')));
    const retriever = new HybridRetriever(index, embedder);
    assert.equal(retriever.mode, 'hybrid');
    const hits = await retriever.search('refund for an annual plan', 2);
    assert.equal(hits[0].passage.source, 'refunds.md');
    assert.equal(hits[0].passage.heading, 'Refunds > Annual plans');
  });

  it('does not re-embed unchanged documents, re-embeds only new passages of a changed one, removes deleted ones', async () => {
    let index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });

    // Re-open from disk: a second run with nothing changed embeds nothing.
    index = await PassageIndex.open(indexDir, docs);
    let e = counting(embedder);
    let report = await index.update(folderDocSource(docs), { embedder: e });
    assert.equal(report.unchanged, 3);
    assert.equal(e.texts.length, 0);

    // Change one section of one document: only that passage is embedded again.
    await writeDocs(docs, { 'refunds.md': DOCS['refunds.md'].replace('not refundable', 'never refundable') });
    e = counting(embedder);
    report = await index.update(folderDocSource(docs), { embedder: e });
    assert.equal(report.updated, 1);
    assert.equal(e.texts.length, 1);
    assert.match(e.texts[0], /never refundable/);

    // Touch a file without changing its content: same hash, nothing embedded.
    await writeFile(path.join(docs, 'security.md'), DOCS['security.md']);
    e = counting(embedder);
    report = await index.update(folderDocSource(docs), { embedder: e });
    assert.equal(report.updated, 0);
    assert.equal(e.texts.length, 0);

    // Delete a document: its passages leave both indexes.
    await unlink(path.join(docs, 'travel/lodging.md'));
    report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.removed, 1);
    assert.equal(report.documents, 2);
    const retriever = new HybridRetriever(index, embedder);
    const hits = await retriever.search('hotel lodging per night', 6);
    assert.ok(hits.every((h) => h.passage.source !== 'travel/lodging.md'));
  });

  it('updates only the given paths in a watcher-style run', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    await writeDocs(docs, {
      'new.md': '# New\n\nVisitors must sign in at reception.\n',
      'security.md': '# Passwords\n\nPasswords must be at least 16 characters long.\n',
    });
    const report = await index.update(folderDocSource(docs), { embedder, paths: ['new.md'] });
    assert.equal(report.added, 1);
    assert.equal(report.updated, 0, 'security.md was not among the paths');
    assert.ok(index.allPassages().some((p) => p.text.includes('14 characters')));
  });

  it('never writes inside the docs folder', async () => {
    const before = await snapshot(docs);
    const index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    assert.deepEqual(await snapshot(docs), before);
  });

  it('warns about and skips binary, non-UTF-8 and huge files without failing the run', async () => {
    await writeDocs(docs, {
      'binary.md': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
      'latin1.md': new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x72, 0xe8, 0x67, 0x6c, 0x65]),
      'huge.md': 'word '.repeat(600_000),
    });
    const index = await PassageIndex.open(indexDir, docs);
    const report = await index.update(folderDocSource(docs), { embedder });
    const reasons = Object.fromEntries(report.skipped.map((s) => [s.path, s.reason]));
    assert.match(reasons['binary.md'], /binary/);
    assert.match(reasons['latin1.md'], /UTF-8/);
    assert.match(reasons['huge.md'], /too large/);
    assert.equal(report.documents, 3, 'the good documents are still indexed');
  });

  it('rebuilds a corrupt manifest with a notice, and an index of an older format', async () => {
    let index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    await writeFile(path.join(indexDir, 'manifest.json'), '{"formatVersion": 3, "docs');
    index = await PassageIndex.open(indexDir, docs);
    assert.match(index.openNotices.map((n) => n.text).join(' '), /unreadable.*rebuilding/);
    assert.deepEqual(
      index.openNotices.map((n) => n.code),
      ['index-damaged'],
    );
    assert.equal(index.isIndexed, false);
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.passages, 4);

    const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    manifest.formatVersion = INDEX_FORMAT_VERSION - 1;
    await writeFile(path.join(indexDir, 'manifest.json'), JSON.stringify(manifest));
    index = await PassageIndex.open(indexDir, docs);
    assert.match(index.openNotices.map((n) => n.text).join(' '), /format \d+.*rebuilding/);
    assert.deepEqual(
      index.openNotices.map((n) => n.code),
      ['index-format-changed'],
    );
    assert.equal((await index.update(folderDocSource(docs), { embedder })).embedded, 4);
  });

  it('rebuilds a corrupt or foreign lexical index from the stored passages, with a notice', async () => {
    let index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    const lexicalFile = (await readdir(indexDir)).find((n) => n.startsWith('lexical-')) ?? '';
    await writeFile(path.join(indexDir, lexicalFile), 'not a lexical index at all, just text');
    index = await PassageIndex.open(indexDir, docs);
    assert.match(
      index.openNotices.map((n) => n.text).join(' '),
      /lexical index (is damaged|was unreadable).*rebuilding it from the stored passages/,
    );
    assert.deepEqual(
      index.openNotices.map((n) => n.code),
      ['lexical-index-damaged'],
    );
    assert.ok(index.lexicalQuery('refund', 6).length > 0);
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.passages, 4);
    assert.equal(report.embedded, 0, 'the vectors were kept');
    index = await PassageIndex.open(indexDir, docs);
    assert.deepEqual(index.openNotices, []);
    assert.ok(index.lexicalQuery('refund', 6).length > 0, 'the saved lexical index loads and answers');
  });

  it('rebuilds the vectors when the vector file is corrupt', async () => {
    let index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    const f32 = (await readdir(indexDir)).find((n) => n.endsWith('.f32')) ?? '';
    await writeFile(path.join(indexDir, f32), 'not a vector file');
    index = await PassageIndex.open(indexDir, docs);
    assert.match(index.openNotices.map((n) => n.text).join(' '), /vector file is damaged/);
    assert.deepEqual(
      index.openNotices.map((n) => n.code),
      ['vector-file-damaged'],
    );
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.embedded, 4);
    assert.equal(new HybridRetriever(index, embedder).mode, 'hybrid');
  });

  it('re-embeds everything when the embedding model changes', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    const other: Embedder = {
      modelId: 'other-model',
      dimensions: embedder.dimensions,
      embed: (t, s) => embedder.embed(t, s),
    };
    const report = await index.update(folderDocSource(docs), { embedder: other });
    assert.equal(report.embedded, 4);
    assert.match(report.notices.map((n) => n.text).join(' '), /Embedding model changed/);
    assert.deepEqual(
      report.notices.map((n) => n.code),
      ['embedding-model-changed'],
    );
  });

  it('is lexical only without an embedder, and says so in the report', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const report = await index.update(folderDocSource(docs), {});
    assert.equal(report.retrieval, 'lexical');
    const retriever = new HybridRetriever(index, undefined);
    assert.equal(retriever.mode, 'lexical');
    const hits = await retriever.search('password characters', 3);
    assert.equal(hits[0].passage.source, 'security.md');
  });

  it('keeps the committed lexical part, and no vector, when a run is cancelled at its first embedding batch', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const controller = new AbortController();
    const aborting: Embedder = {
      modelId: embedder.modelId,
      dimensions: embedder.dimensions,
      embed: async () => {
        controller.abort();
        throw controller.signal.reason;
      },
    };
    await assert.rejects(
      index.update(folderDocSource(docs), { embedder: aborting, signal: controller.signal }),
      /abort/i,
    );
    assert.equal(index.isIndexed, true);
    assert.equal(index.passageCount, 4);
    const reopened = await PassageIndex.open(indexDir, docs);
    assert.equal(reopened.isIndexed, true);
    assert.deepEqual(reopened.vectorFill(), { passagesWithVectors: 0, passages: 4 });
    assert.equal(reopened.lexicalQuery('password characters', 1)[0] !== undefined, true);
  });

  it('leaves the index as it was when a run is cancelled while reading', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const controller = new AbortController();
    const run = index.update(folderDocSource(docs), {
      embedder,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'reading' && p.done === 1) controller.abort();
      },
    });
    await assert.rejects(run, /abort/i);
    assert.equal(index.isIndexed, false);
    const reopened = await PassageIndex.open(indexDir, docs);
    assert.equal(reopened.isIndexed, false);
    assert.deepEqual(
      (await readdir(indexDir)).filter((n) => n !== 'manifest.json' && !isCoordinationFile(n)),
      [],
    );
  });

  it('fails fast, without network, when no embedding model is available', async () => {
    const started = Date.now();
    await assert.rejects(
      loadEmbedder({ modelId: 'Xenova/all-MiniLM-L6-v2', cacheDir: path.join(indexDir, 'models'), allowRemote: false }),
      (error: Error) => error instanceof EmbedderUnavailable && /not downloaded/.test(error.message),
    );
    await assert.rejects(
      loadEmbedder({ modelId: 'x', localModelPath: path.join(indexDir, 'nothing-here'), allowRemote: false }),
      /config\.json not found/,
    );
    assert.ok(Date.now() - started < 10_000);
    await rm(path.join(indexDir, 'models'), { recursive: true, force: true });
  });
});
