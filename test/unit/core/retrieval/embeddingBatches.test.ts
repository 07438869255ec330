import { strict as assert } from 'node:assert';
import { importTransformers } from '../../../../src/core/onnxRuntime';
import {
  batchEnd,
  meanPool,
  padBatch,
  rowLength,
  type TokenRow,
} from '../../../../src/core/retrieval/embeddingBatches';
import { requireRealModel } from '../../../support/realModel';

type Tokenizer = ((texts: string[], o: { padding: boolean; truncation: boolean; max_length: number }) => TokenRow) & {
  pad_token_id?: number;
};

const texts = [
  'How do I request a laptop?',
  'Gifts',
  'Annual leave accrues every pay period; unused hours carry over up to a limit set by policy.',
  Array.from({ length: 60 }, (_, i) => `Clause ${i}: a supervisor approves travel before booking.`).join(' '),
  'Résumé, naïve café — “quotes” and emoji 🙂 survive tokenisation.',
  '',
];

describe('embedding batches: texts tokenised one by one, padded and pooled as transformers.js does (real all-MiniLM-L6-v2 tokenizer)', function () {
  this.timeout(60_000);
  let tokenizer: Tokenizer;

  before(async () => {
    const { transformers } = await importTransformers('auto');
    tokenizer = (await transformers.AutoTokenizer.from_pretrained(requireRealModel(), {
      local_files_only: true,
    })) as unknown as Tokenizer;
  });

  it("padBatch of single-text tokenisations equals the tokenizer's own padded batch, tensor by tensor", () => {
    for (const maxLength of [256, 16]) {
      const batch = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
      const rows = texts.map((t) => tokenizer([t], { padding: false, truncation: true, max_length: maxLength }));
      const { width, inputs } = padBatch(rows, tokenizer.pad_token_id ?? 0);
      assert.equal(width, batch.input_ids.dims[1], `max_length ${maxLength}: width`);
      assert.deepEqual(Object.keys(inputs).sort(), Object.keys(batch).sort(), 'the same inputs');
      for (const name of Object.keys(batch)) {
        assert.deepEqual(inputs[name].dims, batch[name].dims, `${name} dims`);
        assert.deepEqual([...inputs[name].data], [...batch[name].data], `max_length ${maxLength}: ${name}`);
      }
    }
  });

  it('pads input_ids with the pad id and the other inputs with 0, to the longest row', () => {
    const row = (ids: number[]): TokenRow => ({
      input_ids: { dims: [1, ids.length], data: BigInt64Array.from(ids.map(BigInt)) },
      attention_mask: { dims: [1, ids.length], data: BigInt64Array.from(ids.map(() => 1n)) },
    });
    const { width, inputs } = padBatch([row([5, 6, 7]), row([8])], 3);
    assert.equal(width, 3);
    assert.deepEqual([...inputs.input_ids.data], [5n, 6n, 7n, 8n, 3n, 3n]);
    assert.deepEqual([...inputs.attention_mask.data], [1n, 1n, 1n, 1n, 0n, 0n]);
    assert.equal(rowLength(row([1, 2])), 2);
  });

  it("meanPool gives transformers.js's mean_pooling bit for bit, padding included", async () => {
    const { transformers } = await importTransformers('auto');
    const [batch, seq, dims] = [5, 37, 384];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 8 - 4;
    const hidden = Float32Array.from({ length: batch * seq * dims }, random);
    const lengths = [37, 1, 20, 36, 9];
    const mask = BigInt64Array.from({ length: batch * seq }, (_, n) =>
      n % seq < lengths[Math.floor(n / seq)] ? 1n : 0n,
    );
    const expected = transformers.mean_pooling(
      new transformers.Tensor('float32', hidden, [batch, seq, dims]),
      new transformers.Tensor('int64', mask, [batch, seq]),
    );
    const pooled = meanPool(hidden, mask, batch, seq, dims);
    assert.deepEqual(expected.dims, [batch, dims]);
    const differing = [...pooled].filter((x, i) => !Object.is(x, (expected.data as Float32Array)[i])).length;
    assert.equal(differing, 0, `${differing} components differ`);
    // A wrong mask (padding counted) must show: the check is not blind.
    const counted = meanPool(hidden, new BigInt64Array(batch * seq).fill(1n), batch, seq, dims);
    assert.ok([...counted].some((x, i) => x !== (expected.data as Float32Array)[i]));
  });
});

describe('embedding batches: how many texts a model call takes (batchEnd)', () => {
  /** The batches a sequence of token lengths is cut into. */
  const cut = (lengths: number[], maxRows: number, maxCells: number): number[][] => {
    const out: number[][] = [];
    for (let i = 0; i < lengths.length;) {
      const end = batchEnd(lengths, i, maxRows, maxCells);
      out.push(lengths.slice(i, end));
      i = end;
    }
    return out;
  };

  it('fills a call up to the padded-token budget and the row cap, whichever comes first', () => {
    assert.deepEqual(cut(Array(10).fill(20), 8, 256), [Array(8).fill(20), [20, 20]]);
    assert.deepEqual(cut([60, 60, 60, 60, 60], 8, 256), [[60, 60, 60, 60], [60]]);
    assert.deepEqual(cut([100, 120, 128, 130], 8, 256), [[100, 120], [128], [130]]);
  });

  it('sends a text at or over the budget alone, never an empty call', () => {
    assert.deepEqual(cut([256, 256, 256], 8, 256), [[256], [256], [256]]);
    assert.deepEqual(cut([300, 10], 8, 256), [[300], [10]]);
  });

  it('counts the padded width, not the sum, when lengths are not sorted', () => {
    // 2 rows padded to 200 are 400 cells: over a budget of 256.
    assert.deepEqual(cut([10, 200, 10], 8, 256), [[10], [200], [10]]);
    assert.deepEqual(cut([40, 10, 50], 8, 256), [[40, 10, 50]]);
  });

  it('covers every text exactly once, in order, each call within its limits', () => {
    let seed = 7;
    const lengths = Array.from({ length: 500 }, () => ((seed = (seed * 48271) % 2147483647) % 256) + 1);
    const batches = cut(lengths, 8, 256);
    assert.deepEqual(batches.flat(), lengths);
    for (const b of batches) {
      assert.ok(b.length >= 1 && b.length <= 8);
      if (b.length > 1) assert.ok(Math.max(...b) * b.length <= 256, `batch ${b.join(',')}`);
    }
  });
});
