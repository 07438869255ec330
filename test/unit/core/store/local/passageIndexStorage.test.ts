import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { chmod, readdir, readFile, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource } from '../../../../../src/core/docs/docSource';
import { HybridRetriever } from '../../../../../src/core/retrieval/hybridRetriever';
import { PassageIndex } from '../../../../../src/core/store/local/passageIndex';
import { termText } from '../../../../../src/core/indexing/indexRun';
import { termStatsFromTexts } from '../../../../../src/core/text/termStats';
import type { Embedder } from '../../../../../src/core/types';
import { killDuringSave } from '../../../../../bench/crash/killDuringSave';
import { loadTinyEmbedder, tinyEmbeddingModelDir } from '../../../../support/tinyEmbedder';
import { unprivilegedRunner } from '../../../../support/unprivilegedRun';
import { removeDir, indexSnapshot, tempDir, writeDocs } from '../../../../support/workspace';

const DOCS = {
  'refunds.md':
    '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n\n## Monthly plans\n\nMonthly plans are not refundable.\n',
  'travel/lodging.md': '# Lodging\n\nHotel stays are reimbursed up to 180 dollars per night in large cities.\n',
  'security.md': '# Passwords\n\nPasswords must be at least 14 characters long and stored in the password manager.\n',
};
const RUNNER = path.resolve(__dirname, '../../../../support/indexRun.ts');

describe('index storage: writes only what changed, crash-safe, damage detected and rebuilt as little as needed', function () {
  this.timeout(180_000);
  let docs: string;
  let indexDir: string;
  let modelDir: string;
  let embedder: Embedder;

  before(async () => {
    modelDir = await tinyEmbeddingModelDir();
    embedder = await loadTinyEmbedder(modelDir);
  });

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, DOCS);
  });

  afterEach(async () => {
    await chmod(indexDir, 0o755).catch(() => undefined);
    for (const entry of await readdir(indexDir, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await chmod(path.join(indexDir, entry.name), 0o755).catch(() => undefined);
    }
    await removeDir(docs);
    await removeDir(indexDir);
  });

  const build = async () => {
    const index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    return index;
  };

  it('writes nothing when nothing changed (an `ask` on an up-to-date index)', async () => {
    await build();
    const before = await indexSnapshot(indexDir);
    const index = await PassageIndex.open(indexDir, docs);
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.unchanged, 3);
    assert.deepEqual(await indexSnapshot(indexDir), before);
  });

  it('loads a lazily given model only when the run has passages to embed', async () => {
    await build();
    let loads = 0;
    const lazyEmbedder = {
      modelId: embedder.modelId,
      load: async () => {
        loads++;
        return embedder;
      },
    };
    const index = await PassageIndex.open(indexDir, docs);
    const unchanged = await index.update(folderDocSource(docs), { lazyEmbedder });
    assert.equal(loads, 0, 'nothing to embed: the model is not loaded');
    assert.equal(unchanged.retrieval, 'hybrid');
    await writeFile(path.join(docs, 'security.md'), '# Passwords\n\nPasswords must be at least 16 characters long.\n');
    const edited = await index.update(folderDocSource(docs), { lazyEmbedder });
    assert.equal(loads, 1);
    assert.equal(edited.embedded, 1);
    const other = await index.update(folderDocSource(docs), {
      lazyEmbedder: {
        modelId: 'another-model',
        load: async () => {
          loads++;
          return undefined;
        },
      },
    });
    assert.equal(loads, 2, 'vectors of another model: the model is needed');
    assert.equal(other.retrieval, 'lexical', 'a model that cannot be loaded makes the run lexical');
  });

  it('saves an edit as a new passage segment holding only the edited document, and a vector segment of its new passages', async () => {
    await build();
    const index = await PassageIndex.open(indexDir, docs);
    await writeFile(path.join(docs, 'security.md'), '# Passwords\n\nPasswords must be at least 16 characters long.\n');
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.embedded, 1);
    const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.passages.length, 2, 'the first segment is kept, one segment added');
    const newest = await readFile(path.join(indexDir, manifest.passages[1].name), 'utf8');
    assert.equal(newest.trim().split('\n').length, 1, 'one line: the edited document');
    assert.match(newest, /16 characters/);
    assert.equal(manifest.vectors.length, 2);
    assert.equal(manifest.vectors[1].rows, 1);
    const hits = await new HybridRetriever(await PassageIndex.open(indexDir, docs), embedder).search(
      'password length',
      3,
    );
    assert.match(hits[0].passage.text, /16 characters/);
  });

  it('lists an edit in the manifest without reading or rewriting the lexical snapshot, and answers like an index built afresh', async () => {
    await build();
    const before = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    const index = await PassageIndex.open(indexDir, docs);
    await writeFile(
      path.join(docs, 'security.md'),
      '# Passwords\n\nPasswords must be rotated every year and kept in the hotel safe.\n',
    );
    await writeDocs(docs, { 'leave.md': '# Leave\n\nAnnual leave accrues every pay period.\n' });
    await index.update(folderDocSource(docs), { embedder });
    const after = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    assert.equal(after.lexical.name, before.lexical.name, 'the snapshot is kept');
    assert.equal(after.lexicalDelta.add.length, 2);
    assert.equal(after.lexicalDelta.remove.length, 1);

    const freshDir = await tempDir('evident-index-');
    try {
      const fresh = await PassageIndex.open(freshDir, docs);
      await fresh.update(folderDocSource(docs), { embedder });
      const reopened = await PassageIndex.open(indexDir, docs);
      for (const q of ['password rotated hotel', 'annual leave', 'hotel per night', 'password manager 14 characters']) {
        assert.deepEqual(index.lexicalQuery(q, 6), fresh.lexicalQuery(q, 6), `same process: ${q}`);
        assert.deepEqual(reopened.lexicalQuery(q, 6), fresh.lexicalQuery(q, 6), `reopened: ${q}`);
      }
      assert.deepEqual(reopened.sources().sort(), ['leave.md', 'refunds.md', 'security.md', 'travel/lodging.md']);
      assert.equal(reopened.passageCount, fresh.passageCount);
    } finally {
      await removeDir(freshDir);
    }
  });

  it('keeps term statistics equal to a recount of every passage, across edits, removals and reopening', async () => {
    await build();
    await writeFile(
      path.join(docs, 'security.md'),
      '# Passwords\n\nPasswords must be rotated every year and never shared.\n',
    );
    await writeDocs(docs, { 'leave.md': '# Leave\n\nAnnual leave accrues every pay period.\n' });
    const { unlink } = await import('node:fs/promises');
    await unlink(path.join(docs, 'travel/lodging.md'));
    await (await PassageIndex.open(indexDir, docs)).update(folderDocSource(docs), { embedder });
    const index = await PassageIndex.open(indexDir, docs);
    const recount = termStatsFromTexts(index.allPassages().map(termText));
    const stored = index.termStats();
    for (const term of ['password', 'rotat', 'leav', 'annual', 'hotel', 'refund', 'never-seen']) {
      assert.equal(stored.idf(term), recount.idf(term), term);
    }
    assert.ok(stored.idf('hotel') > stored.idf('annual'), "a removed document's terms are unseen again");
  });

  it('stores term counts on the next run of an index written without them, and then writes nothing', async () => {
    await (await build()).close();
    const manifestFile = path.join(indexDir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    delete manifest.terms;
    await writeFile(manifestFile, JSON.stringify(manifest));
    let index = await PassageIndex.open(indexDir, docs);
    const termsFiles = async () => (await readdir(indexDir)).filter((n) => n.startsWith('terms-'));
    const unreferenced = await termsFiles();
    await index.update(folderDocSource(docs), { embedder });
    assert.ok(
      (await termsFiles()).length === 1 && !(await termsFiles()).includes(unreferenced[0]),
      `the unreferenced file was removed by the run, a new one written: ${unreferenced} → ${await termsFiles()}`,
    );
    const before = await indexSnapshot(indexDir);
    index = await PassageIndex.open(indexDir, docs);
    await index.update(folderDocSource(docs), { embedder });
    assert.deepEqual(await indexSnapshot(indexDir), before);
  });

  it('detects a cut-off vector file, says so, and re-embeds only the passages it held', async () => {
    await build();
    await writeDocs(docs, { 'leave.md': '# Leave\n\nAnnual leave accrues at four hours per pay period.\n' });
    await (await PassageIndex.open(indexDir, docs)).update(folderDocSource(docs), { embedder });
    const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    const second = manifest.vectors[1];
    await truncate(path.join(indexDir, `${second.stem}.f32`), 100);
    const index = await PassageIndex.open(indexDir, docs);
    assert.match(
      index.openNotices.map((n) => n.text).join(' '),
      /vector file is damaged \(vectors-\S+\.f32 has 100 of its \d+ bytes\): its 1 passages will be embedded again/,
    );
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.embedded, 1, "only the cut-off file's passage");
    const hits = await new HybridRetriever(index, embedder).search('annual leave accrual', 2);
    assert.equal(hits[0].passage.source, 'leave.md');
    assert.deepEqual((await PassageIndex.open(indexDir, docs)).openNotices, []);
  });

  it('detects a cut-off passage file and re-reads the documents without re-embedding them', async () => {
    await build();
    const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    await truncate(path.join(indexDir, manifest.passages[0].name), 10);
    const index = await PassageIndex.open(indexDir, docs);
    assert.match(index.openNotices.map((n) => n.text).join(' '), /index is damaged .*re-reading the documents/);
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.passages, 4);
    assert.equal(report.embedded, 0, 'the vectors were intact');
    assert.equal(
      (await new HybridRetriever(index, embedder).search('hotel per night', 1))[0].passage.source,
      'travel/lodging.md',
    );
  });

  it('rebuilds only the lexical index when its file cannot be read, keeping documents and vectors', async () => {
    await build();
    const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    const garbage = 'x'.repeat(manifest.lexical.bytes);
    await writeFile(path.join(indexDir, manifest.lexical.name), garbage);
    const index = await PassageIndex.open(indexDir, docs);
    assert.match(
      index.openNotices.map((n) => n.text).join(' '),
      /lexical index was unreadable .*rebuilding it from the stored passages/,
    );
    assert.equal(index.passageCount, 4);
    assert.equal(new HybridRetriever(index, undefined).mode, 'lexical');
    assert.equal(
      (await new HybridRetriever(index, undefined).search('hotel per night', 1))[0].passage.source,
      'travel/lodging.md',
    );
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.embedded, 0);
    assert.deepEqual((await PassageIndex.open(indexDir, docs)).openNotices, []);
  });

  it('removes stale temporary files and files of uncommitted generations in the next run (under the writer lock), not on open', async () => {
    await build();
    const stale = ['manifest.json.4242.tmp', 'documents-99.json', 'vectors-99-0.f32', 'passages-7.jsonl.999.tmp'];
    for (const name of stale) await writeFile(path.join(indexDir, name), 'left by a crash');
    const names = new Set(await readdir(indexDir));
    assert.ok(stale.every((n) => names.has(n)));
    const index = await PassageIndex.open(indexDir, docs);
    assert.ok(
      stale.every((n) => names.has(n)),
      'opening removes nothing (another process may be writing them)',
    );
    await index.update(folderDocSource(docs), { embedder });
    const after = await readdir(indexDir);
    assert.deepEqual(
      after.filter((n) => stale.includes(n)),
      [],
    );
    assert.equal(index.passageCount, 4);
  });

  it('sees an edit that keeps the size and restores the mtime (ctime/inode compared too)', async () => {
    const file = path.join(docs, 'travel/lodging.md');
    // A whole-second mtime, which utimes can restore exactly (as archive tools and editors do).
    await utimes(file, 1_700_000_000, 1_700_000_000);
    await build();
    const before = await stat(file);
    await writeFile(file, '# Lodging\n\nHotel stays are reimbursed up to 240 dollars per night in large cities.\n');
    await utimes(file, 1_700_000_000, 1_700_000_000);
    const after = await stat(file);
    assert.equal(after.size, before.size);
    assert.equal(after.mtimeMs, before.mtimeMs);
    const index = await PassageIndex.open(indexDir, docs);
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.updated, 1);
    assert.match(
      (await new HybridRetriever(index, embedder).search('hotel per night', 1))[0].passage.text,
      /240 dollars/,
    );
  });

  it('on an index folder it cannot write, answers from the index with a notice and leaves no temporary file', async function () {
    // A process of a user the modes apply to (as root: nobody, from a copy of the runner it can
    // reach); the model it loads is where that user reads it, and the index is built with it there.
    const runner = await unprivilegedRunner(RUNNER);
    try {
      const model = await runner.share(modelDir);
      const modelEmbedder = await loadTinyEmbedder(model);
      await (await PassageIndex.open(indexDir, docs)).update(folderDocSource(docs), { embedder: modelEmbedder });
      await writeFile(
        path.join(docs, 'security.md'),
        '# Passwords\n\nPasswords must be at least 20 characters long.\n',
      );
      // Files read-only, folders (the reader leases' too) readable and searchable, never writable.
      for (const entry of await readdir(indexDir, { withFileTypes: true })) {
        await chmod(path.join(indexDir, entry.name), entry.isDirectory() ? 0o555 : 0o444);
      }
      await chmod(indexDir, 0o555);
      await chmod(docs, 0o755);
      const before = await indexSnapshot(indexDir);
      const run = await runner.run([docs, indexDir, model, 'password length'], { reach: [docs, indexDir, model] });
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}');
      assert.equal(out.embedded, 1, 'the run embedded the edited document with the model the index was built with');
      assert.match(
        out.notices.join(' '),
        /cannot be written \((EACCES|EROFS|EPERM)\): answering from the index in memory/,
      );
      assert.match(out.hits[0].text, /20 characters/, 'the answer includes the edit read in this run');
      assert.deepEqual(await indexSnapshot(indexDir), before, 'nothing was written, no temporary file left');
    } finally {
      await runner.dispose();
    }
  });

  it('leaves the previous index whole, and no file of the failed save, when a save fails', async () => {
    const index = await build();
    const before = await indexSnapshot(indexDir);
    const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
    // A folder where the next document table must go, made as the save starts (a run removes
    // leftovers first): its rename fails half-way through the save.
    await writeFile(path.join(docs, 'security.md'), '# Passwords\n\nPasswords must be at least 18 characters long.\n');
    const obstacle = path.join(indexDir, `documents-${manifest.generation + 1}.json`);
    await assert.rejects(
      index.update(folderDocSource(docs), {
        embedder,
        onProgress: (p) => void (p.phase === 'saving' && mkdirSync(obstacle, { recursive: true })),
      }),
    );
    const after = await indexSnapshot(indexDir);
    assert.deepEqual(
      Object.keys(after).filter((n) => n.endsWith('.tmp') || (/-\d+/.test(n) && !(n in before))),
      [],
    );
    const reopened = await PassageIndex.open(indexDir, docs);
    assert.equal(reopened.passageCount, 4);
    assert.match(
      (await new HybridRetriever(reopened, embedder).search('password length', 1))[0].passage.text,
      /14 characters/,
    );
  });

  it('killed at random points of a save, the index answers like a clean one afterwards, with no temporary file left', async () => {
    const corpus = await tempDir('evident-crash-src-');
    try {
      const files: Record<string, string> = {};
      // Distinct texts (as real documents are): near-duplicates tie in BM25 and ties order by insertion.
      const words =
        'travel leave laptop badge parking expense invoice meeting holiday training budget vendor contract security password backup archive desk phone mentor review hiring offboarding reimbursement'.split(
          ' ',
        );
      const pick = (i: number, k: number) => words[(i * 7 + k * 13) % words.length];
      for (let i = 0; i < 40; i++) {
        files[`policy-${i}.md`] =
          `# ${pick(i, 0)} and ${pick(i, 1)}\n\n## Scope\n\nThis ${pick(i, 2)} rule covers ${pick(i, 3)} for the ${pick(i, 4)} team, ${i + 1} times a year.\n\n## Approval\n\nThe ${pick(i, 5)} lead approves ${pick(i, 6)} requests within ${i + 2} days.\n`;
      }
      await writeDocs(corpus, files);
      const outcomes = await killDuringSave({
        docs: corpus,
        kills: 2,
        seed: 11,
        editFile: 'policy-3.md',
        queries: ['who approves travel requests', 'password backup rule', 'parking expense'],
      });
      assert.equal(outcomes.length, 2);
      for (const o of outcomes) {
        assert.ok(o.equal, `kill ${o.kill}: the answer differs from a clean index's`);
        assert.deepEqual(o.tempFiles, []);
      }
    } finally {
      await removeDir(corpus);
    }
  });
});
