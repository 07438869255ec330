// Loads an embedder in a child process and embeds texts there (tests only): transformers.js
// picks its ONNX runtime once per process, so comparing the WebAssembly backend with the
// native one, or a machine where the native module cannot load, needs a process of its own.
// The child prints one JSON line: { runtime, fallbackReason?, maxTokens, vectors } or { error }.

import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { EmbeddingBackend, RuntimeKind } from '../../src/core/onnxRuntime';

const MAIN = path.resolve(__dirname, 'embedderProcessMain.ts');
/** Preload that makes the native ONNX module fail to load, as on a platform without a binary. */
export const FAIL_NATIVE_PRELOAD = path.resolve(__dirname, 'failNativeOnnx.cjs');

export interface EmbedderProcessRequest {
  modelDir: string;
  dtype: 'fp32' | 'q8';
  backend: EmbeddingBackend;
  texts: string[];
  /** Also score a sentence against a passage with this entailment model folder, on the same runtime. */
  entailment?: { modelDir: string; sentence: string; passage: string };
}

export type EmbedderProcessResult =
  | { runtime: RuntimeKind; fallbackReason?: string; maxTokens: number; vectors: number[][]; entailmentScore?: number }
  | { error: string; unavailable: boolean };

export function embedInProcess(
  request: EmbedderProcessRequest,
  options: { failNative?: boolean } = {},
): Promise<EmbedderProcessResult> {
  return new Promise((resolve, reject) => {
    const args = [
      ...(options.failNative ? ['--require', FAIL_NATIVE_PRELOAD] : []),
      '--import',
      'tsx',
      MAIN,
      JSON.stringify(request),
    ];
    const child = spawn(process.execPath, args, {
      cwd: path.resolve(__dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as EmbedderProcessResult);
      } catch {
        reject(new Error(`embedder process exited ${code} without a result:\n${stdout}\n${stderr}`));
      }
    });
  });
}
