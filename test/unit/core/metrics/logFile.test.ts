import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { appendBounded, readLogText } from '../../../../src/core/metrics/logFile';
import { removeDir, tempDir } from '../../../support/workspace';

describe('bounded log (rotation by size, several writers)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir('evident-log-');
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it('rotates before a file would pass its limit, keeps N rotated files and drops the oldest', async () => {
    const file = path.join(dir, 'metrics.jsonl');
    const limits = { maxBytes: 200, keep: 2 };
    for (let i = 0; i < 30; i++) await appendBounded(file, JSON.stringify({ i, pad: 'abcdefghij' }), limits);
    const names = (await readdir(dir)).sort();
    assert.deepEqual(
      names,
      ['metrics.jsonl', 'metrics.jsonl.1', 'metrics.jsonl.2'],
      'no lock file left, two rotated files',
    );
    for (const n of names) assert.ok((await stat(path.join(dir, n))).size <= 200, `${n} within the limit`);
    const kept = (await readLogText(file))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).i as number);
    // Oldest first, contiguous, ending with the last record; the oldest records were dropped.
    assert.equal(kept[kept.length - 1], 29);
    assert.ok(kept[0] > 0, 'the oldest lines were rotated out');
    assert.deepEqual(
      kept,
      Array.from({ length: kept.length }, (_, k) => kept[0] + k),
    );
  });

  it('reads only the tail when asked, starting at a whole line, across rotated files', async () => {
    const file = path.join(dir, 'metrics.jsonl');
    for (let i = 0; i < 30; i++) {
      await appendBounded(file, JSON.stringify({ i, pad: 'abcdefghij' }), { maxBytes: 200, keep: 5 });
    }
    const all = (await readLogText(file)).trim().split('\n');
    const tail = (await readLogText(file, 100)).trim().split('\n');
    assert.ok(tail.length >= 3 && tail.length < all.length, `${tail.length} of ${all.length}`);
    assert.deepEqual(tail, all.slice(all.length - tail.length), 'the last whole lines, in order');
  });

  it('never splits or loses a line when a single record is larger than the limit', async () => {
    const file = path.join(dir, 'audit.jsonl');
    const big = JSON.stringify({ pad: 'y'.repeat(500) });
    await appendBounded(file, big, { maxBytes: 100, keep: 1 });
    await appendBounded(file, big, { maxBytes: 100, keep: 1 });
    assert.equal(await readFile(file, 'utf8'), `${big}\n`);
    assert.equal(await readFile(`${file}.1`, 'utf8'), `${big}\n`);
  });

  it('breaks a stale lock left by a writer that died', async () => {
    const file = path.join(dir, 'metrics.jsonl');
    await writeFile(`${file}.lock`, '999999 dead\n');
    const old = new Date(Date.now() - 60_000);
    const { utimes } = await import('node:fs/promises');
    await utimes(`${file}.lock`, old, old);
    await appendBounded(file, '{"a":1}', { maxBytes: 1000, keep: 1 });
    assert.equal(await readFile(file, 'utf8'), '{"a":1}\n');
    assert.deepEqual((await readdir(dir)).sort(), ['metrics.jsonl']);
  });

  it('four processes appending at once with rotation: every line whole, none lost, none twice', async () => {
    const file = path.join(dir, 'metrics.jsonl');
    const writers = 4;
    const count = 150;
    const script = path.resolve(__dirname, '../../../support/logWriterMain.ts');
    // A small limit so that rotation happens many times while the others write; enough rotated files to keep all.
    const runs = Array.from(
      { length: writers },
      (_, w) =>
        new Promise<number>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', script, file, `w${w}`, String(count), '4000', '200'],
            { stdio: ['ignore', 'ignore', 'pipe'] },
          );
          let err = '';
          child.stderr.on('data', (d) => (err += d));
          child.on('error', reject);
          child.on('exit', (code) =>
            code === 0 ? resolve(code) : reject(new Error(`writer ${w} exited ${code}: ${err}`)),
          );
        }),
    );
    await Promise.all(runs);
    const files = (await readdir(dir)).filter((n) => n.startsWith('metrics.jsonl'));
    assert.ok(files.length > 5, `rotated several times (${files.length} files)`);
    assert.ok(!files.includes('metrics.jsonl.lock'));
    const lines = (await readLogText(file)).split('\n').filter(Boolean);
    const seen = new Set<string>();
    for (const line of lines) {
      const r = JSON.parse(line) as { writer: string; seq: number };
      const key = `${r.writer}:${r.seq}`;
      assert.ok(!seen.has(key), `${key} once`);
      seen.add(key);
    }
    assert.equal(seen.size, writers * count);
  });
});
