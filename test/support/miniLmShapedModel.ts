// Generates a random-weight sentence-embedding model with all-MiniLM-L6-v2's exact shape, so that
// embedding TIME is realistic without any download (no weights can be fetched here): a BERT
// encoder of 6 layers, hidden 384, 12 heads, intermediate 1536, GELU, vocabulary 30522, 512
// positions, 2 token types; transformers.js mean-pools its last hidden state into 384 dims.
//   - onnx/model_quantized.onnx (q8, what the extension loads by default, ~23 MB): the hub's
//     dynamic int8 quantization: every MatMul weight is int8 and runs as DynamicQuantizeLinear +
//     MatMulInteger; the word and position tables are int8 behind a DequantizeLinear;
//   - onnx/model.onnx (fp32, ~90 MB): the same weights unquantized.
// The vectors mean nothing (random weights); only their cost and shape are MiniLM's.
// The WordPiece vocabulary is GENERATED from word counts of a documentation corpus (not the
// one the benchmark embeds): frequent words whole, then frequent word starts and `##`
// continuations, then single characters, so English words split into pieces as with a real
// BERT vocabulary. No model's vocabulary or weights are copied.

import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { generateOnce, tokenizerJson } from './tinyModels';

/** Folder name; bump the suffix whenever the generated files change. */
export const MINILM_SHAPED_MODEL = 'evident-minilm-shaped-v1';
export const MINILM_SHAPE = {
  layers: 6,
  hidden: 384,
  heads: 12,
  intermediate: 1536,
  vocab: 30522,
  positions: 512,
  tokenTypes: 2,
  /** sentence_bert_config.json's max_seq_length (all-MiniLM-L6-v2 truncates at 256). */
  maxSeqLength: 256,
} as const;

/** The corpus the vocabulary is counted on (the benchmark embeds the 18F handbook, not this). */
export const VOCABULARY_CORPUS = join(__dirname, '../../../shared/data/corpora/k8s-community');

/** Writes (once) the model folder under `dir` and returns its absolute path. */
export async function makeMiniLmShapedModel(dir: string, corpus = VOCABULARY_CORPUS): Promise<string> {
  return generateOnce(join(dir, MINILM_SHAPED_MODEL), async (tmp) => {
    const vocab = generateVocabulary(corpus, MINILM_SHAPE.vocab);
    const weights = randomWeights();
    await mkdir(join(tmp, 'onnx'), { recursive: true });
    await writeFile(join(tmp, 'config.json'), JSON.stringify(configJson(), null, 2));
    await writeFile(join(tmp, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: MINILM_SHAPE.maxSeqLength, do_lower_case: false }, null, 2));
    await writeFile(join(tmp, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
    await writeFile(join(tmp, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig(), null, 2));
    await writeFile(join(tmp, 'special_tokens_map.json'), JSON.stringify(SPECIALS_MAP, null, 2));
    await writeFile(join(tmp, 'onnx', 'model.onnx'), encodeModel(encoderGraph(weights, false)));
    await writeFile(join(tmp, 'onnx', 'model_quantized.onnx'), encodeModel(encoderGraph(weights, true)));
  });
}

// ---------------------------------------------------------------------------------------
// Vocabulary

const SPECIALS_MAP = { unk_token: '[UNK]', sep_token: '[SEP]', pad_token: '[PAD]', cls_token: '[CLS]', mask_token: '[MASK]' };

/**
 * BERT's layout of special ids ([PAD] 0, [unused…], [UNK] 100, [CLS] 101, [SEP] 102, [MASK] 103),
 * then characters, then whole words, word starts and `##` continuations by corpus frequency.
 */
export function generateVocabulary(corpus: string, size: number): string[] {
  const counts = wordCounts(corpus);
  const vocab: string[] = ['[PAD]'];
  for (let i = 0; vocab.length < 100; i++) vocab.push(`[unused${i}]`);
  vocab.push('[UNK]', '[CLS]', '[SEP]', '[MASK]');
  const seen = new Set(vocab);
  const add = (token: string) => {
    if (vocab.length < size && !seen.has(token)) {
      seen.add(token);
      vocab.push(token);
    }
  };
  // Every printable ASCII character, and the letters and digits of the corpus, alone and as a
  // continuation: any word can be spelled, so [UNK] is rare.
  const chars = new Set<string>();
  for (let c = 33; c < 127; c++) chars.add(String.fromCharCode(c));
  for (const word of counts.keys()) for (const ch of word) chars.add(ch);
  for (const ch of [...chars].sort()) add(ch);
  for (const ch of [...chars].sort()) if (/[\p{L}\p{N}]/u.test(ch)) add(`##${ch}`);

  // Scores: a word counts for itself; its starts and continuations count for every word they
  // occur in that is not kept whole (a real WordPiece trainer merges by the same evidence).
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const budget = size - vocab.length;
  const wholeBudget = Math.round(budget * 0.78);
  const whole = new Set(ranked.filter(([w, c]) => c >= 2 && w.length > 1).slice(0, wholeBudget).map(([w]) => w));
  const pieces = new Map<string, number>();
  for (const [word, count] of ranked) {
    if (whole.has(word) || word.length < 3) continue;
    for (let n = 2; n <= Math.min(8, word.length - 1); n++) pieces.set(word.slice(0, n), (pieces.get(word.slice(0, n)) ?? 0) + count);
    for (let start = 1; start < word.length; start++) {
      for (let n = 2; n <= 6 && start + n <= word.length; n++) {
        const piece = `##${word.slice(start, start + n)}`;
        pieces.set(piece, (pieces.get(piece) ?? 0) + count);
      }
    }
  }
  for (const [w] of ranked) if (whole.has(w)) add(w);
  const rankedPieces = [...pieces.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [piece] of rankedPieces) add(piece);
  // A small corpus may not fill the budget: the rarest remaining words close it.
  for (const [w] of ranked) add(w);
  for (let i = 0; vocab.length < size; i++) add(`[unused${100 + i}]`);
  return vocab;
}

function wordCounts(corpus: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of markdownFiles(corpus)) {
    const text = readFileSync(file, 'utf8').toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '');
    for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length <= 24) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  if (counts.size === 0) throw new Error(`no Markdown words under ${corpus}: the vocabulary needs a corpus`);
  return counts;
}

function markdownFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (/\.(md|markdown|mdx)$/i.test(entry.name)) out.push(full);
  }
  return out;
}

function tokenizerConfig(): Record<string, unknown> {
  // Like the hub's MiniLM: the tokenizer allows 512 tokens; the 256 of training is in
  // sentence_bert_config.json.
  return { tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, clean_up_tokenization_spaces: true, ...SPECIALS_MAP };
}

function configJson(): Record<string, unknown> {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    vocab_size: MINILM_SHAPE.vocab,
    hidden_size: MINILM_SHAPE.hidden,
    num_hidden_layers: MINILM_SHAPE.layers,
    num_attention_heads: MINILM_SHAPE.heads,
    intermediate_size: MINILM_SHAPE.intermediate,
    hidden_act: 'gelu',
    max_position_embeddings: MINILM_SHAPE.positions,
    type_vocab_size: MINILM_SHAPE.tokenTypes,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    transformers_version: '4.44.0',
  };
}

// ---------------------------------------------------------------------------------------
// Weights: BERT's initialisation (normal, std 0.02; LayerNorm gain 1, bias 0), seeded.

interface LayerWeights {
  q: Float32Array; k: Float32Array; v: Float32Array; o: Float32Array; up: Float32Array; down: Float32Array;
  qb: Float32Array; kb: Float32Array; vb: Float32Array; ob: Float32Array; upb: Float32Array; downb: Float32Array;
}

interface Weights {
  words: Float32Array;
  positions: Float32Array;
  types: Float32Array;
  layers: LayerWeights[];
}

function randomWeights(): Weights {
  const { hidden: h, intermediate: f, vocab, positions, tokenTypes, layers } = MINILM_SHAPE;
  const rand = gaussian(0x6d1e1e);
  const normal = (n: number, std = 0.02) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = rand() * std;
    return a;
  };
  return {
    words: normal(vocab * h),
    positions: normal(positions * h),
    types: normal(tokenTypes * h),
    layers: Array.from({ length: layers }, () => ({
      q: normal(h * h), k: normal(h * h), v: normal(h * h), o: normal(h * h), up: normal(h * f), down: normal(f * h),
      qb: normal(h), kb: normal(h), vb: normal(h), ob: normal(h), upb: normal(f), downb: normal(h),
    })),
  };
}

/** mulberry32 + Box-Muller: standard normal values from a seed. */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const theta = 2 * Math.PI * uniform();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/** Symmetric per-tensor int8 quantization (zero point 0), as dynamic quantization does for weights. */
function quantize(values: Float32Array): { data: Int8Array; scale: number } {
  let max = 0;
  for (const v of values) max = Math.max(max, Math.abs(v));
  const scale = max / 127 || 1;
  const data = new Int8Array(values.length);
  for (let i = 0; i < values.length; i++) data[i] = Math.max(-127, Math.min(127, Math.round(values[i] / scale)));
  return { data, scale };
}

// ---------------------------------------------------------------------------------------
// The ONNX graph (opset 17: LayerNormalization)

const T = onnx.TensorProto.DataType;

function tensor(name: string, dims: number[], dataType: number, data: ArrayBufferView): onnx.ITensorProto {
  return { name, dims, dataType, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function valueInfo(name: string, elemType: number, dims: Array<string | number>): onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } } };
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

  op(opType: string, inputs: string[], attributes: Record<string, number | number[]> = {}, outputs = 1, name?: string): string[] {
    const base = name ?? `${opType.toLowerCase()}_${this.counter++}`;
    const out = outputs === 1 ? [base] : Array.from({ length: outputs }, (_, i) => `${base}_${i}`);
    this.nodes.push({ opType, input: inputs, output: out, name: base, attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)) });
    return out;
  }

  one(opType: string, inputs: string[], attributes: Record<string, number | number[]> = {}, name?: string): string {
    return this.op(opType, inputs, attributes, 1, name)[0];
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
  linear(x: string, name: string, w: Float32Array, b: Float32Array, inDim: number, outDim: number, q8: boolean): string {
    const bias = this.float(`${name}.bias`, [outDim], b);
    if (!q8) return this.one('Add', [this.one('MatMul', [x, this.float(`${name}.weight`, [inDim, outDim], w)]), bias]);
    const { data, scale } = quantize(w);
    const weight = this.int8(`${name}.weight_quantized`, [inDim, outDim], data);
    const weightZero = this.int8(`${name}.weight_zero_point`, [], new Int8Array([0]));
    const weightScale = this.scalar(`${name}.weight_scale`, scale);
    const [xq, xScale, xZero] = this.op('DynamicQuantizeLinear', [x], {}, 3);
    const integer = this.one('MatMulInteger', [xq, weight, xZero, weightZero]);
    const asFloat = this.one('Cast', [integer], { to: T.FLOAT });
    const rescaled = this.one('Mul', [asFloat, this.one('Mul', [xScale, weightScale])]);
    return this.one('Add', [rescaled, bias]);
  }

  layerNorm(x: string, name: string, width: number): string {
    const gain = this.float(`${name}.weight`, [width], new Float32Array(width).fill(1));
    const bias = this.float(`${name}.bias`, [width], new Float32Array(width));
    return this.one('LayerNormalization', [x, gain, bias], { axis: -1, epsilon: 1e-12 });
  }

  /** A lookup table; q8: int8 rows behind a DequantizeLinear. */
  table(name: string, rows: number, width: number, values: Float32Array, indices: string, q8: boolean): string {
    if (!q8) return this.one('Gather', [this.float(name, [rows, width], values), indices]);
    const { data, scale } = quantize(values);
    const gathered = this.one('Gather', [this.int8(`${name}_quantized`, [rows, width], data), indices]);
    return this.one('DequantizeLinear', [gathered, this.scalar(`${name}_scale`, scale), this.int8(`${name}_zero_point`, [], new Int8Array([0]))]);
  }
}

function encoderGraph(weights: Weights, q8: boolean): onnx.IGraphProto {
  const { hidden: h, heads, intermediate: f, vocab, positions, tokenTypes } = MINILM_SHAPE;
  const headWidth = h / heads;
  const g = new GraphBuilder();

  // Embeddings: words + positions + token types, then LayerNorm.
  const seqLength = g.one('Gather', [g.one('Shape', ['input_ids']), g.int64Scalar('seq_axis', 1)]);
  const positionIds = g.one('Range', [g.int64Scalar('zero', 0), seqLength, g.int64Scalar('one', 1)]);
  const words = g.table('embeddings.word_embeddings', vocab, h, weights.words, 'input_ids', q8);
  const place = g.table('embeddings.position_embeddings', positions, h, weights.positions, positionIds, q8);
  const types = g.one('Gather', [g.float('embeddings.token_type_embeddings', [tokenTypes, h], weights.types), 'token_type_ids']);
  let x = g.layerNorm(g.one('Add', [g.one('Add', [words, place]), types]), 'embeddings.LayerNorm', h);

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
    const q = split(g.linear(x, `${p}.attention.self.query`, w.q, w.qb, h, h, q8), [0, 2, 1, 3]);
    const k = split(g.linear(x, `${p}.attention.self.key`, w.k, w.kb, h, h, q8), [0, 2, 3, 1]);
    const v = split(g.linear(x, `${p}.attention.self.value`, w.v, w.vb, h, h, q8), [0, 2, 1, 3]);
    const scores = g.one('Add', [g.one('Mul', [g.one('MatMul', [q, k]), attentionScale]), maskBias4]);
    const context = g.one('MatMul', [g.one('Softmax', [scores], { axis: -1 }), v]);
    const merged = g.one('Reshape', [g.one('Transpose', [context], { perm: [0, 2, 1, 3] }), mergedShape]);
    const attended = g.linear(merged, `${p}.attention.output.dense`, w.o, w.ob, h, h, q8);
    x = g.layerNorm(g.one('Add', [attended, x]), `${p}.attention.output.LayerNorm`, h);
    // Feed-forward with exact GELU: 0.5·u·(1 + erf(u/√2)).
    const up = g.linear(x, `${p}.intermediate.dense`, w.up, w.upb, h, f, q8);
    const gelu = g.one('Mul', [g.one('Mul', [up, g.one('Add', [g.one('Erf', [g.one('Div', [up, sqrt2])]), 'one_f'])]), half]);
    const down = g.linear(gelu, `${p}.output.dense`, w.down, w.downb, f, h, q8);
    x = g.layerNorm(g.one('Add', [down, x]), `${p}.output.LayerNorm`, h);
  });
  g.nodes.push({ opType: 'Identity', input: [x], output: ['last_hidden_state'], name: 'output', attribute: [] });

  return {
    name: q8 ? 'minilm_shaped_q8' : 'minilm_shaped_fp32',
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

function encodeModel(graph: onnx.IGraphProto): Uint8Array {
  return onnx.ModelProto.encode({
    irVersion: 8,
    producerName: 'evident-minilm-shaped',
    opsetImport: [{ domain: '', version: 17 }],
    graph,
  }).finish();
}
