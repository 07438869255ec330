// Several processes on one index folder (the CLI, the extension's worker, two windows): a reader
// keeps the generation it opened until it closes, whatever writers commit and compact meanwhile;
// writers take turns (the writer lock) and each catches up with what the other committed, so the
// final index equals a clean one; a run that may not wait answers from the committed index.
// In-process here (two PassageIndex objects on one folder behave as two processes do, their
// leases and locks being files); across real processes in passageIndexProcesses.test.ts.

import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource } from '../../../../../src/core/docs/docSource';
import { HybridRetriever } from '../../../../../src/core/retrieval/hybridRetriever';
import { acquireIndexLock, LOCK_FILE, type HeldLock } from '../../../../../src/core/retrieval/indexLock';
import { PassageIndex } from '../../../../../src/core/store/local/passageIndex';
import type { Embedder } from '../../../../../src/core/types';
import { loadTinyEmbedder } from '../../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../../support/workspace';

const DOCS: Record<string, string> = {
  'refunds.md': '# Refunds\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n',
  'lodging.md': '# Lodging\n\nHotel stays are reimbursed up to 180 dollars per night in large cities.\n',
  'security.md': '# Passwords\n\nPasswords must be at least 14 characters long.\n',
};

/** The passages of an index as comparable rows. */
function rows(index: PassageIndex): string[] {
  return index
    .allPassages()
    .map((p) => `${p.source}|${p.id}|${p.startLine}-${p.endLine}|${p.text}`)
    .sort();
}

describe('passage index shared by several processes: reader leases and the writer lock', function () {
  this.timeout(180_000);
  let docs: string;
  let indexDir: string;
  let embedder: Embedder;
  const opened: PassageIndex[] = [];

  const open = async (dir = indexDir, root = docs) => {
    const index = await PassageIndex.open(dir, root);
    opened.push(index);
    return index;
  };

  before(async () => {
    embedder = await loadTinyEmbedder();
  });

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, DOCS);
  });

  afterEach(async () => {
    for (const index of opened.splice(0)) await (index as { close?: () => Promise<void> }).close?.();
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('a reader keeps the generation it opened while a writer commits and compacts 20 times, and its files go once it closes', async () => {
    const writer = await open();
    await writer.update(folderDocSource(docs), { embedder });
    const reader = await open();
    const before = rows(reader);
    for (let i = 0; i < 20; i++) {
      // Every edit replaces the passage segment and vectors of a document: compactions remove older files.
      await writeDocs(docs, {
        'lodging.md': `# Lodging\n\nHotel stays are reimbursed up to ${200 + i} dollars per night in large cities.\n`,
        [`more/p${i}.md`]: `# Policy ${i}\n\nRule ${i} covers parking at site ${i}.\n`,
      });
      await writer.update(folderDocSource(docs), { embedder });
    }
    // Everything the reader reads lazily is still there, and is its own generation's.
    assert.deepEqual(rows(reader), before);
    const hits = await new HybridRetriever(reader, embedder).search('hotel dollars per night', 3);
    assert.match(hits[0].passage.text, /180 dollars/);
    assert.ok(reader.termStats().idf('hotel') > 0);
    assert.match(reader.passage(hits[0].passage.id)?.text ?? '', /180 dollars/);

    const current = await readFile(path.join(indexDir, 'manifest.json'), 'utf8');
    const leftBehind = (await readdir(indexDir)).filter(
      (n) =>
        /-1(-\d+)?\.\w+$/.test(n) && !current.includes(`"${n}"`) && !current.includes(`"${n.replace(/\.\w+$/, '')}"`),
    );
    assert.ok(
      leftBehind.length >= 2,
      `the first generation's files are kept while the reader holds them (${leftBehind.join(', ')})`,
    );
    await (reader as { close?: () => Promise<void> }).close?.();
    await writeDocs(docs, { 'security.md': '# Passwords\n\nPasswords must be at least 16 characters long.\n' });
    await writer.update(folderDocSource(docs), { embedder });
    assert.deepEqual(
      (await readdir(indexDir)).filter((n) => leftBehind.includes(n)),
      [],
      'released, the first generation goes with the next commit',
    );
  });

  it('two writers over different edits, again and again at once: no failure, and the final index equals a clean one', async () => {
    const a = await open();
    const b = await open();
    await a.update(folderDocSource(docs), { embedder });
    for (let round = 0; round < 6; round++) {
      await writeDocs(docs, {
        [`a/${round}.md`]: `# A ${round}\n\nWriter A wrote rule ${round} about desks.\n`,
        'refunds.md': `# Refunds\n\nAnnual plans are refundable within ${90 + round} days.\n`,
      });
      const first = a.update(folderDocSource(docs), { embedder });
      await writeDocs(docs, { [`b/${round}.md`]: `# B ${round}\n\nWriter B wrote rule ${round} about chairs.\n` });
      const second = b.update(folderDocSource(docs), { embedder });
      await Promise.all([first, second]);
    }
    const clean = await open(await tempDir('evident-clean-'));
    await clean.update(folderDocSource(docs), { embedder });
    const final = await open();
    assert.deepEqual(rows(final), rows(clean));
    assert.equal(final.vectorFill().passagesWithVectors, final.passageCount, 'every passage has its vector');
    for (const q of ['desks rule 5', 'chairs rule 5', 'refundable days']) {
      const got = (await new HybridRetriever(final, embedder).search(q, 3)).map((h) => h.passage.id);
      const want = (await new HybridRetriever(clean, embedder).search(q, 3)).map((h) => h.passage.id);
      assert.deepEqual(got, want, q);
    }
  });

  it('a run that may not wait answers from the committed index and says another process is updating it; a waiting run goes on after', async () => {
    const first = await open();
    await first.update(folderDocSource(docs), { embedder });
    const held = (await acquireIndexLock(indexDir, { wait: false })) as HeldLock;
    assert.equal(held.kind, 'held');
    try {
      await writeDocs(docs, { 'security.md': '# Passwords\n\nPasswords must be at least 20 characters long.\n' });
      const asker = await open();
      const started = Date.now();
      const report = await asker.update(folderDocSource(docs), { embedder, whenBusy: 'answer' });
      assert.ok(Date.now() - started < 2000, 'no waiting');
      assert.equal(report.busy?.pid, process.pid);
      assert.match(
        report.notices.map((n) => n.text).join(' '),
        /Another Evident process \(pid \d+ on .+\) is updating this index: answering from the index as it last saved it/,
      );
      assert.equal(report.updated, 0);
      assert.match(
        (await new HybridRetriever(asker, embedder).search('password length', 1))[0].passage.text,
        /14 characters/,
      );

      let waited = 0;
      const waiting = asker.update(folderDocSource(docs), { embedder, onWaiting: () => waited++ });
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(waited, 1, 'told once that it waits');
      await held.release();
      const after = await waiting;
      assert.equal(after.updated, 1);
      assert.match(
        (await new HybridRetriever(asker, embedder).search('password length', 1))[0].passage.text,
        /20 characters/,
      );
    } finally {
      await held.release();
    }
  });

  it('a run that may not wait, beside another process writing the first index, waits for it instead of answering from nothing', async () => {
    const held = (await acquireIndexLock(indexDir, { wait: false })) as HeldLock;
    assert.equal(held.kind, 'held');
    try {
      const asker = await open();
      let waited = 0;
      let settled = false;
      const asking = asker
        .update(folderDocSource(docs), { embedder, whenBusy: 'answer', onWaiting: () => waited++ })
        .finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.equal(settled, false, 'it did not answer from an index nobody has committed');
      assert.equal(waited, 1, 'told once that it waits');
      await held.release();
      const report = await asking;
      assert.equal(report.busy, undefined);
      assert.equal(report.added, 3, 'with the lock free it indexed the documents itself');
      assert.ok(asker.passageCount > 0);
    } finally {
      await held.release();
    }
  });

  it('takes over a stale lock (its process is gone, or its heartbeat stopped), never a live one', async () => {
    const index = await open();
    const lockFile = path.join(indexDir, LOCK_FILE);
    // A process that no longer exists (pid beyond the kernel's range).
    await writeFile(
      lockFile,
      JSON.stringify({
        pid: 2 ** 22 + 12345,
        host: (await import('node:os')).hostname(),
        token: 'gone',
        since: '2020-01-01T00:00:00Z',
      }),
    );
    let report = await index.update(folderDocSource(docs), { embedder, whenBusy: 'answer' });
    assert.equal(report.busy, undefined);
    assert.equal(report.added, 3);
    // Another host's writer whose heartbeat stopped ten minutes ago.
    await writeFile(
      lockFile,
      JSON.stringify({ pid: process.pid, host: 'elsewhere.example', token: 'old', since: '2020-01-01T00:00:00Z' }),
    );
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(lockFile, old, old);
    await writeDocs(docs, { 'refunds.md': '# Refunds\n\nAnnual plans are refundable within 30 days.\n' });
    report = await index.update(folderDocSource(docs), { embedder, whenBusy: 'answer' });
    assert.equal(report.busy, undefined);
    assert.equal(report.updated, 1);
    // A live one (this process, fresh heartbeat) is respected.
    await writeFile(
      lockFile,
      JSON.stringify({ pid: process.pid, host: 'elsewhere.example', token: 'live', since: new Date().toISOString() }),
    );
    report = await index.update(folderDocSource(docs), { embedder, whenBusy: 'answer' });
    assert.deepEqual(report.busy, { pid: process.pid, host: 'elsewhere.example', since: report.busy?.since });
  });

  it('a writer whose lock was taken over abandons its save and leaves the index as the new holder left it', async () => {
    const index = await open();
    await index.update(folderDocSource(docs), { embedder });
    await writeDocs(docs, { 'refunds.md': '# Refunds\n\nAnnual plans are refundable within 45 days.\n' });
    const lockFile = path.join(indexDir, LOCK_FILE);
    const run = index.update(folderDocSource(docs), {
      embedder,
      // As the save starts, another writer (thinking this one dead) holds the lock.
      onProgress: (p) =>
        void (
          p.phase === 'saving' &&
          writeFileSync(lockFile, JSON.stringify({ pid: process.pid, host: 'other', token: 'thief', since: '' }))
        ),
    });
    await assert.rejects(
      run,
      (e: Error & { code?: string }) => e.code === 'index-lock-lost' && /took over the index lock/.test(e.message),
    );
    const reopened = await open();
    assert.match(
      (await new HybridRetriever(reopened, embedder).search('refundable days', 1))[0].passage.text,
      /90 days/,
      'the abandoned save committed nothing',
    );
  });
});
