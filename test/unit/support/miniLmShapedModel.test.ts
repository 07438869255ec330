// The MiniLM-shaped generated model (bench:embed's model) has all-MiniLM-L6-v2's shape, a q8
// file like the hub's, a generated WordPiece vocabulary, and loads through loadEmbedder.

import { strict as assert } from 'node:assert';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { loadEmbedder } from '../../../src/core/retrieval/embedder';
import { MINILM_SHAPE, makeMiniLmShapedModel, VOCABULARY_CORPUS_NAME } from '../../support/miniLmShapedModel';
import { describeWithCorpora } from '../../support/sharedData';
import { defaultModelCacheDir } from '../../support/tinyModels';

describeWithCorpora([VOCABULARY_CORPUS_NAME], 'MiniLM-shaped generated model', function () {
  this.timeout(180_000);
  let folder: string;

  before(async () => {
    folder = await makeMiniLmShapedModel(defaultModelCacheDir());
  });

  it("has all-MiniLM-L6-v2's configuration and a 30522-entry WordPiece vocabulary", async () => {
    const config = JSON.parse(await readFile(join(folder, 'config.json'), 'utf8'));
    assert.deepEqual(
      [
        config.num_hidden_layers,
        config.hidden_size,
        config.num_attention_heads,
        config.intermediate_size,
        config.vocab_size,
        config.max_position_embeddings,
        config.type_vocab_size,
        config.hidden_act,
      ],
      [6, 384, 12, 1536, 30522, 512, 2, 'gelu'],
    );
    const tokenizer = JSON.parse(await readFile(join(folder, 'tokenizer.json'), 'utf8'));
    const vocab = tokenizer.model.vocab as Record<string, number>;
    assert.equal(Object.keys(vocab).length, MINILM_SHAPE.vocab);
    assert.deepEqual(new Set(Object.values(vocab)).size, MINILM_SHAPE.vocab, 'ids are distinct');
    assert.deepEqual(
      [vocab['[PAD]'], vocab['[UNK]'], vocab['[CLS]'], vocab['[SEP]'], vocab['[MASK]']],
      [0, 100, 101, 102, 103],
    );
    const sbert = JSON.parse(await readFile(join(folder, 'sentence_bert_config.json'), 'utf8'));
    assert.equal(sbert.max_seq_length, 256);
  });

  it('q8 file: int8 MatMul weights run by DynamicQuantizeLinear + MatMulInteger, about the hub size', async () => {
    const bytes = await readFile(join(folder, 'onnx', 'model_quantized.onnx'));
    const mb = bytes.byteLength / 1e6;
    assert.ok(mb > 22 && mb < 25, `${mb.toFixed(1)} MB`);
    const model = onnx.ModelProto.decode(bytes);
    const ops = new Map<string, number>();
    for (const n of model.graph?.node ?? []) ops.set(n.opType ?? '', (ops.get(n.opType ?? '') ?? 0) + 1);
    // 6 linear layers per encoder layer (Q, K, V, attention output, intermediate, output).
    assert.equal(ops.get('MatMulInteger'), 36);
    assert.equal(ops.get('DynamicQuantizeLinear'), 36);
    assert.equal(ops.get('LayerNormalization'), 13);
    assert.equal(ops.get('Softmax'), 6);
    assert.equal(ops.get('Erf'), 6);
    assert.ok(!ops.has('MatMul') || ops.get('MatMul') === 12, 'only the attention products stay float');
    assert.ok((await stat(join(folder, 'onnx', 'model.onnx'))).size > 85e6, 'fp32 variant');
  });

  it('loads through loadEmbedder and returns unit 384-d vectors that differ by text; truncates at 256 tokens', async () => {
    const embedder = await loadEmbedder({
      modelId: 'minilm-shaped',
      localModelPath: folder,
      allowRemote: false,
      dtype: 'q8',
    });
    assert.equal(embedder.dimensions, 384);
    assert.equal(embedder.maxTokens, 256, 'from sentence_bert_config.json');
    const [a, b] = await embedder.embed(['Travel must be approved before booking.', 'Laptops are encrypted.']);
    for (const v of [a, b]) {
      assert.equal(v.length, 384);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-4);
    }
    assert.ok(
      a.some((x, i) => Math.abs(x - b[i]) > 1e-3),
      'different texts, different vectors',
    );
  });

  it('splits English words into pieces like a BERT vocabulary (generated, not copied)', async () => {
    const { AutoTokenizer } = await import('@huggingface/transformers');
    const tokenizer = await AutoTokenizer.from_pretrained(folder, { local_files_only: true });
    const tokens = tokenizer.tokenize('The supervisor approved reimbursements for unforeseeable expenses.');
    assert.ok(tokens.includes('the') && tokens.includes('.'), tokens.join(' '));
    assert.ok(
      tokens.some((t) => t.startsWith('##')),
      `some word is split into pieces: ${tokens.join(' ')}`,
    );
    assert.ok(!tokens.includes('[UNK]'), tokens.join(' '));
    assert.ok(tokens.length >= 9 && tokens.length <= 20, `${tokens.length} tokens: ${tokens.join(' ')}`);
  });
});
