// Benchmark: embedding throughput with the real all-MiniLM-L6-v2 (q8, as shipped; the folder
// `npm run fetch-model` wrote), or with --shaped the random-weight model of its exact shape
// (test/support/miniLmShapedModel.ts). On a fixed sample of 18F handbook passages (chunked by
// Evident's chunker, in document order), in ONE run:
//   - the baseline: the embedder as it was when issue #10 was filed (batches of 16 in document
//     order, onnxruntime's default threads, the tokenizer's 512 tokens);
//   - the current configuration (length-sorted batches, the trained length, a thread per core);
//   - the same on the WebAssembly backend (onnxruntime-web), in a child process (the ONNX
//     runtime is chosen once per process);
//   - single-question embedding latency p50/p95 (the hybrid query budget assumes ~6 ms).
// Baseline and current alternate over `--rounds` rounds; each figure is the median round (of an
// even number, the faster of the middle two); every round is printed below the table.
// `--sweep` also measures batch sizes and thread counts (how the defaults were chosen).
// `--first-index 18f-handbook,k8s-community` times a first full index of those shared corpora
// (from scratch, the product's index run with the current configuration), with ms per passage.
// `--slice N` indexes every N-th file only (a quick sample); `--model DIR` times another model folder.
// The first-index table gives wall and CPU time (user + system of this process, the ONNX threads
// included): on a shared machine, compare CPU time, or wall time of runs interleaved in one period.
// Usage: npm run bench:embed [-- --passages 400] [-- --rounds 2] [-- --sweep] [-- --no-wasm] [-- --shaped] [-- --first-index CORPORA]
//        [-- --only-first-index] [-- --slice N] [-- --model DIR]

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { chunkMarkdown } from '../src/core/docs/chunker';
import { DEFAULT_EMBEDDING_TUNING, type EmbeddingTuning, loadEmbedder } from '../src/core/retrieval/embedder';
import { embeddingText } from '../src/core/indexing/indexRun';
import type { EmbeddingBackend } from '../src/core/onnxRuntime';
import { makeMiniLmShapedModel } from '../test/support/miniLmShapedModel';
import { defaultModelCacheDir } from '../test/support/tinyModels';
import { requireRealModel } from '../test/support/realModel';
import { removeDir, SHARED_DATA, tempDir } from '../test/support/workspace';
import { folderDocSource } from '../src/core/docs/docSource';
import { PassageIndex } from '../src/core/store/local/passageIndex';

const ROOT = path.resolve(__dirname, '..');
const CORPUS = path.resolve(ROOT, '../shared/data/corpora/18f-handbook');
const BASELINE: EmbeddingTuning = {
  batchSize: 16,
  batchTokens: Infinity,
  sortByLength: false,
  maxTokens: 512,
  threads: 0,
  spinning: true,
};

// Questions written for this benchmark (single-question latency).
const QUESTIONS = [
  'How much annual leave do I accrue per pay period?',
  'What do I need to do before booking travel?',
  'How do I request a laptop?',
  'Who approves overtime?',
  'How do I report a security incident?',
  'What is the per diem for meals on travel?',
  'Can I work remotely from another state?',
  'How do I get access to Slack?',
  'What are the rules for accepting gifts?',
  'Which tools need two-factor authentication?',
];

interface PassResult {
  ms: number;
  perPassage: number;
  perSecond: number;
}
interface QueryResult {
  p50: number;
  p95: number;
}
interface ChildResult {
  backend: string;
  threads: number;
  current: PassResult;
  query: QueryResult;
}

function sample(count: number): { texts: string[]; total: number } {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.(md|markdown|mdx)$/i.test(e.name)) files.push(full);
    }
  };
  walk(CORPUS);
  const all = files.flatMap((f) =>
    chunkMarkdown(path.relative(CORPUS, f), readFileSync(f, 'utf8')).passages.map(embeddingText),
  );
  // Every k-th passage, in document order: a fixed sample spread over the whole handbook.
  const step = all.length / count;
  return {
    texts: Array.from({ length: Math.min(count, all.length) }, (_, i) => all[Math.floor(i * step)]),
    total: all.length,
  };
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const median = (xs: number[]) => percentile(xs, 50);

async function load(modelDir: string, tuning: Partial<EmbeddingTuning>, backend: EmbeddingBackend = 'auto') {
  return loadEmbedder({
    modelId: path.basename(modelDir),
    localModelPath: modelDir,
    allowRemote: false,
    dtype: 'q8',
    backend,
    tuning,
  });
}

/** The real model (or the folder --model names), or with --shaped the random-weight one of its shape. */
async function benchModel(shaped: boolean, model?: string): Promise<string> {
  if (model) return path.resolve(model);
  return shaped ? makeMiniLmShapedModel(defaultModelCacheDir()) : requireRealModel();
}

/** A first full index of a shared corpus with the current configuration: the product's index run, from scratch. */
async function firstIndex(corpus: string, modelDir: string, slice: number): Promise<void> {
  const docs = path.join(SHARED_DATA, 'corpora', corpus);
  const indexDir = await tempDir('evident-first-index-');
  try {
    const embedder = await load(modelDir, {});
    const index = await PassageIndex.open(indexDir, docs);
    const whole = folderDocSource(docs);
    // A slice: every `slice`-th file in the source's order (a quick, stable sample of the corpus).
    const source =
      slice > 1
        ? {
            ...whole,
            list: async (...a: Parameters<typeof whole.list>) =>
              (await whole.list(...a)).filter((_, i) => i % slice === 0),
          }
        : whole;
    let lexicalAt = 0;
    let lexicalCpu = 0;
    let lexicalWaits = 0;
    const loadAtStart = os.loadavg()[0];
    const cpuAtStart = process.cpuUsage();
    const waitsAtStart = process.resourceUsage().voluntaryContextSwitches;
    const ticksAtStart = cpuTicks();
    const started = performance.now();
    const report = await index.update(source, {
      embedder,
      onLexicalReady: () => {
        lexicalAt = performance.now() - started;
        lexicalCpu = cpuMs(process.cpuUsage(cpuAtStart));
        lexicalWaits = process.resourceUsage().voluntaryContextSwitches;
      },
    });
    const total = performance.now() - started;
    const totalCpu = cpuMs(process.cpuUsage(cpuAtStart));
    // A thread that waits (for the other ONNX threads at the end of each operator, for work)
    // gives up its core: each such wait costs a wake-up, which on an idle virtual machine is slow.
    const vectorWaits = process.resourceUsage().voluntaryContextSwitches - (lexicalWaits || waitsAtStart);
    const embedding = total - lexicalAt;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `| ${corpus}${slice > 1 ? ` (every ${slice}th file)` : ''} | ${report.passages.toLocaleString('en-US')} | ${s(total)} | ${s(lexicalAt)} | ${s(embedding)} | ` +
        `${(embedding / Math.max(1, report.embedded)).toFixed(1)} ms | ${s(totalCpu)} | ${s(lexicalCpu)} | ${s(totalCpu - lexicalCpu)} | ` +
        `${((totalCpu - lexicalCpu) / Math.max(1, report.embedded)).toFixed(1)} ms | ${(vectorWaits / Math.max(1, report.embedded)).toFixed(1)} | ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB | ${loadAtStart.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} | ${stealShare(ticksAtStart)} |`,
    );
  } finally {
    await removeDir(indexDir);
  }
}

/** User + system time of this process (the ONNX threads included), in ms. */
const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

async function timePass(embed: (t: string[]) => Promise<Float32Array[]>, texts: string[]): Promise<PassResult> {
  const t = performance.now();
  await embed(texts);
  const ms = performance.now() - t;
  return { ms, perPassage: ms / texts.length, perSecond: (texts.length * 1000) / ms };
}

async function queryLatency(embed: (t: string[]) => Promise<Float32Array[]>, rounds = 3): Promise<QueryResult> {
  for (const q of QUESTIONS.slice(0, 3)) await embed([q]);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUESTIONS) {
      const t = performance.now();
      await embed([q]);
      times.push(performance.now() - t);
    }
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const medianPass = (runs: PassResult[]): PassResult =>
  runs.slice().sort((a, b) => a.ms - b.ms)[Math.floor((runs.length - 1) / 2)];

/** Child: one backend, current configuration only; prints one JSON line. */
async function child(
  backend: EmbeddingBackend,
  count: number,
  rounds: number,
  shaped: boolean,
  model: string | undefined,
): Promise<void> {
  const { texts } = sample(count);
  const modelDir = await benchModel(shaped, model);
  const embedder = await load(modelDir, {}, backend);
  await embedder.embed(texts.slice(0, 8));
  const runs: PassResult[] = [];
  for (let r = 0; r < rounds; r++) runs.push(await timePass((t) => embedder.embed(t), texts));
  const query = await queryLatency((t) => embedder.embed(t));
  const result: ChildResult = {
    backend: embedder.runtime.kind,
    threads: os.availableParallelism(),
    current: medianPass(runs),
    query,
  };
  console.log(JSON.stringify(result));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      passages: { type: 'string' },
      rounds: { type: 'string' },
      sweep: { type: 'boolean' },
      'no-wasm': { type: 'boolean' },
      child: { type: 'string' },
      shaped: { type: 'boolean' },
      'first-index': { type: 'string' },
      'only-first-index': { type: 'boolean' },
      slice: { type: 'string' },
      model: { type: 'string' },
    },
  });
  const count = Number(values.passages ?? 400);
  const rounds = Number(values.rounds ?? 2);
  const shaped = !!values.shaped;
  const slice = Math.max(1, Number(values.slice ?? 1));
  if (values.child) return child(values.child as EmbeddingBackend, count, rounds, shaped, values.model);
  if (values['only-first-index']) {
    return firstIndexes(values['first-index'] ?? '18f-handbook', await benchModel(shaped, values.model), slice);
  }

  const loadStart = os.loadavg();
  const { texts, total } = sample(count);
  const modelDir = await benchModel(shaped, values.model);
  const baseline = await load(modelDir, BASELINE);
  const current = await load(modelDir, {});
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const tokenizer = await AutoTokenizer.from_pretrained(modelDir, { local_files_only: true });
  const lengths = texts.map((t) => tokenizer.encode(t).length);
  const over = (n: number) => lengths.filter((l) => l > n).length;

  console.log(
    `bench:embed: ${texts.length} passages of ${CORPUS} (spread evenly over its ${total} passages, in document order)`,
  );
  const q8 = `q8 ${(readFileSync(path.join(modelDir, 'onnx/model_quantized.onnx')).byteLength / 1e6).toFixed(1)} MB`;
  console.log(
    `Model: ${shaped ? `${path.basename(modelDir)} (all-MiniLM-L6-v2's shape, ${q8}, random weights)` : `all-MiniLM-L6-v2 (the real weights, ${q8}) from ${modelDir}`}`,
  );
  console.log(
    `Tokens per passage: mean ${(lengths.reduce((a, b) => a + b, 0) / lengths.length).toFixed(0)}, median ${median(lengths)}, max ${Math.max(...lengths)}; over 256: ${over(256)}, over 512: ${over(512)}`,
  );
  console.log(
    `Machine: ${process.platform} ${process.arch}, ${os.availableParallelism()} cores, Node ${process.version}; load average at start ${loadStart.map((l) => l.toFixed(2)).join(' / ')}`,
  );
  console.log(
    `Current configuration: ${JSON.stringify({ ...DEFAULT_EMBEDDING_TUNING, maxTokens: current.maxTokens, threads: os.availableParallelism() })}; runtime: ${current.runtime.kind}`,
  );
  console.log(`Baseline configuration: ${JSON.stringify(BASELINE)} (threads 0: onnxruntime's default)\n`);

  await baseline.embed(texts.slice(0, 8));
  await current.embed(texts.slice(0, 8));
  const baseRuns: PassResult[] = [];
  const currentRuns: PassResult[] = [];
  for (let r = 0; r < rounds; r++) {
    baseRuns.push(await timePass((t) => baseline.embed(t), texts));
    currentRuns.push(await timePass((t) => current.embed(t), texts));
  }
  const base = medianPass(baseRuns);
  const now = medianPass(currentRuns);
  const baseQuery = await queryLatency((t) => baseline.embed(t));
  const nowQuery = await queryLatency((t) => current.embed(t));

  const row = (name: string, p: PassResult, q: QueryResult, ratio: string) =>
    `| ${name} | ${p.perPassage.toFixed(1)} ms | ${p.perSecond.toFixed(1)} | ${ratio} | ${q.p50.toFixed(1)} / ${q.p95.toFixed(1)} ms |`;
  console.log(
    `| configuration (${texts.length} passages, median of ${rounds} rounds${rounds % 2 ? '' : ', the faster middle one'}) | per passage | passages/s | per-passage time vs baseline | one question p50 / p95 |`,
  );
  console.log('|---|---|---|---|---|');
  console.log(
    row(
      'baseline (issue #10: batches of 16 in document order, 512 tokens, ORT default threads), native',
      base,
      baseQuery,
      '1.00×',
    ),
  );
  console.log(
    row(
      `current (length-sorted batches of ${DEFAULT_EMBEDDING_TUNING.batchSize}, at most ${DEFAULT_EMBEDDING_TUNING.batchTokens} padded tokens a call, ${current.maxTokens} tokens, ${os.availableParallelism()} threads${DEFAULT_EMBEDDING_TUNING.spinning ? '' : ' without spin-waiting'}), native`,
      now,
      nowQuery,
      `${(base.perPassage / now.perPassage).toFixed(2)}× faster`,
    ),
  );

  // q8's DynamicQuantizeLinear takes one activation scale per model call: a passage's vector
  // moves a little with its batch-mates. How much, against one passage per call:
  const single = await load(modelDir, { batchSize: 1 });
  const probe = texts.slice(0, 48);
  const [together, alone] = [await current.embed(probe), await single.embed(probe)];
  const cosines = together.map((v, i) => v.reduce((sum, x, d) => sum + x * alone[i][d], 0));
  const batchLine = `q8 vectors in batches vs one passage per call (${probe.length} passages): cosine min ${Math.min(...cosines).toFixed(5)}, median ${median(cosines).toFixed(5)}`;
  const perRound = (runs: PassResult[]) => runs.map((r) => `${r.perPassage.toFixed(1)}`).join(', ');
  const roundsLine = `Rounds (ms per passage): baseline ${perRound(baseRuns)}; current ${perRound(currentRuns)}`;
  if (!values['no-wasm']) {
    const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
    const out = execFileSync(
      tsx,
      [
        __filename,
        '--child',
        'wasm',
        '--passages',
        String(count),
        '--rounds',
        String(rounds),
        ...(shaped ? ['--shaped'] : []),
        ...(values.model ? ['--model', values.model] : []),
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const wasm = JSON.parse(out.trim().split('\n').pop() ?? '{}') as ChildResult;
    console.log(
      row(
        `current on WebAssembly (onnxruntime-web, ${wasm.threads} threads; runtime: ${wasm.backend})`,
        wasm.current,
        wasm.query,
        `${base.perPassage >= wasm.current.perPassage ? `${(base.perPassage / wasm.current.perPassage).toFixed(2)}× faster` : `${(wasm.current.perPassage / base.perPassage).toFixed(2)}× slower`}; ${(wasm.current.perPassage / now.perPassage).toFixed(2)}× native's time`,
      ),
    );
  }

  console.log(`\n${roundsLine}`);
  console.log(batchLine);
  if (values.sweep) {
    console.log('\nSweep (one pass each, native): batch size × sorting × threads, at the trained length');
    console.log('| batch | sorted | threads | per passage | passages/s |');
    console.log('|---|---|---|---|---|');
    for (const threads of [1, os.availableParallelism()]) {
      for (const batchSize of [1, 4, 8, 16, 32, 64]) {
        const e = await load(modelDir, { batchSize, batchTokens: Infinity, sortByLength: true, threads });
        await e.embed(texts.slice(0, 4));
        const p = await timePass((t) => e.embed(t), texts);
        console.log(`| ${batchSize} | yes | ${threads} | ${p.perPassage.toFixed(1)} ms | ${p.perSecond.toFixed(1)} |`);
      }
    }
    for (const maxTokens of [128, 512]) {
      const e = await load(modelDir, { maxTokens });
      const p = await timePass((t) => e.embed(t), texts);
      console.log(
        `| ${DEFAULT_EMBEDDING_TUNING.batchSize} (max ${maxTokens} tokens) | yes | ${os.availableParallelism()} | ${p.perPassage.toFixed(1)} ms | ${p.perSecond.toFixed(1)} |`,
      );
    }
    const spinning = await load(modelDir, { spinning: true });
    const s = await timePass((t) => spinning.embed(t), texts);
    console.log(
      `| ${DEFAULT_EMBEDDING_TUNING.batchSize} (threads spin-wait) | yes | ${os.availableParallelism()} | ${s.perPassage.toFixed(1)} ms | ${s.perSecond.toFixed(1)} |`,
    );
    const unsorted = await load(modelDir, { sortByLength: false });
    const p = await timePass((t) => unsorted.embed(t), texts);
    console.log(
      `| ${DEFAULT_EMBEDDING_TUNING.batchSize} | no | ${os.availableParallelism()} | ${p.perPassage.toFixed(1)} ms | ${p.perSecond.toFixed(1)} |`,
    );
  }
  if (values['first-index']) await firstIndexes(values['first-index'], modelDir, slice);
  console.log(
    `\nLoad average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} (2 cores shared: figures move with it; the ratios come from one run)`,
  );
}

/**
 * The processor, and which int8 dot-product instructions it offers: the q8 model's matrix products
 * run several times faster with them, so a first index's time depends on the machine a virtual
 * machine landed on (Linux; elsewhere only the model name).
 */
function machineLine(): string {
  let flags = '';
  try {
    const have = new Set(
      readFileSync('/proc/cpuinfo', 'utf8')
        .match(/^flags\s*:(.*)$/m)?.[1]
        .trim()
        .split(/\s+/) ?? [],
    );
    const int8 = ['avx512_vnni', 'avx_vnni', 'amx_int8'].filter((f) => have.has(f));
    flags = `; int8 dot products: ${int8.length ? int8.join(', ') : 'none of avx512_vnni, avx_vnni, amx_int8'}`;
  } catch {
    // Not Linux.
  }
  return `Machine: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.availableParallelism()} cores${flags}`;
}

/** The share of the machine's CPU time a hypervisor gave to others ("steal", /proc/stat; Linux) since `since`. */
function stealShare(since: number[] | undefined): string {
  const now = cpuTicks();
  if (!since || !now) return 'n/a';
  const total = now.reduce((a, b) => a + b, 0) - since.reduce((a, b) => a + b, 0);
  return `${((100 * (now[7] - since[7])) / Math.max(1, total)).toFixed(0)}%`;
}

function cpuTicks(): number[] | undefined {
  try {
    return readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return undefined;
  }
}

async function firstIndexes(corpora: string, modelDir: string, slice: number): Promise<void> {
  console.log(`\nFirst full index (from scratch, current configuration, ${modelDir}):`);
  console.log(machineLine());
  console.log(
    "| corpus | passages | whole run | lexical part committed | vectors | per passage (vectors) | CPU whole run | CPU lexical | CPU vectors | CPU per passage (vectors) | threads' waits per passage (vectors) | peak RSS (process so far) | load average start → end | steal |",
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const corpus of corpora.split(',')) await firstIndex(corpus, modelDir, slice);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
