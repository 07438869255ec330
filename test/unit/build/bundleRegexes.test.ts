// The Node bundles (engine, CLI) keep regex literals with Unicode property escapes (\p{L}) as
// literals. esbuild's table says Node lacks them and, unless told otherwise (esbuild.mjs,
// `supported`), rewrites each as `new RegExp("\\p{…}", "u")` where it stands: inside a function,
// a RegExp built on every call of the verifier's word-level checks.

import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '../../..');

describe('the Node bundles (esbuild.mjs)', function () {
  this.timeout(120_000);

  before(() => {
    // A fresh build of this checkout, so the test reads what esbuild.mjs makes now.
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'ignore' });
  });

  for (const bundle of ['dist/engine.js', 'dist/cli.js']) {
    it(`${bundle} keeps \\p{…} regexes as literals, not a new RegExp per call`, () => {
      const text = readFileSync(path.join(root, bundle), 'utf8');
      const rebuilt = text.match(/new RegExp\("[^"]*\\\\p\{[^"]*"/g) ?? [];
      assert.deepEqual(rebuilt.slice(0, 5), [], `${rebuilt.length} regexes rebuilt at run time`);
      assert.ok(text.includes('/\\p{L}/u'), 'the verifier’s letter test is in the bundle as a literal');
    });
  }
});
