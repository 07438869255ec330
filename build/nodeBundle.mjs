// esbuild options of every Node bundle the product ships (extension host, engine, index worker, CLI,
// MCP SDK), shared by esbuild.mjs and by the benchmarks that time the code as it ships
// (tools/bench/runBundled.mjs): what esbuild does to the source is part of what a check costs.
import { fileURLToPath } from 'node:url';

const sharpStub = fileURLToPath(new URL('./sharpStub.cjs', import.meta.url));

/** @param {{ production?: boolean }} [mode] */
export function nodeBundleOptions(mode = {}) {
  const production = mode.production === true;
  return {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // esbuild's table says Node lacks Unicode property escapes (\p{L}) and rewrites every such regex literal
    // as `new RegExp(…)` where it stands: inside a function that is a new RegExp per call, on the
    // verifier's hot path. Node 20 has them (V8 since 6.4).
    supported: { 'regexp-unicode-property-escapes': true },
    sourcemap: !production,
    minify: production,
    // onnxruntime-node and usearch carry native binaries: shipped beside the bundle, loaded at run time.
    external: ['vscode', 'onnxruntime-node', 'onnxruntime-common', 'usearch'],
    alias: { sharp: sharpStub },
    // transformers.js reads import.meta.url in its ESM build; give the CJS bundle a value.
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    logLevel: 'info',
  };
}
