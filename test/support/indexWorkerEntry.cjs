// The index worker's TypeScript source as a worker thread's script (tests): tsx compiles it on
// load, as esbuild does for dist/indexWorker.js in the extension.
require('tsx/cjs');
require('../../src/core/indexWorker/worker.ts');
