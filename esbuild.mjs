// Builds the bundles: the extension host (small; loads the engine on first use), the engine
// (retrieval, embeddings, agent loop: heavy), the CLI, the chat webview and the metrics dashboard
// (browser).
// `node esbuild.mjs --watch` rebuilds on change; `--production` minifies.
import * as esbuild from 'esbuild';
import { lazyModule } from './build/lazyModule.mjs';
import { nodeBundleOptions } from './build/nodeBundle.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
/**
 * `evident mcp`'s part of the MCP SDK is its own bundle, dist/mcpSdk.js (src/cli/mcp/mcpSdk.ts):
 * the CLI bundle leaves the import of it as a run-time require of the file beside it, made only
 * when that command runs, so other commands neither parse nor load the SDK.
 */
const mcpSdkBeside = {
  name: 'mcp-sdk-beside',
  setup(build) {
    build.onResolve({ filter: /^\.\/mcpSdk$/ }, () => ({ path: './mcpSdk.js', external: true }));
  },
};
const node = nodeBundleOptions({ production });

/** Both webview bundles (chat, metrics dashboard): browser scripts loaded by nonce. */
const browser = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

const builds = [
  { ...node, entryPoints: { extension: 'src/host/extension.ts' }, outdir: 'dist' },
  { ...node, entryPoints: { engine: 'src/core/engine.ts' }, outdir: 'dist' },
  // The index worker (a worker thread started by the engine in the extension host): indexing,
  // embedding and writing off the host's event loop.
  { ...node, entryPoints: { indexWorker: 'src/core/indexWorker/worker.ts' }, outdir: 'dist' },
  // The CLI starts a process per command: Gemini's client loads on first use only (lazyModule.mjs),
  // the MCP SDK only for `evident mcp` (mcpSdkBeside).
  {
    ...node,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node\n' + node.banner.js },
    plugins: [lazyModule(['@google/genai']), mcpSdkBeside],
  },
  { ...node, entryPoints: { mcpSdk: 'src/cli/mcp/mcpSdk.ts' }, outdir: 'dist' },
  { ...browser, entryPoints: { webview: 'src/webview/main.ts' }, outdir: 'dist' },
  // The metrics dashboard with its chart library (uPlot): its own bundle, loaded only when the
  // dashboard opens; its CSS (uPlot's and ours) comes out as dist/metricsView.css.
  { ...browser, entryPoints: { metricsView: 'src/webview/metrics/main.ts' }, outdir: 'dist' },
];

const present = (
  await Promise.all(
    builds.map(async (b) => {
      const entry = Object.values(b.entryPoints)[0];
      try {
        await import('node:fs').then((fs) => fs.promises.access(entry));
        return b;
      } catch {
        return undefined;
      }
    }),
  )
).filter(Boolean);

if (watch) {
  for (const b of present) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(present.map((b) => esbuild.build(b)));
}
