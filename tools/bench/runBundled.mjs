// `node tools/bench/runBundled.mjs ENTRY.ts [args…]`: runs a benchmark as the product ships its code —
// bundled by esbuild with the product's Node options (build/nodeBundle.mjs) — rather than through tsx,
// which compiles for the running Node and so rewrites every regex literal with a Unicode property
// escape (\p{L}) as a `new RegExp(…)` where it stands: a RegExp built per call that no user's
// extension pays, which would make a timing overstate the product's cost.
// The bundle is written beside ENTRY (so the entry's __dirname paths hold), run with the
// remaining arguments, and removed afterwards; the exit code is the benchmark's.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { nodeBundleOptions } from '../../build/nodeBundle.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry || !/\.[cm]?tsx?$|\.[cm]?js$/.test(entry)) {
  console.error('usage: node tools/bench/runBundled.mjs ENTRY.ts [args…]');
  process.exit(2);
}
const source = path.resolve(entry);
const outfile = path.join(
  path.dirname(source),
  `.bundled-${path.basename(source).replace(/\.\w+$/, '')}-${process.pid}.cjs`,
);
let status = 1;
try {
  await esbuild.build({
    ...nodeBundleOptions(),
    entryPoints: [source],
    outfile,
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, ['--enable-source-maps', outfile, ...args], { stdio: 'inherit' });
  status = run.status ?? 1;
  if (run.signal) console.error(`the benchmark ended on ${run.signal}`);
} catch (error) {
  console.error(`Could not bundle ${entry}: ${error.message}`);
  status = 1;
} finally {
  rmSync(outfile, { force: true });
}
process.exit(status);
