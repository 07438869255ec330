// The peak memory a child process reports (test/support/reportPeakMemory.cjs) is its own, not
// its parent's: the tests and bench:faults that bound what an input costs read it.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const PEAK = path.resolve(__dirname, '../../support/reportPeakMemory.cjs');

describe('peak memory of a child process (test support)', () => {
  it("reports the child's own peak, not the resident size of the fat parent that spawned it", function () {
    this.timeout(60_000);
    // A parent holding 400 MB spawns a child that does nothing; the child reports its peak.
    const parent = `
      const held = Buffer.alloc(400 * 1024 * 1024, 1);
      const r = require('node:child_process').spawnSync(process.execPath, ['--require', ${JSON.stringify(PEAK)}, '-e', '0'], { encoding: 'utf8' });
      process.stdout.write(r.stderr + ' held ' + held.length);`;
    const run = spawnSync(process.execPath, ['-e', parent], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const peak = /evident-test-peak-rss-kb (\d+) cpu-ms \d+/.exec(run.stdout);
    assert.ok(peak, `no peak reported: ${run.stdout}`);
    const mb = Number(peak[1]) / 1024;
    assert.ok(mb > 10 && mb < 150, `the child reported ${mb.toFixed(0)} MB beside a parent of 400 MB`);
  });
});
