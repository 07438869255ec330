// Writes a BERT encoder (all-MiniLM-L6-v2's architecture) as an ONNX graph that transformers.js
// loads for feature extraction: inputs input_ids / attention_mask / token_type_ids, output
// last_hidden_state [batch, seq, hidden]; the pipeline mean-pools and normalises.
//   - fp32: MatMul with the float weights (onnx/model.onnx);
//   - q8: dynamic int8 quantization (onnx/model_quantized.onnx): every MatMul weight is int8 with
//     a scale per output column and runs as DynamicQuantizeLinear + MatMulInteger; the word and
//     position tables are int8 with a scale per row. Per-column/per-row scales keep the vectors
//     close to fp32 (one scale per tensor gave a cosine of only ~0.95 on real weights).
// One writer for two uses: the real weights converted by `npm run fetch-model`, and the
// random-weight model of the same shape that the timing benchmarks use (test/support).

import { onnx } from 'onnx-proto';

export interface BertShape {
  layers: number;
  hidden: number;
  heads: number;
  intermediate: number;
  vocab: number;
  positions: number;
  tokenTypes: number;
  layerNormEps: number;
}

/** all-MiniLM-L6-v2's shape. */
export const MINILM_L6_SHAPE: BertShape = {
  layers: 6,
  hidden: 384,
  heads: 12,
  intermediate: 1536,
  vocab: 30522,
  positions: 512,
  tokenTypes: 2,
  layerNormEps: 1e-12,
};

export interface LayerNormWeights {
  gain: Float32Array;
  bias: Float32Array;
}

/**
 * One encoder layer. Linear weights are laid out [in, out] (row-major), as ONNX MatMul takes
 * them: PyTorch's nn.Linear stores [out, in], so converted weights are transposed first.
 */
export interface BertLayerWeights {
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  o: Float32Array;
  up: Float32Array;
  down: Float32Array;
  qb: Float32Array;
  kb: Float32Array;
  vb: Float32Array;
  ob: Float32Array;
  upb: Float32Array;
  downb: Float32Array;
  attentionNorm: LayerNormWeights;
  outputNorm: LayerNormWeights;
}

export interface BertWeights {
  words: Float32Array;
  positions: Float32Array;
  types: Float32Array;
  embeddingNorm: LayerNormWeights;
  layers: BertLayerWeights[];
}

/** Checks every tensor's length against the shape, so a mislabelled tensor fails here, not as wrong vectors. */
export function checkBertWeights(shape: BertShape, weights: BertWeights): void {
  const { hidden: h, intermediate: f } = shape;
  const expect = (name: string, values: Float32Array, length: number) => {
    if (values.length !== length) throw new Error(`${name}: ${values.length} values, expected ${length}`);
  };
  expect('word embeddings', weights.words, shape.vocab * h);
  expect('position embeddings', weights.positions, shape.positions * h);
  expect('token type embeddings', weights.types, shape.tokenTypes * h);
  expect('embedding LayerNorm gain', weights.embeddingNorm.gain, h);
  expect('embedding LayerNorm bias', weights.embeddingNorm.bias, h);
  if (weights.layers.length !== shape.layers) {
    throw new Error(`${weights.layers.length} layers, expected ${shape.layers}`);
  }
  weights.layers.forEach((w, i) => {
    for (const [name, values, length] of [
      ['q', w.q, h * h],
      ['k', w.k, h * h],
      ['v', w.v, h * h],
      ['o', w.o, h * h],
      ['up', w.up, h * f],
      ['down', w.down, f * h],
      ['qb', w.qb, h],
      ['kb', w.kb, h],
      ['vb', w.vb, h],
      ['ob', w.ob, h],
      ['upb', w.upb, f],
      ['downb', w.downb, h],
      ['attention LayerNorm gain', w.attentionNorm.gain, h],
      ['attention LayerNorm bias', w.attentionNorm.bias, h],
      ['output LayerNorm gain', w.outputNorm.gain, h],
      ['output LayerNorm bias', w.outputNorm.bias, h],
    ] as const) {
      expect(`layer ${i} ${name}`, values, length);
    }
  });
}

/**
 * MatMul weights use 7 bits ([-63, 63]), as onnxruntime's `reduce_range` does: its x86 kernels
 * multiply uint8 activations by int8 weights in 16-bit pairs, which saturate with full 8-bit
 * weights (the native and WebAssembly builds then disagree).
 */
const MATMUL_WEIGHT_LIMIT = 63;

/** Symmetric int8 quantization of a [rows, cols] matrix with one scale per column (or per row). */
export function quantizeInt8Axis(
  values: Float32Array,
  rows: number,
  cols: number,
  axis: 'column' | 'row',
  limit = 127,
): { data: Int8Array; scales: Float32Array } {
  const count = axis === 'column' ? cols : rows;
  const max = new Float32Array(count);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = axis === 'column' ? c : r;
      max[k] = Math.max(max[k], Math.abs(values[r * cols + c]));
    }
  }
  const scales = max.map((m) => m / limit || 1);
  const data = new Int8Array(values.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const scale = scales[axis === 'column' ? c : r];
      data[r * cols + c] = Math.max(-limit, Math.min(limit, Math.round(values[r * cols + c] / scale)));
    }
  }
  return { data, scales };
}

/** The encoded ONNX model (opset 17). */
export function encodeBertModel(
  shape: BertShape,
  weights: BertWeights,
  options: { q8: boolean; name: string },
): Uint8Array {
  checkBertWeights(shape, weights);
  return onnx.ModelProto.encode({
    irVersion: 8,
    producerName: 'evident',
    opsetImport: [{ domain: '', version: 17 }],
    graph: encoderGraph(shape, weights, options.q8, options.name),
  }).finish();
}

// ---------------------------------------------------------------------------------------

const T = onnx.TensorProto.DataType;

function tensor(name: string, dims: number[], dataType: number, data: ArrayBufferView): onnx.ITensorProto {
  return { name, dims, dataType, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function valueInfo(name: string, elemType: number, dims: Array<string | number>): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

function attribute(name: string, value: number | number[]): onnx.IAttributeProto {
  if (Array.isArray(value)) return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: value };
  return Number.isInteger(value)
    ? { name, type: onnx.AttributeProto.AttributeType.INT, i: value }
    : { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: value };
}

class GraphBuilder {
  readonly nodes: onnx.INodeProto[] = [];
  readonly initializers: onnx.ITensorProto[] = [];
  private counter = 0;

  constructor(
    private readonly q8: boolean,
    private readonly eps: number,
  ) {}

  op(opType: string, inputs: string[], attributes: Record<string, number | number[]> = {}, outputs = 1): string[] {
    const base = `${opType.toLowerCase()}_${this.counter++}`;
    const out = outputs === 1 ? [base] : Array.from({ length: outputs }, (_, i) => `${base}_${i}`);
    this.nodes.push({
      opType,
      input: inputs,
      output: out,
      name: base,
      attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)),
    });
    return out;
  }

  one(opType: string, inputs: string[], attributes: Record<string, number | number[]> = {}): string {
    return this.op(opType, inputs, attributes, 1)[0];
  }

  float(name: string, dims: number[], data: Float32Array): string {
    this.initializers.push(tensor(name, dims, T.FLOAT, data));
    return name;
  }

  scalar(name: string, value: number): string {
    return this.float(name, [], new Float32Array([value]));
  }

  int64(name: string, values: number[]): string {
    this.initializers.push({ name, dims: [values.length], dataType: T.INT64, int64Data: values });
    return name;
  }

  int64Scalar(name: string, value: number): string {
    this.initializers.push({ name, dims: [], dataType: T.INT64, int64Data: [value] });
    return name;
  }

  int8(name: string, dims: number[], data: Int8Array): string {
    this.initializers.push(tensor(name, dims, T.INT8, data));
    return name;
  }

  /** x·W + b; q8: DynamicQuantizeLinear(x) → MatMulInteger with the int8 weight → rescale. */
  linear(x: string, name: string, w: Float32Array, b: Float32Array, inDim: number, outDim: number): string {
    const bias = this.float(`${name}.bias`, [outDim], b);
    if (!this.q8) {
      return this.one('Add', [this.one('MatMul', [x, this.float(`${name}.weight`, [inDim, outDim], w)]), bias]);
    }
    const { data, scales } = quantizeInt8Axis(w, inDim, outDim, 'column', MATMUL_WEIGHT_LIMIT);
    const weight = this.int8(`${name}.weight_quantized`, [inDim, outDim], data);
    const weightZero = this.int8(`${name}.weight_zero_point`, [], new Int8Array([0]));
    const weightScale = this.float(`${name}.weight_scale`, [outDim], scales);
    const [xq, xScale, xZero] = this.op('DynamicQuantizeLinear', [x], {}, 3);
    const integer = this.one('MatMulInteger', [xq, weight, xZero, weightZero]);
    const asFloat = this.one('Cast', [integer], { to: T.FLOAT });
    const rescaled = this.one('Mul', [asFloat, this.one('Mul', [xScale, weightScale])]);
    return this.one('Add', [rescaled, bias]);
  }

  layerNorm(x: string, name: string, width: number, norm: LayerNormWeights): string {
    const gain = this.float(`${name}.weight`, [width], norm.gain);
    const bias = this.float(`${name}.bias`, [width], norm.bias);
    return this.one('LayerNormalization', [x, gain, bias], { axis: -1, epsilon: this.eps });
  }

  /** A lookup table; q8: int8 rows, each times its own scale. */
  table(name: string, rows: number, width: number, values: Float32Array, indices: string): string {
    if (!this.q8) return this.one('Gather', [this.float(name, [rows, width], values), indices]);
    const { data, scales } = quantizeInt8Axis(values, rows, width, 'row');
    const gathered = this.one(
      'Cast',
      [this.one('Gather', [this.int8(`${name}_quantized`, [rows, width], data), indices])],
      { to: T.FLOAT },
    );
    const rowScales = this.one('Unsqueeze', [
      this.one('Gather', [this.float(`${name}_scale`, [rows], scales), indices]),
      this.int64(`${name}_scale_axis`, [-1]),
    ]);
    return this.one('Mul', [gathered, rowScales]);
  }
}

function encoderGraph(shape: BertShape, weights: BertWeights, q8: boolean, name: string): onnx.IGraphProto {
  const { hidden: h, heads, intermediate: f, vocab, positions, tokenTypes } = shape;
  const headWidth = h / heads;
  const g = new GraphBuilder(q8, shape.layerNormEps);

  // Embeddings: words + positions + token types, then LayerNorm.
  const seqLength = g.one('Gather', [g.one('Shape', ['input_ids']), g.int64Scalar('seq_axis', 1)]);
  const positionIds = g.one('Range', [g.int64Scalar('zero', 0), seqLength, g.int64Scalar('one', 1)]);
  const words = g.table('embeddings.word_embeddings', vocab, h, weights.words, 'input_ids');
  const place = g.table('embeddings.position_embeddings', positions, h, weights.positions, positionIds);
  const types = g.one('Gather', [
    g.float('embeddings.token_type_embeddings', [tokenTypes, h], weights.types),
    'token_type_ids',
  ]);
  let x = g.layerNorm(
    g.one('Add', [g.one('Add', [words, place]), types]),
    'embeddings.LayerNorm',
    h,
    weights.embeddingNorm,
  );

  // Attention bias: 0 where the mask is 1, -10000 on padding; [batch, 1, 1, seq].
  const maskFloat = g.one('Cast', ['attention_mask'], { to: T.FLOAT });
  const maskBias = g.one('Mul', [g.one('Sub', [g.scalar('one_f', 1), maskFloat]), g.scalar('mask_fill', -10000)]);
  const maskBias4 = g.one('Unsqueeze', [maskBias, g.int64('mask_axes', [1, 2])]);
  const headsShape = g.int64('heads_shape', [0, 0, heads, headWidth]);
  const mergedShape = g.int64('merged_shape', [0, 0, h]);
  const attentionScale = g.scalar('attention_scale', 1 / Math.sqrt(headWidth));
  const sqrt2 = g.scalar('sqrt2', Math.SQRT2);
  const half = g.scalar('half', 0.5);

  weights.layers.forEach((w, i) => {
    const p = `encoder.layer.${i}`;
    const split = (t: string, perm: number[]) => g.one('Transpose', [g.one('Reshape', [t, headsShape])], { perm });
    const q = split(g.linear(x, `${p}.attention.self.query`, w.q, w.qb, h, h), [0, 2, 1, 3]);
    const k = split(g.linear(x, `${p}.attention.self.key`, w.k, w.kb, h, h), [0, 2, 3, 1]);
    const v = split(g.linear(x, `${p}.attention.self.value`, w.v, w.vb, h, h), [0, 2, 1, 3]);
    const scores = g.one('Add', [g.one('Mul', [g.one('MatMul', [q, k]), attentionScale]), maskBias4]);
    const context = g.one('MatMul', [g.one('Softmax', [scores], { axis: -1 }), v]);
    const merged = g.one('Reshape', [g.one('Transpose', [context], { perm: [0, 2, 1, 3] }), mergedShape]);
    const attended = g.linear(merged, `${p}.attention.output.dense`, w.o, w.ob, h, h);
    x = g.layerNorm(g.one('Add', [attended, x]), `${p}.attention.output.LayerNorm`, h, w.attentionNorm);
    // Feed-forward with exact GELU: 0.5·u·(1 + erf(u/√2)).
    const up = g.linear(x, `${p}.intermediate.dense`, w.up, w.upb, h, f);
    const gelu = g.one('Mul', [
      g.one('Mul', [up, g.one('Add', [g.one('Erf', [g.one('Div', [up, sqrt2])]), 'one_f'])]),
      half,
    ]);
    const down = g.linear(gelu, `${p}.output.dense`, w.down, w.downb, f, h);
    x = g.layerNorm(g.one('Add', [down, x]), `${p}.output.LayerNorm`, h, w.outputNorm);
  });
  g.nodes.push({ opType: 'Identity', input: [x], output: ['last_hidden_state'], name: 'output', attribute: [] });

  return {
    name,
    input: [
      valueInfo('input_ids', T.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', T.INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', T.INT64, ['batch_size', 'sequence_length']),
    ],
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', h])],
    initializer: g.initializers,
    node: g.nodes,
  };
}
