// Packages one VSIX per platform that onnxruntime-node ships native binaries for, each carrying
// only its own platform's binaries (from .vscodeignore, with the binary folder swapped), into
// artifacts/. Usage: node build/packageTargets.mjs [target ...]   (default: every target below)
// darwin-x64 (onnxruntime-node has no build for it) ships no native binary: embeddings run on
// the WebAssembly runtime (onnxruntime-web) there, which every VSIX carries. Each VSIX is
// checked for the files the runtimes load. usearch's prebuilt binary (vector search graph) goes
// with each target that has one (none exists for win32-arm64: exact vector search there).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const TARGETS = {
  'linux-x64': 'linux/x64',
  'linux-arm64': 'linux/arm64',
  'darwin-arm64': 'darwin/arm64',
  'win32-x64': 'win32/x64',
  'win32-arm64': 'win32/arm64',
  // No native binary: WebAssembly only.
  'darwin-x64': null,
};
/** Files every VSIX must hold: the WebAssembly runtime (and the native binary where there is one). */
const WASM_FILES = [
  'extension/node_modules/onnxruntime-web/dist/ort.node.min.js',
  'extension/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm',
  'extension/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.mjs',
  'extension/node_modules/onnxruntime-web/node_modules/onnxruntime-common/dist/cjs/index.js',
  'extension/node_modules/onnxruntime-web/node_modules/onnxruntime-common/dist/cjs/package.json',
  'extension/node_modules/onnxruntime-common/dist/cjs/package.json',
];
const HOST_TARGET = `${process.platform}-${process.arch}`;
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
  'darwin-x64': 'darwin-arm64+x64',
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(TARGETS);
const base = readFileSync('.vscodeignore', 'utf8');
if (!base.includes(SHIPPED))
  throw new Error(`.vscodeignore no longer names ${SHIPPED}: update build/packageTargets.mjs`);
if (!base.includes(USEARCH_SHIPPED))
  throw new Error(`.vscodeignore no longer names ${USEARCH_SHIPPED}: update build/packageTargets.mjs`);
mkdirSync('artifacts', { recursive: true });
execFileSync(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
for (const target of wanted) {
  if (!(target in TARGETS)) throw new Error(`unknown target ${target} (known: ${Object.keys(TARGETS).join(', ')})`);
  const folder = TARGETS[target];
  if (folder && !existsSync(path.join(BINARIES, folder)))
    throw new Error(`no onnxruntime-node binaries for ${target} in ${BINARIES}/${folder}`);
  const ignoreFile = path.join(os.tmpdir(), `evident-vscodeignore-${target}-${process.pid}`);
  const usearch = USEARCH_TARGETS[target];
  if (usearch && !existsSync(path.join(USEARCH, usearch)))
    throw new Error(`no usearch binary for ${target} in ${USEARCH}/${usearch}`);
  const usearchLine = usearch ? `!${USEARCH}/${usearch}/**` : `# no usearch binary for ${target}: exact vector search`;
  writeFileSync(
    ignoreFile,
    base
      .replace(SHIPPED, folder ? `!${BINARIES}/${folder}/**` : '# no native ONNX binary for this target')
      .replace(USEARCH_SHIPPED, usearchLine),
  );
  const out = path.join('artifacts', `evident-${target}.vsix`);
  try {
    execFileSync(
      'npx',
      ['vsce', 'package', '--target', target, '--ignoreFile', ignoreFile, '--out', out, '--no-rewrite-relative-links'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } finally {
    rmSync(ignoreFile, { force: true });
  }
  const listed = new Set(execFileSync('unzip', ['-Z1', out], { encoding: 'utf8' }).split('\n'));
  const binary = folder ? [`extension/${BINARIES}/${folder}/onnxruntime_binding.node`] : [];
  // Every bundle and stylesheet the build wrote is loaded by something: all of them must ship.
  const bundles = readdirSync('dist')
    .filter((f) => /\.(js|css)$/.test(f))
    .map((f) => `extension/dist/${f}`);
  const missing = [...bundles, ...WASM_FILES, ...binary].filter((f) => !listed.has(f));
  if (missing.length) throw new Error(`${out} lacks ${missing.join(', ')}`);
  const natives = [...listed].filter((f) => f.includes('/onnxruntime-node/bin/') && f.endsWith('.node'));
  if (natives.length !== binary.length)
    throw new Error(`${out} carries other platforms' binaries: ${natives.join(', ')}`);
  const usearchBinary = usearch ? [`extension/${USEARCH}/${usearch}/usearch.node`] : [];
  const usearchNatives = [...listed].filter((f) => f.includes('/usearch/') && f.endsWith('.node'));
  if (usearchNatives.join() !== usearchBinary.join())
    throw new Error(
      `${out} carries usearch binaries ${usearchNatives.join(', ') || 'none'}, expected ${usearchBinary.join(', ') || 'none'}`,
    );
  // The runtimes must load from the unpacked VSIX as the engine bundle loads them (the native one
  // only where this machine can run it).
  const unpacked = mkdtempSync(path.join(os.tmpdir(), `evident-vsix-${target}-`));
  try {
    execFileSync('unzip', ['-q', out, '-d', unpacked]);
    const engine = path.join(unpacked, 'extension', 'dist', 'engine.js');
    const modules = [
      'onnxruntime-web',
      ...(folder && target === HOST_TARGET ? ['onnxruntime-node'] : []),
      ...(usearch && target === HOST_TARGET ? ['usearch'] : []),
    ];
    execFileSync(
      process.execPath,
      [
        '-e',
        `const r = require('node:module').createRequire(${JSON.stringify(engine)}); for (const m of ${JSON.stringify(modules)}) r(m);`,
      ],
      { stdio: 'inherit' },
    );
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  console.log(
    `${out}: ${(statSync(out).size / 1048576).toFixed(1)} MB (${folder ? 'native + WebAssembly' : 'WebAssembly only'} ONNX runtime; loads: ${folder && target === HOST_TARGET ? 'both checked' : 'WebAssembly checked'})`,
  );
}
