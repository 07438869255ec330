// The evaluation gate that `npm test` (and so CI) runs: the exact arguments of package.json's
// "eval:gate" script pass on the samples today, and the same gate fails a worse answerer (fewer
// passages per search), so a change that lowers answer quality fails CI.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../../support/cli';
import { removeDir, tempDir } from '../../../support/workspace';

const root = path.resolve(__dirname, '../../../..');
const script = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts['eval:gate'];

describe('evaluation gate (npm run eval:gate)', function () {
  this.timeout(120_000);
  let cache: string;
  before(async () => {
    cache = await tempDir('evident-gate-');
  });
  after(async () => {
    await removeDir(cache);
  });

  const gateArgs = () => {
    const [node, cli, ...args] = script.split(/\s+/);
    assert.deepEqual([node, cli], ['node', 'dist/cli.js']);
    assert.ok(
      args.includes('--min-accuracy') &&
        args.includes('--min-abstention-precision') &&
        args.includes('--min-abstention-recall'),
      script,
    );
    return args;
  };

  it('is part of npm test', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.match(pkg.scripts.test, /npm run eval:gate/);
  });

  it("passes on the samples with today's answerer", async () => {
    const run = await runCli(gateArgs(), { XDG_CACHE_HOME: cache }, { cwd: root });
    assert.equal(run.code, 0, run.stderr);
  });

  it('fails a worse answerer (1 passage per search instead of 6)', async () => {
    const run = await runCli([...gateArgs(), '--top-k', '1'], { XDG_CACHE_HOME: cache }, { cwd: root });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /gate --min-(accuracy|abstention-precision|abstention-recall) .* not met/);
  });
});
