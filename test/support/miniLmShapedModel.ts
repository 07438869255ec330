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
import { encodeBertModel, MINILM_L6_SHAPE, type BertWeights } from '../../tools/model/bertOnnx';
import { CORPORA } from './sharedData';
import { generateOnce, tokenizerJson } from './tinyModels';

/** Folder name; bump the suffix whenever the generated files change. */
export const MINILM_SHAPED_MODEL = 'evident-minilm-shaped-v2';
export const MINILM_SHAPE = {
  ...MINILM_L6_SHAPE,
  /** sentence_bert_config.json's max_seq_length (all-MiniLM-L6-v2 truncates at 256). */
  maxSeqLength: 256,
} as const;

/** The corpus the vocabulary is counted on (the benchmark embeds the 18F handbook, not this): a test without it skips. */
export const VOCABULARY_CORPUS_NAME = 'k8s-community';
export const VOCABULARY_CORPUS = join(CORPORA, VOCABULARY_CORPUS_NAME);

/** Writes (once) the model folder under `dir` and returns its absolute path. */
export async function makeMiniLmShapedModel(dir: string, corpus = VOCABULARY_CORPUS): Promise<string> {
  return generateOnce(join(dir, MINILM_SHAPED_MODEL), async (tmp) => {
    const vocab = generateVocabulary(corpus, MINILM_SHAPE.vocab);
    const weights = randomWeights();
    await mkdir(join(tmp, 'onnx'), { recursive: true });
    await writeFile(join(tmp, 'config.json'), JSON.stringify(configJson(), null, 2));
    await writeFile(
      join(tmp, 'sentence_bert_config.json'),
      JSON.stringify({ max_seq_length: MINILM_SHAPE.maxSeqLength, do_lower_case: false }, null, 2),
    );
    await writeFile(join(tmp, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
    await writeFile(join(tmp, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig(), null, 2));
    await writeFile(join(tmp, 'special_tokens_map.json'), JSON.stringify(SPECIALS_MAP, null, 2));
    await writeFile(
      join(tmp, 'onnx', 'model.onnx'),
      encodeBertModel(MINILM_SHAPE, weights, { q8: false, name: 'minilm_shaped_fp32' }),
    );
    await writeFile(
      join(tmp, 'onnx', 'model_quantized.onnx'),
      encodeBertModel(MINILM_SHAPE, weights, { q8: true, name: 'minilm_shaped_q8' }),
    );
  });
}

// ---------------------------------------------------------------------------------------
// Vocabulary

const SPECIALS_MAP = {
  unk_token: '[UNK]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  cls_token: '[CLS]',
  mask_token: '[MASK]',
};

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
  const whole = new Set(
    ranked
      .filter(([w, c]) => c >= 2 && w.length > 1)
      .slice(0, wholeBudget)
      .map(([w]) => w),
  );
  const pieces = new Map<string, number>();
  for (const [word, count] of ranked) {
    if (whole.has(word) || word.length < 3) continue;
    for (let n = 2; n <= Math.min(8, word.length - 1); n++) {
      pieces.set(word.slice(0, n), (pieces.get(word.slice(0, n)) ?? 0) + count);
    }
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
    const text = readFileSync(file, 'utf8')
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '');
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
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    clean_up_tokenization_spaces: true,
    ...SPECIALS_MAP,
  };
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

function randomWeights(): BertWeights {
  const { hidden: h, intermediate: f, vocab, positions, tokenTypes, layers } = MINILM_SHAPE;
  const rand = gaussian(0x6d1e1e);
  const normal = (n: number, std = 0.02) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = rand() * std;
    return a;
  };
  const norm = () => ({ gain: new Float32Array(h).fill(1), bias: new Float32Array(h) });
  return {
    words: normal(vocab * h),
    positions: normal(positions * h),
    types: normal(tokenTypes * h),
    embeddingNorm: norm(),
    layers: Array.from({ length: layers }, () => ({
      q: normal(h * h),
      k: normal(h * h),
      v: normal(h * h),
      o: normal(h * h),
      up: normal(h * f),
      down: normal(f * h),
      qb: normal(h),
      kb: normal(h),
      vb: normal(h),
      ob: normal(h),
      upb: normal(f),
      downb: normal(h),
      attentionNorm: norm(),
      outputNorm: norm(),
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
