// The run of the permission tests (a folder the process cannot read or write) as a user the
// modes apply to: it does not depend on where the checkout lives, and a run it cannot arrange
// fails with the reason. The first test copies the checkout under a private (mode 700) folder,
// as a clone under /root or `mktemp -d` is, and runs the permission tests there.

import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { NOBODY, unprivilegedRunner } from '../../support/unprivilegedRun';
import { removeDir, tempDir } from '../../support/workspace';

const ROOT = path.resolve(__dirname, '../../..');
/** The tests that run a process as another user, and the files that hold them. */
const PERMISSION_TESTS = {
  files: ['test/unit/core/docs/docSource.test.ts', 'test/unit/core/store/local/passageIndexStorage.test.ts'],
  titles: [
    'docs walk and decoding reports an unreadable subfolder in the index report, like an unreadable file',
    'index storage: writes only what changed, crash-safe, damage detected and rebuilt as little as needed on an index folder it cannot write, answers from the index with a notice and leaves no temporary file',
  ],
};

/** The checkout's files (tracked and new, not ignored) copied to `dest`, with its node_modules linked. */
async function copyCheckout(dest: string): Promise<void> {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\0')
      .filter(Boolean);
  } catch (error) {
    throw new Error(`cannot copy the checkout: git ls-files failed in ${ROOT} (${(error as Error).message})`);
  }
  for (const file of files) {
    const from = path.join(ROOT, file);
    // A file deleted in the work tree but not yet in the index is not part of the checkout.
    if (!(await stat(from).catch(() => undefined))?.isFile()) continue;
    await mkdir(path.dirname(path.join(dest, file)), { recursive: true });
    await copyFile(from, path.join(dest, file));
  }
  await symlink(path.join(ROOT, 'node_modules'), path.join(dest, 'node_modules'));
}

describe('runs as a user the folder modes apply to (test support)', function () {
  this.timeout(240_000);
  let work: string;

  beforeEach(async () => {
    work = await tempDir('evident-unprivileged-test-');
  });

  afterEach(async () => {
    await removeDir(work);
  });

  it('the permission tests pass from a checkout under a private (mode 700) folder', async () => {
    assert.equal((await stat(work)).mode & 0o777, 0o700, 'the folder holding the copy is private');
    const checkout = path.join(work, 'main');
    await copyCheckout(checkout);
    const results = path.join(work, 'results.json');
    const grep = PERMISSION_TESTS.titles.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    const run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
        '--no-config',
        '--node-option',
        'import=tsx',
        '--timeout',
        '120000',
        '--reporter',
        'json',
        '--reporter-option',
        `output=${results}`,
        '--grep',
        grep,
        ...PERMISSION_TESTS.files,
      ],
      { cwd: checkout, encoding: 'utf8' },
    );
    const report = JSON.parse(await readFile(results, 'utf8').catch(() => '{}')) as {
      passes?: { fullTitle: string }[];
      failures?: { fullTitle: string; err: { message: string } }[];
    };
    const failures = (report.failures ?? []).map((f) => `${f.fullTitle}: ${f.err.message}`);
    assert.deepEqual(failures, [], `the permission tests failed in ${checkout}`);
    assert.equal(run.status, 0, `mocha in the copy: ${run.stderr}`);
    assert.deepEqual(
      (report.passes ?? []).map((p) => p.fullTitle).sort(),
      [...PERMISSION_TESTS.titles].sort(),
      'both permission tests ran and passed',
    );
  });

  it('runs as nobody under root (and fails, naming the path, when nobody cannot reach one), as the own user otherwise', async () => {
    const script = path.join(work, 'whoami.ts');
    await writeFile(
      script,
      'process.stdout.write(JSON.stringify({ uid: process.getuid?.(), args: process.argv.slice(2) }));\n',
    );
    const runner = await unprivilegedRunner(script);
    try {
      const run = await runner.run(['one', 'two']);
      assert.equal(run.code, 0, run.stderr);
      const out = JSON.parse(run.stdout) as { uid: number; args: string[] };
      assert.deepEqual(out.args, ['one', 'two']);
      const asRoot = process.getuid?.() === 0;
      assert.equal(runner.asNobody, asRoot);
      assert.equal(out.uid, asRoot ? NOBODY : process.getuid?.());
      if (asRoot) {
        const privateFolder = path.join(work, 'private');
        await mkdir(privateFolder, { mode: 0o700 });
        await assert.rejects(runner.run([], { reach: [privateFolder] }), (error: Error) => {
          assert.match(error.message, /cannot arrange a run as the unprivileged user nobody/);
          assert.ok(error.message.includes(`cannot read ${privateFolder} (EACCES)`), error.message);
          return true;
        });
      }
    } finally {
      await runner.dispose();
    }
  });
});
