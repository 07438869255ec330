// An embedding worker that starts, then exits on its first batch (a crash mid-run).
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', () => process.exit(3));
