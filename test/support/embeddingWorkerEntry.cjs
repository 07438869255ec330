// The embedding worker's TypeScript source as a worker thread's script (tests, benchmarks): tsx
// compiles it on load, as esbuild does for dist/embeddingWorker.js in the extension.
require('tsx/cjs');
require('../../src/core/retrieval/embeddingWorker.ts');
