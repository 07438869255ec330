// Parity of the real all-MiniLM-L6-v2 as Evident runs it (tools/model: the PyPI wheel's
// safetensors converted to ONNX, loaded by the product's embedder through transformers.js)
// with sentence-transformers' own output for the same sentences (test/fixtures/minilm-parity:
// reference.json was computed by tools/model/reference_embeddings.py — its header says how).

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEmbedder } from '../../../../src/core/retrieval/embedder';
import { importTransformers } from '../../../../src/core/onnxRuntime';
import { requireRealModel } from '../../../support/realModel';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'minilm-parity');
const sentences = (JSON.parse(readFileSync(join(FIXTURES, 'sentences.json'), 'utf8')) as { sentences: string[] })
  .sentences;
const reference = JSON.parse(readFileSync(join(FIXTURES, 'reference.json'), 'utf8')) as {
  maxSeqLength: number;
  vectors: number[][];
};

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const norm = (a: ArrayLike<number>) => Math.sqrt(dot(a, a));

interface Parity {
  minCosine: number;
  maxNormError: number;
  maxComponentError: number;
}

/** How far vectors are from the reference: cosine (direction), norm (normalisation), components. */
function parity(vectors: ArrayLike<number>[], expected: number[][]): Parity {
  assert.equal(vectors.length, expected.length, 'one vector per sentence');
  let minCosine = 1;
  let maxNormError = 0;
  let maxComponentError = 0;
  vectors.forEach((v, i) => {
    assert.equal(v.length, expected[i].length, `sentence ${i}: dimensions`);
    minCosine = Math.min(minCosine, dot(v, expected[i]) / (norm(v) * norm(expected[i])));
    maxNormError = Math.max(maxNormError, Math.abs(norm(v) - norm(expected[i])));
    for (let j = 0; j < v.length; j++) maxComponentError = Math.max(maxComponentError, Math.abs(v[j] - expected[i][j]));
  });
  return { minCosine, maxNormError, maxComponentError };
}

/** fp32 must be the reference: same direction, unit length, every component within 1e-3. */
function assertFp32Parity(p: Parity): void {
  assert.ok(p.minCosine >= 0.999, `lowest cosine ${p.minCosine.toFixed(5)} < 0.999`);
  assert.ok(p.maxNormError <= 1e-3, `a vector's length is off by ${p.maxNormError.toExponential(2)} (normalisation)`);
  assert.ok(p.maxComponentError <= 1e-3, `a component is off by ${p.maxComponentError.toExponential(2)}`);
}

describe('the real all-MiniLM-L6-v2 (fetch-model folder) matches sentence-transformers', function () {
  this.timeout(180_000);
  let dir: string;

  before(() => {
    dir = requireRealModel();
    assert.ok(
      sentences.length >= 20 && reference.vectors.length === sentences.length,
      'at least 20 reference sentences',
    );
  });

  it('fp32 through the product embedder: cosine ≥ 0.999, unit length and every component within 1e-3 of the reference, for each of the sentences', async () => {
    const embedder = await loadEmbedder({
      modelId: 'all-MiniLM-L6-v2',
      localModelPath: dir,
      allowRemote: false,
      dtype: 'fp32',
    });
    assert.equal(embedder.dimensions, 384);
    assert.equal(embedder.maxTokens, reference.maxSeqLength, 'truncates where sentence-transformers does');
    const p = parity(await embedder.embed(sentences), reference.vectors);
    assertFp32Parity(p);
  });

  it('q8 (the default the extension loads): cosine ≥ 0.97 for each sentence, unit length', async () => {
    const embedder = await loadEmbedder({
      modelId: 'all-MiniLM-L6-v2',
      localModelPath: dir,
      allowRemote: false,
      dtype: 'q8',
    });
    const p = parity(await embedder.embed(sentences), reference.vectors);
    assert.ok(p.minCosine >= 0.97, `lowest q8 cosine ${p.minCosine.toFixed(4)}`);
    assert.ok(p.maxNormError <= 1e-3, `q8 vector length off by ${p.maxNormError}`);
  });

  it('length-sorted batches (the index path) give each text the vector it gets alone: fp32 cosine ≥ 0.9999 for every text, in the input order', async () => {
    // The parity sentences plus texts past the trained length (cut to 256 tokens, [SEP] kept)
    // and a one-word one: batches mix lengths, so padding and the re-ordering are both exercised.
    const long = (n: number) =>
      Array.from({ length: n }, (_, i) => `Clause ${i}: a supervisor approves travel before anything is booked.`).join(
        ' ',
      );
    const texts = [...sentences, long(40), 'Gifts', long(12), long(90)];
    const batched = await loadEmbedder({
      modelId: 'all-MiniLM-L6-v2',
      localModelPath: dir,
      allowRemote: false,
      dtype: 'fp32',
    });
    const single = await loadEmbedder({
      modelId: 'all-MiniLM-L6-v2',
      localModelPath: dir,
      allowRemote: false,
      dtype: 'fp32',
      tuning: { batchSize: 1 },
    });
    const together = await batched.embed(texts);
    const alone: Float32Array[] = [];
    for (const t of texts) alone.push((await single.embed([t]))[0]);
    texts.forEach((_, i) => {
      const cosine = dot(together[i], alone[i]) / (norm(together[i]) * norm(alone[i]));
      assert.ok(cosine >= 0.9999, `text ${i}: cosine ${cosine} between its batched and its own vector`);
    });
    // Not blind: a neighbour's vector is far from it.
    assert.ok(dot(together[0], alone[1]) < 0.9999);
  });

  it('the check fails a wrong pooling ([CLS] instead of the mean) and missing normalisation of the same model', async () => {
    const { transformers } = await importTransformers('auto');
    const extractor = (await transformers.pipeline('feature-extraction', dir, {
      dtype: 'fp32',
      local_files_only: true,
    })) as unknown as (
      texts: string[],
      options: { pooling: 'cls' | 'mean'; normalize: boolean },
    ) => Promise<{ tolist(): number[][] }>;
    const short = sentences.slice(0, 8); // within 256 tokens, where truncation does not differ
    const expected = reference.vectors.slice(0, 8);
    const right = (await extractor(short, { pooling: 'mean', normalize: true })).tolist();
    const cls = (await extractor(short, { pooling: 'cls', normalize: true })).tolist();
    const unnormalised = (await extractor(short, { pooling: 'mean', normalize: false })).tolist();
    assertFp32Parity(parity(right, expected));
    assert.throws(() => assertFp32Parity(parity(cls, expected)), /cosine/);
    assert.throws(() => assertFp32Parity(parity(unnormalised, expected)), /length/);
  });
});
