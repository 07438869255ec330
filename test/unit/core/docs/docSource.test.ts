// What the docs walk reports and decodes: an unreadable subfolder is reported like an
// unreadable file (never skipped without a word), and UTF-16 text with a byte order mark is
// decoded, not called binary; a file over the size limit is never read (its size is checked
// first); symbolic links and hidden names are reported as skipped, with the reason.

import { strict as assert } from 'node:assert';
import { appendFile, chmod, mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { decodeDocument, folderDocSource, MAX_DOC_BYTES, readDocumentText } from '../../../../src/core/docs/docSource';
import { runCli } from '../../../support/cli';
import { runCliProcess } from '../../../support/cliProcess';
import { unprivilegedRunner } from '../../../support/unprivilegedRun';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

const CLI = path.resolve(__dirname, '../../../../src/cli/main.ts');

function utf16(text: string, order: 'le' | 'be'): Uint8Array {
  const le = Buffer.from(text, 'utf16le');
  if (order === 'be') for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), le]);
}

describe('docs walk and decoding', function () {
  this.timeout(90_000);
  let work: string;

  beforeEach(async () => {
    work = await tempDir('evident-docsource-');
  });

  afterEach(async () => {
    await chmod(path.join(work, 'docs', 'locked'), 0o755).catch(() => undefined);
    await removeDir(work);
  });

  it('reports an unreadable subfolder in the index report, like an unreadable file', async () => {
    const docs = path.join(work, 'docs');
    const cache = path.join(work, 'cache');
    await writeDocs(docs, { 'a.md': '# A\n\nReadable text.\n', 'locked/b.md': '# B\n\nHidden text.\n' });
    await mkdir(cache);
    await chmod(work, 0o755);
    await chmod(cache, 0o777);
    await chmod(path.join(docs, 'locked'), 0o000);
    // A CLI process of a user the modes apply to (as root: nobody, from a copy of the CLI it can reach).
    const cli = await unprivilegedRunner(CLI);
    try {
      const run = await cli.run(['index', '--docs', docs, '--no-embeddings', '--offline', '--json'], {
        env: { XDG_CACHE_HOME: cache },
        reach: [docs, cache],
      });
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout);
      assert.equal(report.documents, 1);
      assert.deepEqual(report.skipped, [{ path: 'locked/', reason: 'unreadable folder (EACCES)' }]);
      assert.match(run.stderr, /Skipped locked\/: unreadable folder \(EACCES\)/);
    } finally {
      await cli.dispose();
    }
  });

  it('decodes UTF-16 (little- and big-endian) with a byte order mark', () => {
    const text = '# Leave\n\nEmployees receive 25 days — «annual» leave.\n';
    for (const order of ['le', 'be'] as const) {
      const decoded = decodeDocument(utf16(text, order));
      assert.deepEqual(decoded, { ok: true, text }, order);
    }
    assert.deepEqual(decodeDocument(new Uint8Array([0xff, 0xfe, 0x41])), {
      ok: false,
      reason: 'not valid UTF-16 text (odd number of bytes)',
    });
    assert.equal(
      decodeDocument(new Uint8Array([0x41, 0x00, 0x42, 0x00])).ok,
      false,
      'NUL bytes without a BOM are still binary',
    );
  });

  it('indexes and answers from a UTF-16 document', async () => {
    const docs = path.join(work, 'docs');
    await writeDocs(docs, {
      'leave.md': utf16('# Leave\n\nEmployees receive 25 days of annual leave per year.\n', 'le'),
    });
    const run = await runCli(
      [
        'ask',
        '--docs',
        docs,
        '--no-embeddings',
        '--json',
        '--question',
        'How many days of annual leave do employees receive?',
      ],
      { XDG_CACHE_HOME: path.join(work, 'cache') },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /binary/);
    const out = JSON.parse(run.stdout);
    assert.equal(out.abstained, false);
    assert.match(out.answer, /25 days/);
  });

  it('checks the size before reading: a 1 GB sparse .md costs under 200 MB on index and on ask, under 32 MB more than the same runs without it (child processes)', async function () {
    this.timeout(300_000);
    const docs = path.join(work, 'docs');
    const cache = path.join(work, 'cache');
    await writeDocs(docs, { 'a.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n' });
    const runs = (index: string) => [
      ['index', '--docs', docs, '--index-dir', index, '--no-embeddings', '--json'],
      [
        'ask',
        '--docs',
        docs,
        '--index-dir',
        index,
        '--no-embeddings',
        '--json',
        '--question',
        'How many days of annual leave?',
      ],
    ];
    // The same commands without the huge file first: what the process costs anyway (the runtime,
    // the transpiler's first pass over the sources on a fresh machine), so the bound is on the file.
    const baseline: number[] = [];
    for (const args of runs(path.join(work, 'index-baseline'))) {
      const run = await runCliProcess(args, {
        env: { XDG_CACHE_HOME: cache },
        reportPeakMemory: true,
        timeoutMs: 120_000,
      });
      assert.equal(run.code, 0, run.stderr);
      baseline.push(run.peakMemoryMb ?? NaN);
    }
    await writeFile(path.join(docs, 'huge.md'), '');
    await truncate(path.join(docs, 'huge.md'), 1024 ** 3);
    for (const [i, args] of runs(path.join(work, 'index-huge')).entries()) {
      const run = await runCliProcess(args, {
        env: { XDG_CACHE_HOME: cache },
        reportPeakMemory: true,
        timeoutMs: 120_000,
      });
      assert.equal(run.code, 0, run.stderr);
      const peak = run.peakMemoryMb ?? NaN;
      assert.ok(peak < 200, `evident ${args[0]}: peak memory ${peak} MB`);
      // Reading the file would cost at least its 1024 MB; 32 MB over the same run without it is noise.
      assert.ok(
        peak - baseline[i] < 32,
        `evident ${args[0]}: peak memory ${peak} MB against ${baseline[i]} MB without the 1 GB file`,
      );
      if (args[0] === 'index') {
        const report = JSON.parse(run.stdout);
        assert.deepEqual(report.skipped, [{ path: 'huge.md', reason: 'too large (1024.0 MB; the limit is 2 MB)' }]);
      }
    }
  });

  it('a file that grows past the limit after it was listed is checked again on the open file before it is read, and skipped as too large', async () => {
    const docs = path.join(work, 'docs');
    await writeDocs(docs, { 'growing.md': '# Notes\n\nSmall at first.\n' });
    const source = folderDocSource(docs);
    const [file] = await source.list();
    await appendFile(path.join(docs, 'growing.md'), Buffer.alloc(MAX_DOC_BYTES + 10, 0x61));
    const read = await readDocumentText(source, file);
    assert.equal(read.ok, false);
    assert.match(
      read.ok ? '' : read.reason,
      /^too large \(2\.0 MB/,
      'the size seen on the open file, not the one listed',
    );
    await assert.rejects(source.read({ ...file, size: 10 }), (e: NodeJS.ErrnoException) => e.code === 'EFBIG');
  });

  it('reports symbolic links and hidden names among the skipped files, each with its reason', async () => {
    const docs = path.join(work, 'docs');
    const outside = path.join(work, 'outside');
    await writeDocs(docs, {
      'a.md': '# A\n\nText.\n',
      '.hidden.md': '# Hidden\n\nText.\n',
      '.github/template.md': '# T\n\nText.\n',
      'notes.txt': 'not Markdown',
    });
    await writeDocs(outside, { 'secret.md': '# Secret\n\nOutside the docs.\n' });
    await symlink(path.join(outside, 'secret.md'), path.join(docs, 'linked.md'));
    await symlink(path.join(outside, 'secret.md'), path.join(docs, 'linked.txt'));
    const run = await runCli(['index', '--docs', docs, '--no-embeddings', '--json'], {
      XDG_CACHE_HOME: path.join(work, 'cache'),
    });
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.documents, 1);
    const reasons = Object.fromEntries(report.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['.github/template.md', '.hidden.md', 'linked.md']);
    assert.match(reasons['linked.md'], /^symbolic link/);
    assert.match(reasons['.hidden.md'], /^hidden/);
    assert.match(reasons['.github/template.md'], /^hidden/);
  });
});
