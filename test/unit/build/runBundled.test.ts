// tools/bench/runBundled.mjs runs a benchmark bundled as the product ships (build/nodeBundle.mjs),
// not through tsx: a regex literal with \p{…} stays a literal, the entry's __dirname holds, the
// benchmark's arguments and exit code pass through, and the bundle is removed afterwards.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const runner = path.join(__dirname, '../../../tools/bench/runBundled.mjs');

describe('tools/bench/runBundled.mjs', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'evident-run-bundled-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the entry bundled: \\p regexes stay literals, __dirname is the entry’s folder, args and exit code pass', () => {
    const entry = path.join(dir, 'probe.ts');
    writeFileSync(
      entry,
      [
        'const isWord = (s: string): boolean => /\\p{L}+/u.test(s);',
        'console.log(JSON.stringify({ source: isWord.toString(), dir: __dirname, args: process.argv.slice(2) }));',
        'process.exit(isWord("abc") ? 3 : 4);',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [runner, entry, '--rounds', '2'], { encoding: 'utf8' });
    assert.equal(run.status, 3, run.stderr);
    const out = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
      source: string;
      dir: string;
      args: string[];
    };
    assert.match(out.source, /\/\\p\{L\}\+\/u/, 'the regex is a literal in the bundle');
    assert.doesNotMatch(out.source, /new RegExp/);
    assert.equal(out.dir, dir);
    assert.deepEqual(out.args, ['--rounds', '2']);
    assert.deepEqual(readdirSync(dir), ['probe.ts'], 'the bundle is removed');
  });

  it('fails with the reason when the entry does not compile, and leaves nothing behind', () => {
    const entry = path.join(dir, 'broken.ts');
    writeFileSync(entry, 'const = ;\n');
    const run = spawnSync(process.execPath, [runner, entry], { encoding: 'utf8' });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /Could not bundle .*broken\.ts/);
    assert.deepEqual(readdirSync(dir), ['broken.ts']);
  });

  it('refuses a missing entry with its usage', () => {
    const run = spawnSync(process.execPath, [runner], { encoding: 'utf8' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /usage: node tools\/bench\/runBundled\.mjs ENTRY\.ts/);
  });
});
