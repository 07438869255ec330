// The arithmetic around one embedding model call, kept apart from the model loading: texts
// tokenised one by one are padded into a batch exactly as the tokenizer pads a batch (so each
// text is tokenised once, and batches can be formed by token count), and the model's token
// vectors are mean-pooled over the attention mask exactly as transformers.js's `mean_pooling`
// does (the same float operations in the same order, so the same bits), in one pass over memory.

/** One text's tokens: the tokenizer's tensors for it alone (dims [1, n]), each as int64. */
export type TokenRow = Record<string, { dims: number[]; data: BigInt64Array }>;

/** A batch's tensors: each input of the rows, right-padded to the longest row. */
export interface PaddedBatch {
  width: number;
  inputs: Record<string, { dims: [number, number]; data: BigInt64Array }>;
}

/** How many tokens a row holds. */
export const rowLength = (row: TokenRow): number => row.input_ids.dims[1];

/**
 * Where the batch starting at `start` ends (exclusive): as many rows as fit `maxCells` padded
 * tokens (rows × the longest of them) and `maxRows`, never fewer than one row.
 */
export function batchEnd(lengths: number[], start: number, maxRows: number, maxCells: number): number {
  let end = start + 1;
  let width = lengths[start];
  while (end < lengths.length && end - start < maxRows) {
    const wider = Math.max(width, lengths[end]);
    if (wider * (end - start + 1) > maxCells) break;
    width = wider;
    end++;
  }
  return end;
}

/**
 * Right-pads rows to the longest of them, as the tokenizer's `padding: true` does: `input_ids`
 * with `padId`, every other input (attention_mask, token_type_ids) with 0.
 */
export function padBatch(rows: TokenRow[], padId: number): PaddedBatch {
  const width = Math.max(...rows.map(rowLength));
  const inputs: PaddedBatch['inputs'] = {};
  for (const name of Object.keys(rows[0])) {
    const data = new BigInt64Array(rows.length * width);
    if (name === 'input_ids' && padId !== 0) data.fill(BigInt(padId));
    rows.forEach((row, r) => data.set(row[name].data, r * width));
    inputs[name] = { dims: [rows.length, width], data };
  }
  return { width, inputs };
}

/**
 * Mean of each row's token vectors where its mask is 1: hidden [batch, seq, dims], mask [batch, seq].
 * The sums run over the positions in order in double precision, as transformers.js's own pooling
 * does; positions outside the mask add exactly zero there, so skipping them changes no bit.
 */
export function meanPool(
  hidden: Float32Array,
  mask: BigInt64Array,
  batch: number,
  seq: number,
  dims: number,
): Float32Array {
  const out = new Float32Array(batch * dims);
  const sums = new Float64Array(dims);
  for (let i = 0; i < batch; i++) {
    sums.fill(0);
    let count = 0;
    for (let j = 0; j < seq; j++) {
      const weight = Number(mask[i * seq + j]);
      if (weight === 0) continue;
      count += weight;
      const at = (i * seq + j) * dims;
      for (let k = 0; k < dims; k++) sums[k] += hidden[at + k] * weight;
    }
    for (let k = 0; k < dims; k++) out[i * dims + k] = sums[k] / count;
  }
  return out;
}
