// Packages one VSIX per platform that onnxruntime-node ships native binaries for, each carrying
// only its own platform's binaries (from .vscodeignore, with the binary folder swapped), into
// artifacts/. Usage: node build/packageTargets.mjs [target ...]   (default: every target below)
// usearch's prebuilt binary goes with it (none exists for win32-arm64: exact vector search there).
// darwin-x64 is not here: onnxruntime-node has no build for it (dense retrieval there needs the
// WebAssembly backend, not done yet; see docs/measurements.md, "Scale").
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const TARGETS = {
  'linux-x64': 'linux/x64',
  'linux-arm64': 'linux/arm64',
  'darwin-arm64': 'darwin/arm64',
  'win32-x64': 'win32/x64',
  'win32-arm64': 'win32/arm64',
};
const BINARIES = 'node_modules/onnxruntime-node/bin/napi-v6';
const SHIPPED = `!${BINARIES}/linux/x64/**`;
// usearch's prebuilt binary per target (none for win32-arm64: vector search is exact there).
const USEARCH = 'node_modules/usearch/prebuilds';
const USEARCH_SHIPPED = `!${USEARCH}/linux-x64/**`;
export const USEARCH_TARGETS = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'darwin-arm64': 'darwin-arm64+x64',
  'win32-x64': 'win32-x64',
  'win32-arm64': undefined,
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(TARGETS);
const base = readFileSync('.vscodeignore', 'utf8');
if (!base.includes(SHIPPED)) throw new Error(`.vscodeignore no longer names ${SHIPPED}: update build/packageTargets.mjs`);
if (!base.includes(USEARCH_SHIPPED)) throw new Error(`.vscodeignore no longer names ${USEARCH_SHIPPED}: update build/packageTargets.mjs`);
mkdirSync('artifacts', { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
for (const target of wanted) {
  const folder = TARGETS[target];
  if (!folder) throw new Error(`unknown target ${target} (known: ${Object.keys(TARGETS).join(', ')})`);
  if (!existsSync(path.join(BINARIES, folder))) throw new Error(`no onnxruntime-node binaries for ${target} in ${BINARIES}/${folder}`);
  const ignoreFile = path.join(os.tmpdir(), `evident-vscodeignore-${target}-${process.pid}`);
  const usearch = USEARCH_TARGETS[target];
  if (usearch && !existsSync(path.join(USEARCH, usearch))) throw new Error(`no usearch binary for ${target} in ${USEARCH}/${usearch}`);
  const usearchLine = usearch ? `!${USEARCH}/${usearch}/**` : `# no usearch binary for ${target}: exact vector search`;
  writeFileSync(ignoreFile, base.replace(SHIPPED, `!${BINARIES}/${folder}/**`).replace(USEARCH_SHIPPED, usearchLine));
  const out = path.join('artifacts', `evident-${target}.vsix`);
  try {
    execFileSync('npx', ['vsce', 'package', '--target', target, '--ignoreFile', ignoreFile, '--out', out,
      '--allow-missing-repository', '--skip-license', '--no-rewrite-relative-links'], { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(ignoreFile, { force: true });
  }
  console.log(`${out}: ${(statSync(out).size / 1048576).toFixed(1)} MB`);
}
