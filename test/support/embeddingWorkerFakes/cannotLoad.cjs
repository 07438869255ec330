// An embedding worker that cannot load its model: it says why, as embeddingWorker.ts does.
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'failed', message: 'no model at /nowhere' });
