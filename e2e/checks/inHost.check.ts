// Runs the in-host mocha suite (test/e2e/suite) inside the real extension host and fails with
// the name and error of every in-host test that failed.

import * as assert from 'node:assert/strict';
import { runInHostSuite } from '../lib/inHost';
import { session } from '../lib/session';
import { checkTitle } from '../lib/workbench';

describe('in-host suite (mocha inside the VS Code extension host)', () => {
  after(async () => {
    // Closed after the failure report has taken its screenshot.
    await session().current?.close();
    session().current = undefined;
  });

  it('passes every in-host test', async function () {
    this.timeout(200_000);
    const s = session();
    const run = await runInHostSuite(s, 180_000);
    for (const r of run.results)
      process.stdout.write(`      ${r.state === 'passed' ? '✓' : r.state === 'failed' ? '✗' : '-'} ${r.title}\n`);
    await run.workbench.screenshot(checkTitle(this));
    const failed = run.results.filter((r) => r.state === 'failed');
    const detail = failed.map((r) => `✗ ${r.title}\n${r.error ?? ''}`).join('\n\n');
    assert.ok(
      run.results.length > 0,
      `the in-host suite exited with ${run.exitCode} before reporting any test (did the extension host load out/test/e2e/suite/index.js?)\n${run.consoleLines.join('\n')}`,
    );
    assert.equal(failed.length, 0, `${failed.length} in-host test(s) failed:\n${detail}`);
    assert.equal(run.exitCode, 0, `in-host runner exit code ${run.exitCode}`);
  });
});
