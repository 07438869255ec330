// Which ONNX runtime runs the models (embeddings, entailment): the native onnxruntime-node, or
// onnxruntime-web's WebAssembly build where no native binary exists (onnxruntime-node ships
// none for darwin-x64) or the native module fails to load. transformers.js binds its runtime
// once, when it is first imported (it takes `globalThis[Symbol.for('onnxruntime')]` when set,
// else onnxruntime-node), so the choice is made here, once per process, and every import of
// transformers.js goes through `importTransformers`.

import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

export type EmbeddingBackend = 'auto' | 'native' | 'wasm';
export const EMBEDDING_BACKENDS: readonly EmbeddingBackend[] = ['auto', 'native', 'wasm'];
export type RuntimeKind = 'native' | 'wasm';

export interface OnnxRuntimeChoice {
  kind: RuntimeKind;
  /** Why the native runtime is not used, when `auto` fell back to WebAssembly. */
  fallbackReason?: string;
}

/** Said when a backend cannot be used: the caller turns it into "lexical only" with the reason. */
export class OnnxRuntimeUnavailable extends Error {}

type Transformers = typeof import('@huggingface/transformers');

let choice: OnnxRuntimeChoice | undefined;
let transformers: Promise<Transformers> | undefined;
const requireHere = createRequire(__filename);

/** The runtime chosen in this process so far (undefined before the first model load). */
export function onnxRuntimeChoice(): OnnxRuntimeChoice | undefined {
  return choice;
}

/** How a runtime is named in logs and reports. */
export function describeRuntime(c: OnnxRuntimeChoice): string {
  return c.kind === 'native'
    ? 'native ONNX runtime'
    : `WebAssembly ONNX runtime${c.fallbackReason ? ` (the native runtime could not be loaded: ${c.fallbackReason})` : ''}`;
}

/**
 * transformers.js on the runtime `backend` asks for. The first call decides for the process;
 * a later call that names the other runtime explicitly is refused (a window reload or a new
 * process switches), `auto` takes whatever was chosen.
 */
export async function importTransformers(
  backend: EmbeddingBackend = 'auto',
): Promise<{ transformers: Transformers; runtime: OnnxRuntimeChoice }> {
  if (!choice) choice = chooseRuntime(backend);
  else if (backend !== 'auto' && backend !== choice.kind) {
    throw new OnnxRuntimeUnavailable(
      `the ${choice.kind} ONNX runtime is already in use in this process; ${backend} takes effect after a restart (reload the window)`,
    );
  }
  const runtime = choice;
  transformers ??= import('@huggingface/transformers');
  return { transformers: await transformers, runtime };
}

function chooseRuntime(backend: EmbeddingBackend): OnnxRuntimeChoice {
  if (backend === 'wasm') return useWasm(undefined);
  const nativeError = loadNative();
  if (nativeError === undefined) return { kind: 'native' };
  if (backend === 'native') {
    throw new OnnxRuntimeUnavailable(
      `the native ONNX runtime could not be loaded (${nativeError}); the WebAssembly backend runs everywhere (setting evident.embedding.backend or --embedding-backend: auto or wasm)`,
    );
  }
  try {
    return useWasm(nativeError);
  } catch (error) {
    throw new OnnxRuntimeUnavailable(
      `neither ONNX runtime could be loaded: native (${nativeError}), ${(error as Error).message}`,
    );
  }
}

/** Loads onnxruntime-node; the error message when it cannot be (no binary for this platform…). */
function loadNative(): string | undefined {
  try {
    requireHere('onnxruntime-node');
    return undefined;
  } catch (error) {
    return firstLine((error as Error).message) || 'unknown error';
  }
}

function useWasm(nativeError: string | undefined): OnnxRuntimeChoice {
  let ort: { env: { wasm: { wasmPaths?: unknown; numThreads?: number } } };
  try {
    ort = requireHere('onnxruntime-web');
  } catch (error) {
    throw new OnnxRuntimeUnavailable(
      `the WebAssembly ONNX runtime could not be loaded (${firstLine((error as Error).message)})`,
    );
  }
  // The .wasm files sit beside onnxruntime-web's Node entry (shipped in the VSIX); without a
  // path transformers.js would point onnxruntime-web at a CDN, and nothing may be downloaded.
  ort.env.wasm.wasmPaths = `${path.dirname(requireHere.resolve('onnxruntime-web'))}${path.sep}`;
  // Threads: one per core, as for the native runtime (measured in bench:embed).
  ort.env.wasm.numThreads = Math.max(1, os.availableParallelism());
  (globalThis as Record<symbol, unknown>)[Symbol.for('onnxruntime')] = ort;
  if (nativeError !== undefined) {
    // transformers.js still requires onnxruntime-node when it is imported, even with another
    // runtime given: an empty module stands in for the one that failed.
    const resolved = safeResolve('onnxruntime-node');
    if (resolved) {
      const Module = requireHere('node:module') as { new (id: string): NodeModule; _cache: Record<string, NodeModule> };
      const stub = new Module(resolved);
      stub.exports = {};
      stub.loaded = true;
      stub.filename = resolved;
      Module._cache[resolved] = stub;
    }
  }
  return { kind: 'wasm', ...(nativeError !== undefined ? { fallbackReason: nativeError } : {}) };
}

function safeResolve(id: string): string | undefined {
  try {
    return requireHere.resolve(id);
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0].trim();
}

/** Session options for transformers.js: the device and threads of the chosen runtime. */
export function sessionOptions(
  runtime: OnnxRuntimeChoice,
  threads: number,
  spinning = true,
): { device?: 'auto'; session_options: Record<string, unknown> } {
  if (runtime.kind === 'wasm') {
    // transformers.js lists no devices when it is handed a runtime: `auto` with an explicit
    // execution provider is the way through. Threads are set on ort.env.wasm (above).
    return { device: 'auto', session_options: { executionProviders: ['wasm'] } };
  }
  const options: Record<string, unknown> = threads > 0 ? { intraOpNumThreads: threads, interOpNumThreads: 1 } : {};
  // Idle threads spin by default, waiting for work: on a busy machine they take cores from
  // everything else, ourselves included.
  if (!spinning) options.extra = { session: { intra_op: { allow_spinning: '0' } } };
  return { session_options: options };
}
