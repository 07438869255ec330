// Loads the engine bundle (dist/engine.js: retrieval, embeddings, agent loop, verifier) on
// first use. Only types come from core at compile time, so activation reads none of it.

import * as path from 'node:path';
import type * as EngineModule from '../core/engine';

export type EngineApi = typeof EngineModule;

let engineApi: EngineApi | undefined;

/** The index worker's script (dist/indexWorker.js), started by the engine in a worker thread. */
export function indexWorkerScript(): string {
  return path.join(__dirname, 'indexWorker.js');
}

export function loadEngineApi(): EngineApi {
  // A computed path keeps esbuild from bundling the engine into the extension bundle.
  engineApi ??= require(path.join(__dirname, 'engine.js')) as EngineApi;
  return engineApi;
}
