// Preload (node --require) for tests: SIMULATES a platform where onnxruntime-node has no native
// binary (darwin-x64) by making the load of its .node file fail, where dlopen would fail.
const Module = require('node:module');
const loadNative = Module._extensions['.node'];
Module._extensions['.node'] = function (module, filename) {
  if (/onnxruntime_binding\.node$/.test(filename)) {
    throw new Error(`simulated: no onnxruntime-node binary for this platform (${filename})`);
  }
  return loadNative.call(this, module, filename);
};
