// Generates tiny, weight-free model folders in the layout transformers.js 4.x loads, so tests
// and benchmarks run the REAL embedding and cross-encoder code paths without any download:
//   - an embedding model (BERT-shaped, 64 dims) whose token rows are sums of seeded random
//     vectors of character trigrams: texts sharing words or morphemes get a higher cosine;
//   - an entailment classifier (ENTAILMENT / NOT_ENTAILMENT) whose logit is the cosine of the
//     premise and hypothesis mean embeddings: word overlap reads as entailment.
// They know nothing about meaning; tests may assert direction (related > unrelated), not quality.
// The vocabulary is written here or derived algorithmically; no model's data is copied.

import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { onnx } from 'onnx-proto';

/** Folder names; bump the suffix whenever the generated files change. */
export const TINY_EMBEDDING_MODEL = 'evident-tiny-embedding-v1';
export const TINY_CLASSIFIER_MODEL = 'evident-tiny-entailment-v1';
export const TINY_DIMENSIONS = 64;
export const TINY_VOCAB_SIZE = 4096;
/** Classifier logits are `[-(K*c - B), K*c - B]` for the segment cosine `c`: ENTAILMENT when c > B/K. */
export const TINY_CLASSIFIER_SCALE = 12;
export const TINY_CLASSIFIER_BIAS = 4.2;

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
const SEED = 0x5eed_e71d;

// Common English and policy words, written for this generator (lowercase, space-separated).
const WORDS = `
the of and to a in is it you that he was for on are with as i his they be at one have this from or had by
not word but what some we can out other were all there when up use your how said an each she which do their
time if will way about many then them write would like so these her long make thing see him two has look more
day could go come did number sound no most people my over know water than call first who may down side been now
find any new work part take get place made live where after back little only round man year came show every
good me give our under name very through just form sentence great think say help low line differ turn cause
much mean before move right boy old too same tell does set three want air well also play small end put home
read hand port large spell add even land here must big high such follow act why ask men change went light kind
off need house picture try us again animal point mother world near build self earth father head stand own page
should country found answer school grow study still learn plant cover food sun four between state keep eye
never last let thought city tree cross farm hard start might story saw far sea draw left late run while press
close night real life few north open seem together next white children begin got walk example ease paper
group always music those both mark often letter until mile river car feet care second book carry took science
eat room friend began idea fish mountain stop once base hear horse cut sure watch color face wood main enough
plain girl usual young ready above ever red list though feel talk bird soon body dog family direct pose leave
song measure door product black short numeral class wind question happen complete ship area half rock order
fire south problem piece told knew pass since top whole king space heard best hour better true during hundred
five remember step early hold west ground interest reach fast verb sing listen six table travel less morning
ten simple several vowel toward war lay against pattern slow center love person money serve appear road map
rain rule govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note wait
plan figure star box noun field rest correct able pound done beauty drive stood contain front teach week final
gave green quick develop ocean warm free minute strong special mind behind clear tail produce fact street inch
multiply nothing course stay wheel full force blue object decide surface deep moon island foot system busy
test record boat common gold possible plane stead dry wonder laugh thousand ago ran check game shape equate
hot miss brought heat snow tire bring yes distant fill east paint language among
policy policies refund refunds refundable annual annually monthly month months plan plans purchase purchased
cancel cancellation renewal renew automatic subscription billing invoice charge charged payment pay paid
customer account settings click select confirm within prorated pro rata calendar business days weeks years
travel trip trips flight flights airline economy hotel hotels lodging night nights mileage rental train taxi
booking book booked per diem meal meals breakfast lunch dinner receipt receipts expense expenses reimburse
reimbursement reimbursed limit limits maximum minimum amount amounts approve approval approved approver
manager managers employee employees staff contractor contractors team teams department finance office
leave vacation holiday holidays sick parental maternity paternity bereavement unpaid paid accrue accrual
carry request requests notice weeks public annual entitlement balance
security password passwords passphrase characters length rotate reset multi factor authentication device
devices laptop laptops encrypt encrypted encryption incident incidents report reporting breach phishing email
emails suspicious alert alerts access accounts admin administrator credentials lock locked screen update
updates patch software hardware network vpn wifi public private secure risk severity response respond hours
remote home office equipment stipend internet coworking location country countries core timezone meeting
meetings data retention retain delete deletion deleted backup backups archive archived record records log
logs personal customer privacy store stored storage days period review reviewed owner owners legal hold
company companies fiscal quarter quarterly eligible eligibility exception exceptions must may should shall
only except including include includes example section table total cost costs currency dollar dollars euro
euros fee fees tax taxes tip tips gift gifts client clients conference training course courses book
`;

// Frequent endings and beginnings, as continuation pieces (##…) and word starts.
const SUFFIXES = `s es ed d ing ly er ers est ion ions tion tions sion ment ments ness able ible al ial ful less
ous ive ity ty ize ise ized ance ence ant ent ism ist ists ary ory ure age ship hood ward wards y ic ical`;
const PREFIXES = `re un in im dis pre non over under sub inter trans super anti auto co de en ex mis out post pro`;

// Function words get small rows so that mean pooling is driven by content words.
const STOPWORDS = new Set(
  `a an the of and or to in on at by for from with as is are was were be been being it its this that these those
  i you he she we they me him her us them my your his our their what which who whom when where why how if then so
  than too very can could will would shall should may might must do does did has have had not no nor but also
  any all each every some such only own same there here about into over under again further once just`.split(/\s+/),
);

/**
 * `<project root>/.test-cache/models` (git-ignored): the usual `dir` for the functions below.
 * Found by walking up from this file to the nearest package.json, so it also holds when the
 * tests are compiled into another folder.
 */
export function defaultModelCacheDir(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return join(dir, '.test-cache', 'models');
}

/** Writes (once) the embedding model folder under `dir` and returns its absolute path. */
export async function makeTinyEmbeddingModel(dir: string, dimensions = TINY_DIMENSIONS): Promise<string> {
  // Other widths (the scale benchmark uses 384, MiniLM's) live in their own folder.
  const name = dimensions === TINY_DIMENSIONS ? TINY_EMBEDDING_MODEL : `${TINY_EMBEDDING_MODEL}-d${dimensions}`;
  return generateOnce(join(dir, name), async (tmp) => {
    const vocab = buildVocabulary();
    const table = embeddingTable(vocab, dimensions);
    await writeModelFolder(
      tmp,
      vocab,
      embeddingGraph(table, vocab.length, dimensions),
      {
        architectures: ['BertModel'],
      },
      dimensions,
    );
  });
}

/** Writes (once) the entailment classifier folder under `dir` and returns its absolute path. */
export async function makeTinyClassifierModel(dir: string): Promise<string> {
  return generateOnce(join(dir, TINY_CLASSIFIER_MODEL), async (tmp) => {
    const vocab = buildVocabulary();
    const table = embeddingTable(vocab);
    await writeModelFolder(tmp, vocab, classifierGraph(table, vocab.length), {
      architectures: ['BertForSequenceClassification'],
      id2label: { 0: 'NOT_ENTAILMENT', 1: 'ENTAILMENT' },
      label2id: { NOT_ENTAILMENT: 0, ENTAILMENT: 1 },
      problem_type: 'single_label_classification',
    });
  });
}

// ---------------------------------------------------------------------------------------
// Vocabulary

/** The WordPiece vocabulary, exactly TINY_VOCAB_SIZE entries, deterministic. */
export function buildVocabulary(): string[] {
  const vocab: string[] = [];
  const seen = new Set<string>();
  const add = (token: string): void => {
    if (vocab.length < TINY_VOCAB_SIZE && !seen.has(token)) {
      seen.add(token);
      vocab.push(token);
    }
  };
  SPECIAL_TOKENS.forEach(add);
  // Every printable ASCII character, alone and as a continuation, so no ASCII word is [UNK].
  const chars = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).filter((c) => !/[A-Z]/.test(c));
  chars.forEach(add);
  chars.filter((c) => /[a-z0-9]/.test(c)).forEach((c) => add(`##${c}`));
  const words = WORDS.split(/\s+/).filter(Boolean);
  words.forEach(add);
  SUFFIXES.split(/\s+/)
    .filter(Boolean)
    .forEach((s) => add(`##${s}`));
  PREFIXES.split(/\s+/).filter(Boolean).forEach(add);
  // Digit pairs cover figures such as "90", "25", "2024".
  for (let n = 0; n < 100; n++) add(String(n).padStart(2, '0'));
  for (let n = 0; n < 100; n++) add(`##${String(n).padStart(2, '0')}`);
  // All letter pairs, then letter n-grams of the word list, most frequent first, until full.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const a of letters) for (const b of letters) add(`##${a}${b}`);
  for (const a of letters) for (const b of letters) add(`${a}${b}`);
  for (const gram of frequentGrams(words)) {
    add(`##${gram}`);
    add(gram);
  }
  if (vocab.length !== TINY_VOCAB_SIZE) {
    throw new Error(`tiny vocabulary has ${vocab.length} entries, expected ${TINY_VOCAB_SIZE}`);
  }
  return vocab;
}

function frequentGrams(words: string[]): string[] {
  const counts = new Map<string, number>();
  for (const word of words) {
    for (const n of [3, 4]) {
      for (let i = 0; i + n <= word.length; i++) {
        const gram = word.slice(i, i + n);
        counts.set(gram, (counts.get(gram) ?? 0) + 1);
      }
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([gram]) => gram);
}

// ---------------------------------------------------------------------------------------
// Embedding table

/** One row per token: normalised sum of seeded random vectors of its character trigrams. */
export function embeddingTable(vocab: string[], dims = TINY_DIMENSIONS): Float32Array {
  const table = new Float32Array(vocab.length * dims);
  vocab.forEach((token, index) => {
    // Special tokens stay zero so [CLS]/[SEP]/[PAD] do not pull every text together.
    if (/^\[[A-Z]+\]$/.test(token)) return;
    const continuation = token.startsWith('##');
    const surface = continuation ? token.slice(2) : token;
    const padded = continuation ? `${surface}>` : `<${surface}>`;
    const row = new Float32Array(dims);
    const grams =
      padded.length <= 3 ? [padded] : Array.from({ length: padded.length - 2 }, (_, i) => padded.slice(i, i + 3));
    for (const gram of grams) {
      const vector = seededGaussian(gram, dims);
      for (let d = 0; d < dims; d++) row[d] += vector[d];
    }
    const norm = Math.hypot(...row) || 1;
    const weight = tokenWeight(surface, continuation);
    for (let d = 0; d < dims; d++) table[index * dims + d] = (row[d] / norm) * weight;
  });
  return table;
}

const SUFFIX_SET = new Set(SUFFIXES.split(/\s+/).filter(Boolean));

/** Function words, inflections and punctuation count less than content words. */
function tokenWeight(surface: string, continuation: boolean): number {
  if (/^[^a-z0-9]+$/.test(surface)) return 0.1;
  if (continuation) return SUFFIX_SET.has(surface) ? 0.35 : 0.7;
  return STOPWORDS.has(surface) ? 0.25 : 1;
}

function seededGaussian(key: string, dims: number): Float32Array {
  // FNV-1a hash of the key seeds a mulberry32 generator; Box-Muller gives normal values.
  let hash = 0x811c9dc5 ^ SEED;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  let state = hash >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  const out = new Float32Array(dims);
  for (let d = 0; d < dims; d += 2) {
    const r = Math.sqrt(-2 * Math.log(next()));
    const theta = 2 * Math.PI * next();
    out[d] = r * Math.cos(theta);
    if (d + 1 < dims) out[d + 1] = r * Math.sin(theta);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// ONNX graphs (opset 13)

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

function floatTensor(name: string, dims: number[], data: Float32Array): onnx.ITensorProto {
  return { name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}

function int64Tensor(name: string, values: number[]): onnx.ITensorProto {
  return { name, dims: [values.length], dataType: INT64, int64Data: values };
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

function node(
  opType: string,
  input: string[],
  output: string[],
  attribute: onnx.IAttributeProto[] = [],
): onnx.INodeProto {
  return { opType, input, output, name: output[0], attribute };
}

function intAttribute(name: string, value: number): onnx.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

const TEXT_INPUTS = [
  valueInfo('input_ids', INT64, ['batch_size', 'sequence_length']),
  valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length']),
  valueInfo('token_type_ids', INT64, ['batch_size', 'sequence_length']),
];

/** last_hidden_state = (Gather(E, input_ids) + Gather(T, token_type_ids)) * Unsqueeze(Cast(attention_mask)). */
export function embeddingGraph(table: Float32Array, vocabSize: number, dims: number): onnx.IGraphProto {
  return {
    name: 'tiny_embedding',
    input: TEXT_INPUTS,
    output: [valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', dims])],
    initializer: [
      floatTensor('word_embeddings', [vocabSize, dims], table),
      // Token-type rows are zero: segments do not change a word's vector.
      floatTensor('token_type_embeddings', [2, dims], new Float32Array(2 * dims)),
      int64Tensor('last_axis', [-1]),
    ],
    node: [
      node('Gather', ['word_embeddings', 'input_ids'], ['words']),
      node('Gather', ['token_type_embeddings', 'token_type_ids'], ['types']),
      node('Add', ['words', 'types'], ['summed']),
      node('Cast', ['attention_mask'], ['mask_float'], [intAttribute('to', FLOAT)]),
      node('Unsqueeze', ['mask_float', 'last_axis'], ['mask_3d']),
      node('Mul', ['summed', 'mask_3d'], ['last_hidden_state']),
    ],
  };
}

/**
 * logits = [-(K*c - B), K*c - B] where c is the cosine of the masked mean embeddings of
 * segment A (token_type 0) and segment B (token_type 1).
 */
function classifierGraph(table: Float32Array, vocabSize: number): onnx.IGraphProto {
  return {
    name: 'tiny_entailment',
    input: TEXT_INPUTS,
    output: [valueInfo('logits', FLOAT, ['batch_size', 2])],
    initializer: [
      floatTensor('word_embeddings', [vocabSize, TINY_DIMENSIONS], table),
      int64Tensor('axis_1', [1]),
      int64Tensor('axis_2', [2]),
      floatTensor('scale', [], new Float32Array([TINY_CLASSIFIER_SCALE])),
      floatTensor('bias', [], new Float32Array([TINY_CLASSIFIER_BIAS])),
      floatTensor('epsilon', [], new Float32Array([1e-6])),
    ],
    node: [
      node('Gather', ['word_embeddings', 'input_ids'], ['words']), // [b, s, d]
      node('Cast', ['attention_mask'], ['mask'], [intAttribute('to', FLOAT)]), // [b, s]
      node('Cast', ['token_type_ids'], ['types'], [intAttribute('to', FLOAT)]),
      node('Mul', ['mask', 'types'], ['mask_b']),
      node('Sub', ['mask', 'mask_b'], ['mask_a']),
      node('Unsqueeze', ['mask_a', 'axis_1'], ['mask_a_row']), // [b, 1, s]
      node('Unsqueeze', ['mask_b', 'axis_1'], ['mask_b_row']),
      // Sums, not means: the cosine does not depend on the scale.
      node('MatMul', ['mask_a_row', 'words'], ['sum_a']), // [b, 1, d]
      node('MatMul', ['mask_b_row', 'words'], ['sum_b']),
      node('Mul', ['sum_a', 'sum_b'], ['ab']),
      node('ReduceSum', ['ab', 'axis_2'], ['dot'], [intAttribute('keepdims', 0)]), // [b, 1]
      node('Mul', ['sum_a', 'sum_a'], ['aa']),
      node('ReduceSum', ['aa', 'axis_2'], ['norm_a_sq'], [intAttribute('keepdims', 0)]),
      node('Mul', ['sum_b', 'sum_b'], ['bb']),
      node('ReduceSum', ['bb', 'axis_2'], ['norm_b_sq'], [intAttribute('keepdims', 0)]),
      node('Mul', ['norm_a_sq', 'norm_b_sq'], ['norms_sq']),
      node('Sqrt', ['norms_sq'], ['norms']),
      node('Add', ['norms', 'epsilon'], ['safe_norms']),
      node('Div', ['dot', 'safe_norms'], ['cosine']),
      node('Mul', ['cosine', 'scale'], ['scaled']),
      node('Sub', ['scaled', 'bias'], ['entail']),
      node('Neg', ['entail'], ['not_entail']),
      node('Concat', ['not_entail', 'entail'], ['logits'], [intAttribute('axis', 1)]),
    ],
  };
}

// ---------------------------------------------------------------------------------------
// Files

export async function writeModelFolder(
  folder: string,
  vocab: string[],
  graph: onnx.IGraphProto,
  configExtra: Record<string, unknown>,
  dims = TINY_DIMENSIONS,
): Promise<void> {
  await mkdir(join(folder, 'onnx'), { recursive: true });
  const config = {
    model_type: 'bert',
    ...configExtra,
    vocab_size: vocab.length,
    hidden_size: dims,
    num_hidden_layers: 0,
    num_attention_heads: 1,
    intermediate_size: dims,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    transformers_version: '4.44.0',
  };
  const model = onnx.ModelProto.encode({
    irVersion: 8,
    producerName: 'evident-tiny-models',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  }).finish();
  await writeFile(join(folder, 'config.json'), JSON.stringify(config, null, 2));
  await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  await writeFile(join(folder, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig(), null, 2));
  await writeFile(join(folder, 'special_tokens_map.json'), JSON.stringify(specialTokensMap(), null, 2));
  await writeFile(join(folder, 'onnx', 'model.onnx'), model);
  await writeFile(join(folder, 'onnx', 'model_quantized.onnx'), model);
}

/** A WordPiece tokenizer.json (BERT's normaliser, pre-tokenizer and [CLS]/[SEP] template) for `vocab`. */
export function tokenizerJson(vocab: string[]): Record<string, unknown> {
  const ids = Object.fromEntries(vocab.map((token, id) => [token, id]));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: ids[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [ids[t]], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}

function tokenizerConfig(): Record<string, unknown> {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    clean_up_tokenization_spaces: true,
    ...specialTokensMap(),
  };
}

function specialTokensMap(): Record<string, string> {
  return { unk_token: '[UNK]', sep_token: '[SEP]', pad_token: '[PAD]', cls_token: '[CLS]', mask_token: '[MASK]' };
}

/** Builds into a temporary sibling and renames it into place, so readers never see half a model. */
export async function generateOnce(folder: string, build: (tmp: string) => Promise<void>): Promise<string> {
  if (existsSync(join(folder, 'onnx', 'model_quantized.onnx'))) return folder;
  // A folder without its last file is a leftover from an older layout or a crash.
  if (existsSync(folder)) await rm(folder, { recursive: true, force: true });
  const tmp = `${folder}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await build(tmp);
    await rename(tmp, folder);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    // Another process finished first: its folder is as good as ours.
    if (existsSync(join(folder, 'onnx', 'model_quantized.onnx'))) return folder;
    throw error;
  }
  return folder;
}
