// Profile of a first full index's embedding work with the real all-MiniLM-L6-v2: where the time
// goes (reading + chunking, tokenising, the ONNX model, pooling) and how much of the model's work
// is padding, for the passages of a shared corpus (all of them, as a first index embeds them).
// `--batch-sweep`: instead, the product's embedder on the corpus's longest passages (the 32 below
// its 368 longest: 256 tokens on k8s-community), texts per call 1, 2, 4, 8 in interleaved rounds,
// wall and CPU time per passage (CPU: this process, the ONNX threads included).
// Usage: npm run bench:embed-profile [-- --corpus 18f-handbook] [-- --dtype q8|fp32] [-- --batch 8] [-- --limit N] [-- --own-pooling] [-- --batch-sweep [--rounds 5]]

import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { chunkMarkdown } from '../src/core/docs/chunker';
import { embeddingText } from '../src/core/indexing/indexRun';
import { importTransformers, sessionOptions } from '../src/core/onnxRuntime';
import { loadEmbedder, trainedLength } from '../src/core/retrieval/embedder';
import { meanPool } from '../src/core/retrieval/embeddingBatches';
import { requireRealModel } from '../test/support/realModel';
import { SHARED_DATA } from '../test/support/workspace';

interface TensorLike {
  dims: number[];
  data: Float32Array | BigInt64Array;
}
type Tokenizer = (
  texts: string[],
  o: { padding: boolean; truncation: boolean; max_length: number },
) => Record<string, TensorLike>;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) =>
      e.isDirectory()
        ? markdownFiles(path.join(dir, e.name))
        : /\.(md|markdown|mdx)$/i.test(e.name)
          ? [path.join(dir, e.name)]
          : [],
    );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: 'string' },
      dtype: { type: 'string' },
      batch: { type: 'string' },
      limit: { type: 'string' },
      'own-pooling': { type: 'boolean' },
      'batch-sweep': { type: 'boolean' },
      rounds: { type: 'string' },
    },
  });
  const corpus = values.corpus ?? '18f-handbook';
  const dtype = (values.dtype ?? 'q8') as 'q8' | 'fp32';
  const batchSize = Number(values.batch ?? 8);
  const docs = path.join(SHARED_DATA, 'corpora', corpus);
  const loadStart = os.loadavg()[0];

  let t = performance.now();
  const files = markdownFiles(docs);
  let texts = files.flatMap((f) =>
    chunkMarkdown(path.relative(docs, f), readFileSync(f, 'utf8')).passages.map(embeddingText),
  );
  if (values.limit) texts = texts.slice(0, Number(values.limit));
  const chunkMs = performance.now() - t;
  if (values['batch-sweep']) return batchSweep(corpus, texts, Number(values.rounds ?? 5));

  const modelDir = requireRealModel();
  const { transformers, runtime } = await importTransformers('auto');
  const extractor = (await transformers.pipeline('feature-extraction', modelDir, {
    dtype,
    local_files_only: true,
    ...sessionOptions(runtime, os.availableParallelism(), false),
  })) as unknown as {
    tokenizer: Tokenizer & { model_max_length?: number };
    model: (i: Record<string, TensorLike>) => Promise<{ last_hidden_state: TensorLike }>;
  };
  const maxTokens = trainedLength(modelDir, extractor.tokenizer.model_max_length);
  const meanPooling = transformers.mean_pooling as unknown as (
    h: TensorLike,
    m: TensorLike,
  ) => { normalize(p: number, d: number): TensorLike };

  // Token lengths (one tokeniser pass per text, timed apart).
  t = performance.now();
  const lengths = texts.map((x) =>
    Math.min(
      maxTokens,
      extractor.tokenizer([x], { padding: false, truncation: true, max_length: maxTokens }).input_ids.dims[1],
    ),
  );
  const lengthMs = performance.now() - t;

  const padded = (order: number[]) => {
    let cells = 0;
    for (let i = 0; i < order.length; i += batchSize) {
      const slot = order.slice(i, i + batchSize);
      cells += Math.max(...slot.map((k) => lengths[k])) * slot.length;
    }
    return cells;
  };
  const real = lengths.reduce((a, b) => a + b, 0);
  const docOrder = texts.map((_, i) => i);
  const charOrder = [...docOrder].sort((a, b) => texts[a].length - texts[b].length);
  const tokenOrder = [...docOrder].sort((a, b) => lengths[a] - lengths[b]);

  // The product's path (token-length order, batches of `batchSize`), each stage timed; pooling as
  // transformers.js's mean_pooling (`--own-pooling`: the embedder's, embeddingBatches.ts).
  await extractor.model(
    extractor.tokenizer(texts.slice(0, 4), { padding: true, truncation: true, max_length: maxTokens }),
  );
  const stage = { tokenise: 0, model: 0, pool: 0 };
  const byWidth = new Map<number, { calls: number; ms: number }>();
  for (let i = 0; i < tokenOrder.length; i += batchSize) {
    const batch = tokenOrder.slice(i, i + batchSize).map((k) => texts[k]);
    let s = performance.now();
    const inputs = extractor.tokenizer(batch, { padding: true, truncation: true, max_length: maxTokens });
    stage.tokenise += performance.now() - s;
    s = performance.now();
    const { last_hidden_state } = await extractor.model(inputs);
    const modelMs = performance.now() - s;
    stage.model += modelMs;
    s = performance.now();
    if (values['own-pooling']) {
      const [b, w, d] = last_hidden_state.dims;
      meanPool(last_hidden_state.data as Float32Array, inputs.attention_mask.data as BigInt64Array, b, w, d);
    } else meanPooling(last_hidden_state, inputs.attention_mask).normalize(2, -1);
    stage.pool += performance.now() - s;
    const bucket = Math.ceil(inputs.input_ids.dims[1] / 32) * 32;
    const b = byWidth.get(bucket) ?? { calls: 0, ms: 0 };
    b.calls++;
    b.ms += modelMs;
    byWidth.set(bucket, b);
  }
  const total = stage.tokenise + stage.model + stage.pool;
  console.log(
    `bench:embed-profile: ${corpus}, ${texts.length} passages, ${dtype}, batches of ${batchSize}, ${maxTokens} tokens, ${os.availableParallelism()} threads, runtime ${runtime.kind}`,
  );
  console.log(`load average ${loadStart.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`);
  console.log(`| stage | ms | per passage |`);
  console.log(`|---|---|---|`);
  const line = (name: string, ms: number) =>
    console.log(`| ${name} | ${ms.toFixed(0)} | ${(ms / texts.length).toFixed(2)} ms |`);
  line('read + chunk', chunkMs);
  line('tokenise (one text per call, for lengths)', lengthMs);
  line('tokenise (batches)', stage.tokenise);
  line('ONNX model', stage.model);
  line('mean pooling + normalise', stage.pool);
  line('embedding total (batches)', total);
  console.log(
    `\nTokens: ${real} real; padded cells, batches of ${batchSize}: document order ${padded(docOrder)}, character-length order ${padded(charOrder)}, token-length order ${padded(tokenOrder)}`,
  );
  // What the corpus asks of the model: token lengths (a batch costs its width squared in the
  // attention), and texts several passages share (the fill embeds each once).
  const histogram = new Map<number, { passages: number; tokens: number }>();
  for (const n of lengths) {
    const h = histogram.get(Math.ceil(n / 32) * 32) ?? { passages: 0, tokens: 0 };
    h.passages++;
    h.tokens += n;
    histogram.set(Math.ceil(n / 32) * 32, h);
  }
  console.log(`\n| token length (≤) | passages | tokens |`);
  console.log('|---|---|---|');
  for (const [w, h] of [...histogram].sort((a, b) => a[0] - b[0])) {
    console.log(`| ${w} | ${h.passages} | ${h.tokens} |`);
  }
  console.log(`at the limit of ${maxTokens} tokens (cut): ${lengths.filter((n) => n >= maxTokens).length} passages`);
  const seen = new Set<string>();
  let repeats = 0;
  let repeatTokens = 0;
  texts.forEach((x, i) => {
    if (!seen.has(x)) return void seen.add(x);
    repeats++;
    repeatTokens += lengths[i];
  });
  console.log(`texts held by more than one passage: ${repeats} repeats (${repeatTokens} tokens) embedded once each`);
  console.log('\n| batch width (tokens, ≤) | calls | model ms | ms per call |');
  console.log('|---|---|---|---|');
  for (const [w, b] of [...byWidth].sort((a, b) => a[0] - b[0])) {
    console.log(`| ${w} | ${b.calls} | ${b.ms.toFixed(0)} | ${(b.ms / b.calls).toFixed(1)} |`);
  }
}

/** Texts per call for long passages: each size in turn, round after round, so load drift hits all alike. */
async function batchSweep(corpus: string, texts: string[], rounds: number): Promise<void> {
  const sizes = [1, 2, 4, 8];
  const long = [...texts].sort((a, b) => a.length - b.length).slice(-400, -368);
  const embedders = new Map<number, Awaited<ReturnType<typeof loadEmbedder>>>();
  for (const b of sizes) {
    const e = await loadEmbedder({
      modelId: 'bench',
      localModelPath: requireRealModel(),
      allowRemote: false,
      dtype: 'q8',
      tuning: { batchSize: b, batchTokens: Infinity },
    });
    await e.embed(long.slice(0, 2));
    embedders.set(b, e);
  }
  const loadStart = os.loadavg()[0];
  const wall = new Map<number, number[]>(sizes.map((b) => [b, []]));
  const cpu = new Map<number, number[]>(sizes.map((b) => [b, []]));
  for (let r = 0; r < rounds; r++) {
    for (const b of sizes) {
      const t = performance.now();
      const c = process.cpuUsage();
      await embedders.get(b)!.embed(long);
      const used = process.cpuUsage(c);
      wall.get(b)!.push((performance.now() - t) / long.length);
      cpu.get(b)!.push((used.user + used.system) / 1000 / long.length);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `bench:embed-profile --batch-sweep: ${corpus}, ${long.length} of its longest passages, q8, ${rounds} interleaved rounds, load average ${loadStart.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(
    '| texts per call | wall ms per passage, each round | median | CPU ms per passage, each round | median |',
  );
  console.log('|---|---|---|---|---|');
  const row = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
  for (const b of sizes) {
    console.log(
      `| ${b} | ${row(wall.get(b)!)} | ${median(wall.get(b)!).toFixed(1)} | ${row(cpu.get(b)!)} | ${median(cpu.get(b)!).toFixed(1)} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
