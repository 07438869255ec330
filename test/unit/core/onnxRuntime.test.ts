// The ONNX runtime behind the models: native onnxruntime-node, or onnxruntime-web's WebAssembly
// build where no native binary exists. transformers.js binds its runtime once per process, so
// the WebAssembly runs happen in child processes (test/support/embedderProcess.ts) and are
// compared with native vectors computed here.

import { strict as assert } from 'node:assert';
import { importTransformers } from '../../../src/core/onnxRuntime';
import { loadEmbedder } from '../../../src/core/retrieval/embedder';
import { embedInProcess } from '../../support/embedderProcess';
import { requireRealModel } from '../../support/realModel';
import { tinyEmbeddingModelDir } from '../../support/tinyEmbedder';
import { defaultModelCacheDir, makeTinyClassifierModel } from '../../support/tinyModels';
import { createEntailmentScorer } from '../../../src/core/verifier/entailmentScorer';

const TEXTS = [
  'Travel must be approved before booking.',
  'How do I request a laptop?',
  'Annual leave accrues every pay period.',
];

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

async function nativeVectors(modelDir: string, dtype: 'fp32' | 'q8'): Promise<Float32Array[]> {
  const embedder = await loadEmbedder({
    modelId: 'test',
    localModelPath: modelDir,
    allowRemote: false,
    dtype,
    backend: 'native',
  });
  assert.equal(embedder.runtime.kind, 'native');
  return embedder.embed(TEXTS);
}

describe('ONNX runtime: native and WebAssembly', function () {
  this.timeout(180_000);
  let tiny: string;

  before(async () => {
    tiny = await tinyEmbeddingModelDir();
  });

  it('the WebAssembly backend (onnxruntime-web) gives the native vectors (tiny model)', async () => {
    const native = await nativeVectors(tiny, 'fp32');
    const wasm = await embedInProcess({ modelDir: tiny, dtype: 'fp32', backend: 'wasm', texts: TEXTS });
    assert.ok('vectors' in wasm, JSON.stringify(wasm));
    assert.equal(wasm.runtime, 'wasm');
    assert.equal(wasm.fallbackReason, undefined, 'forced, not a fallback');
    assert.equal(wasm.vectors.length, TEXTS.length);
    wasm.vectors.forEach((v, i) =>
      assert.ok(maxDifference(v, native[i]) < 1e-4, `text ${i}: ${maxDifference(v, native[i])}`),
    );
  });

  it('the WebAssembly backend runs the real all-MiniLM-L6-v2 q8 (MatMulInteger) with the native vectors', async () => {
    const folder = requireRealModel();
    const native = await nativeVectors(folder, 'q8');
    const wasm = await embedInProcess({ modelDir: folder, dtype: 'q8', backend: 'wasm', texts: TEXTS });
    assert.ok('vectors' in wasm, JSON.stringify(wasm));
    assert.equal(wasm.runtime, 'wasm');
    assert.equal(wasm.maxTokens, 256);
    // Integer kernels differ a little between the builds (rounding of the dynamic scales).
    wasm.vectors.forEach((v, i) => {
      const cosine = v.reduce((sum, x, j) => sum + x * native[i][j], 0);
      assert.ok(cosine >= 0.999, `text ${i}: cosine ${cosine}`);
      assert.ok(maxDifference(v, native[i]) < 5e-3, `text ${i}: ${maxDifference(v, native[i])}`);
    });
  });

  it('auto falls back to WebAssembly when the native module fails to load (failure simulated), and says why', async () => {
    const native = await nativeVectors(tiny, 'fp32');
    const result = await embedInProcess(
      { modelDir: tiny, dtype: 'fp32', backend: 'auto', texts: TEXTS },
      { failNative: true },
    );
    assert.ok('vectors' in result, JSON.stringify(result));
    assert.equal(result.runtime, 'wasm');
    assert.match(result.fallbackReason ?? '', /simulated: no onnxruntime-node binary/);
    result.vectors.forEach((v, i) => assert.ok(maxDifference(v, native[i]) < 1e-4, `text ${i}`));
  });

  it('the entailment tier runs on the WebAssembly runtime too, with the native score', async () => {
    const classifier = await makeTinyClassifierModel(defaultModelCacheDir());
    const pair = {
      sentence: 'Travel must be approved before booking.',
      passage: 'All travel must be approved by a supervisor before booking.',
    };
    const native = await createEntailmentScorer({ model: '', localModelPath: classifier }).score(
      pair.sentence,
      pair.passage,
    );
    const wasm = await embedInProcess({
      modelDir: tiny,
      dtype: 'fp32',
      backend: 'wasm',
      texts: TEXTS.slice(0, 1),
      entailment: { modelDir: classifier, ...pair },
    });
    assert.ok('vectors' in wasm, JSON.stringify(wasm));
    assert.equal(wasm.runtime, 'wasm');
    assert.ok(
      wasm.entailmentScore !== undefined && Math.abs(wasm.entailmentScore - native.score) < 1e-4,
      `${wasm.entailmentScore} vs ${native.score}`,
    );
  });

  it('auto uses the native runtime when it loads', async () => {
    const result = await embedInProcess({ modelDir: tiny, dtype: 'fp32', backend: 'auto', texts: TEXTS.slice(0, 1) });
    assert.ok('vectors' in result, JSON.stringify(result));
    assert.equal(result.runtime, 'native');
  });

  it('native, forced, when the native module fails to load (failure simulated): unavailable, with the way forward', async () => {
    const result = await embedInProcess(
      { modelDir: tiny, dtype: 'fp32', backend: 'native', texts: TEXTS },
      { failNative: true },
    );
    assert.ok('error' in result, JSON.stringify(result));
    assert.equal(result.unavailable, true, 'lexical retrieval goes on, with the reason');
    assert.match(
      result.error,
      /native ONNX runtime could not be loaded \(simulated: no onnxruntime-node binary.*\); the WebAssembly backend runs everywhere \(setting evident\.embedding\.backend or --embedding-backend: auto or wasm\)/,
    );
  });

  it('refuses to switch runtimes inside a process (a reload switches)', async () => {
    const { runtime } = await importTransformers('native');
    assert.equal(runtime.kind, 'native');
    assert.equal((await importTransformers('auto')).runtime.kind, 'native');
    await assert.rejects(
      importTransformers('wasm'),
      /native ONNX runtime is already in use in this process; wasm takes effect after a restart/,
    );
  });
});
