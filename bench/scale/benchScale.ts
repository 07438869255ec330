// Benchmark: Evident at scale. Builds the 18F handbook (~2.3k passages), kubernetes/community
// (~11k) and a ~50k corpus generated reproducibly from both (or from --source folders), with a
// generated embedding model of dimension 384 (fast, so the 50k build takes minutes: embedding
// throughput is bench:embed's job) or, with --real-model, the real all-MiniLM-L6-v2 (q8, as
// shipped: its hybrid rows are what users get; embedding 50k passages with it takes hours on two
// cores, so use it with the smaller sizes), and prints, per corpus: first index time, query p50/p95
// (hybrid, lexical), peak RSS of the build, re-index unchanged / one file edited, open time,
// the CLI timings (process start included), and in the same run plain MiniSearch and a
// brute-force typed-array scan as references. Corpora and indexes live in a cache folder outside
// the repository ($EVIDENT_SCALE_CACHE or the OS temp folder).
// Usage: npm run bench:scale [-- --sizes 2k,11k,50k] [-- --copies 4] [-- --source DIR ...] [-- --rounds 3] [-- --real-model]
//        [-- --reuse-index]  (open + CLI rows only, on the indexes an earlier run left)
// At 50k passages it ends with the gates of issue 10, PASS or FAIL each (wall time; CLI rows show CPU too).

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../../test/support/tinyModels';
import { requireRealModel } from '../../test/support/realModel';
import { copiedCorpus, generatedCorpus, scaleCacheRoot } from './scaleCorpus';
import { SCALE_QUESTIONS } from './scaleQuestions';

const ROOT = path.resolve(__dirname, '../..');
const CORPORA = path.resolve(ROOT, '../shared/data/corpora');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'dist/cli.js');

interface BuildResult {
  documents: number;
  passages: number;
  buildMs: number;
  rssStartMb: number;
  rssModelMb: number;
  buildPeakRssMb: number;
  hybrid: { p50: number; p95: number };
  hybridExact?: { p50: number; p95: number };
  hybridTop6Agreement?: number;
  lexical: { p50: number; p95: number };
  queryEmbedding: { p50: number; p95: number };
  unchangedMs: number;
  editMs: number;
  editEmbedded: number;
  miniSearch: { buildMs: number; p50: number; p95: number };
  bruteForce: { p50: number; p95: number };
}
interface OpenResult {
  openMs: number;
  firstQueryMs: number;
  passages: number;
  peakRssMb: number;
}
interface CliResult {
  askMs: number;
  unchangedMs: number;
  editMs: number;
  askCpuMs: number;
  unchangedCpuMs: number;
  editCpuMs: number;
}

function runChild<T>(args: string[]): T {
  const out = execFileSync(TSX, [path.join(__dirname, 'scaleRun.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = out.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as T;
}

/** Wall time of one CLI process (start included), and its CPU time (user + system). */
function timeCli(args: string[]): { ms: number; cpuMs: number } {
  const cpuFile = path.join(os.tmpdir(), `evident-bench-cpu-${process.pid}.txt`);
  rmSync(cpuFile, { force: true });
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', path.join(__dirname, 'cpuAtExit.cjs'), CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, GEMINI_API_KEY: '', EVIDENT_BENCH_CPU_FILE: cpuFile },
    maxBuffer: 1 << 26,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`evident ${args[0]} failed (${r.status}): ${r.stderr}`);
  const cpuMs = Number(readFileSync(cpuFile, 'utf8').trim());
  rmSync(cpuFile, { force: true });
  return { ms, cpuMs };
}

async function cliTimings(docs: string, indexDir: string, model: string, editFile: string): Promise<CliResult> {
  const common = ['--docs', docs, '--index-dir', indexDir, '--embedding-model', model, '--offline'];
  const ask = timeCli(['ask', ...common, '--model', 'extractive', '--json', '--question', SCALE_QUESTIONS[1]]);
  const unchanged = timeCli(['index', ...common]);
  const file = path.join(docs, editFile);
  const original = await readFile(file);
  await appendFile(file, '\nA sentence added by the scale benchmark about quarterly travel approvals.\n');
  let edit: { ms: number; cpuMs: number };
  try {
    edit = timeCli(['index', ...common]);
  } finally {
    await writeFile(file, original);
  }
  timeCli(['index', ...common]);
  return {
    askMs: ask.ms,
    unchangedMs: unchanged.ms,
    editMs: edit.ms,
    askCpuMs: ask.cpuMs,
    unchangedCpuMs: unchanged.cpuMs,
    editCpuMs: edit.cpuMs,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '2k,11k,50k' },
      copies: { type: 'string', default: '4' },
      source: { type: 'string', multiple: true },
      rounds: { type: 'string', default: '3' },
      'no-cli': { type: 'boolean' },
      // Time only the open and the CLI rows on the indexes a previous run left (no build).
      'reuse-index': { type: 'boolean' },
      label: { type: 'string', default: 'Evident' },
      'real-model': { type: 'boolean' },
    },
  });
  const sizes = new Set(values.sizes?.split(','));
  const real = !!values['real-model'];
  const model = real ? requireRealModel() : await makeTinyEmbeddingModel(defaultModelCacheDir(), 384);
  const dtype = real ? ['--dtype', 'q8'] : [];
  const sources = (values.source ?? [path.join(CORPORA, '18f-handbook'), path.join(CORPORA, 'k8s-community')]).map(
    (s) => path.resolve(s),
  );
  // Each corpus with the file its runs edit (one line appended, then restored).
  const corpora: { name: string; docs: string; editFile: string }[] = [];
  if (sizes.has('2k')) {
    corpora.push({
      name: '18f-handbook',
      docs: await copiedCorpus(path.join(CORPORA, '18f-handbook'), '18f-handbook'),
      editFile: 'README.md',
    });
  }
  if (sizes.has('11k')) {
    corpora.push({
      name: 'k8s-community',
      docs: await copiedCorpus(path.join(CORPORA, 'k8s-community'), 'k8s-community'),
      editFile: 'README.md',
    });
  }
  if (sizes.has('50k')) {
    corpora.push({
      name: `generated ${values.copies}×`,
      docs: await generatedCorpus(sources, Number(values.copies)),
      editFile: `copy-0/${path.basename(sources[0])}/README.md`,
    });
  }
  const withCli = !values['no-cli'];
  if (withCli) execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });

  console.log(
    `${values.label}: ${new Date().toISOString()}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, Node ${process.version}`,
  );
  console.log(
    `Model: ${real ? `all-MiniLM-L6-v2, the real weights, q8 (${model})` : `generated, 384 dimensions (${model})`}; corpora in ${scaleCacheRoot()}\n`,
  );
  if (values['reuse-index']) {
    await reuseIndexes(corpora, model);
    return;
  }
  const rows: Row[] = [];
  for (const corpus of corpora) {
    const indexDir = path.join(scaleCacheRoot(), 'indexes', corpus.name.replace(/\W+/g, '-'));
    await rm(indexDir, { recursive: true, force: true });
    await mkdir(indexDir, { recursive: true });
    const editFile = corpus.editFile;
    process.stderr.write(`building ${corpus.name} …\n`);
    const build = runChild<BuildResult>([
      'build',
      '--docs',
      corpus.docs,
      '--index-dir',
      indexDir,
      '--model',
      model,
      ...dtype,
      '--rounds',
      values.rounds ?? '3',
      '--edit-file',
      editFile,
    ]);
    const open = runChild<OpenResult>([
      'open',
      '--docs',
      corpus.docs,
      '--index-dir',
      indexDir,
      '--model',
      model,
      ...dtype,
    ]);
    const cli = withCli ? await cliTimings(corpus.docs, indexDir, model, editFile) : undefined;
    rows.push({ name: corpus.name, build, open, cli });
    process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
  }
  printTable(rows, values.label ?? 'Evident');
  printGates(rows);
  console.log(
    `\nLoad at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

/** The issue's "Done when" targets at 50k passages, each gate PASS or FAIL on this run's figures. */
/** Gates are judged on wall time, as the issue states them; the CLI rows also show their CPU time. */
const SCALE_GATES: {
  gate: string;
  target: string;
  value(r: Row): number | undefined;
  limit(r: Row): number | undefined;
  unit: string;
  cpu?(r: Row): number | undefined;
}[] = [
  {
    gate: 'CLI: open the index + answer one question (process)',
    target: '≤ 2 s',
    value: (r) => r.cli?.askMs,
    limit: () => 2000,
    unit: 'ms',
    cpu: (r) => r.cli?.askCpuMs,
  },
  {
    gate: 'CLI: `evident index` unchanged (process)',
    target: '≤ 1.5 s',
    value: (r) => r.cli?.unchangedMs,
    limit: () => 1500,
    unit: 'ms',
    cpu: (r) => r.cli?.unchangedCpuMs,
  },
  {
    gate: 'CLI: `evident index` after a one-file edit (process)',
    target: '≤ 2 s',
    value: (r) => r.cli?.editMs,
    limit: () => 2000,
    unit: 'ms',
    cpu: (r) => r.cli?.editCpuMs,
  },
  { gate: 'hybrid query p50', target: '≤ 30 ms', value: (r) => r.build.hybrid.p50, limit: () => 30, unit: 'ms' },
  { gate: 'hybrid query p95', target: '≤ 60 ms', value: (r) => r.build.hybrid.p95, limit: () => 60, unit: 'ms' },
  {
    gate: 'lexical query p50',
    target: '≤ plain MiniSearch p50 (same run)',
    value: (r) => r.build.lexical.p50,
    limit: (r) => r.build.miniSearch.p50,
    unit: 'ms',
  },
  {
    gate: 'peak RSS of the build above the model',
    target: '≤ 500 MB',
    value: (r) => r.build.buildPeakRssMb - r.build.rssModelMb,
    limit: () => 500,
    unit: 'MB',
  },
  {
    gate: 're-index after a one-file edit',
    target: '≤ 0.5 s',
    value: (r) => r.build.editMs,
    limit: () => 500,
    unit: 'ms',
  },
  {
    gate: 're-index, nothing changed',
    target: '≤ 0.3 s',
    value: (r) => r.build.unchangedMs,
    limit: () => 300,
    unit: 'ms',
  },
  {
    gate: 'open the index (cold process)',
    target: '≤ 0.5 s',
    value: (r) => r.open.openMs,
    limit: () => 500,
    unit: 'ms',
  },
];

/** The gates apply at 50k passages: printed for every corpus of at least 40k, PASS or FAIL each. */
function printGates(rows: Row[]): void {
  for (const r of rows.filter((x) => x.build.passages >= 40_000)) {
    console.log(`\nGates of issue 10 on ${r.name} (${r.build.passages} passages):`);
    for (const g of SCALE_GATES) {
      const value = g.value(r);
      const limit = g.limit(r);
      if (value === undefined || limit === undefined) {
        console.log(`  n/a   ${g.gate} (not measured in this run; target ${g.target})`);
        continue;
      }
      const shown = (x: number) => (g.unit === 'MB' ? `${x.toFixed(0)} MB` : `${x.toFixed(x < 100 ? 1 : 0)} ms`);
      const cpu = g.cpu?.(r);
      console.log(
        `  ${value <= limit ? 'PASS' : 'FAIL'}  ${g.gate}: ${shown(value)}${cpu !== undefined ? ` (CPU ${shown(cpu)})` : ''} (target ${g.target}${g.target.includes('MiniSearch') ? `: ${shown(limit)}` : ''})`,
      );
    }
  }
}

type Row = { name: string; build: BuildResult; open: OpenResult; cli?: CliResult };

/** `--reuse-index`: the open and CLI rows (and their gates) on the indexes an earlier run built. */
async function reuseIndexes(corpora: { name: string; docs: string; editFile: string }[], model: string): Promise<void> {
  const s = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
  for (const corpus of corpora) {
    const indexDir = path.join(scaleCacheRoot(), 'indexes', corpus.name.replace(/\W+/g, '-'));
    const open = runChild<OpenResult>(['open', '--docs', corpus.docs, '--index-dir', indexDir, '--model', model]);
    const cli = await cliTimings(corpus.docs, indexDir, model, corpus.editFile);
    console.log(
      `${corpus.name} (${open.passages} passages, index reused): open ${s(open.openMs)} / first query ${s(open.firstQueryMs)}; ` +
        `CLI ask ${s(cli.askMs)} (${s(cli.askCpuMs)} CPU), index unchanged ${s(cli.unchangedMs)} (${s(cli.unchangedCpuMs)} CPU), one file edited ${s(cli.editMs)} (${s(cli.editCpuMs)} CPU)`,
    );
    if (open.passages >= 40_000) {
      for (const [gate, value, limit] of [
        ['CLI ask ≤ 2 s', cli.askMs, 2000],
        ['CLI index unchanged ≤ 1.5 s', cli.unchangedMs, 1500],
        ['CLI index one file edited ≤ 2 s', cli.editMs, 2000],
        ['open ≤ 0.5 s', open.openMs, 500],
      ] as const) {
        console.log(`  ${value <= limit ? 'PASS' : 'FAIL'}  ${gate}: ${s(value)}`);
      }
    }
  }
  console.log(
    `Load at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

function printTable(rows: Row[], label: string): void {
  const s = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const line = (title: string, f: (r: (typeof rows)[number]) => string) =>
    console.log(`| ${title} | ${rows.map(f).join(' | ')} |`);
  console.log(
    `| ${label} | ${rows.map((r) => `${r.name}: ${r.build.passages} passages (${r.build.documents} files)`).join(' | ')} |`,
  );
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  line('first hybrid index', (r) => s(r.build.buildMs));
  line('query p50 / p95, hybrid', (r) => `${ms(r.build.hybrid.p50)} / ${ms(r.build.hybrid.p95)}`);
  line('(of which question embedding, p50)', (r) => ms(r.build.queryEmbedding.p50));
  line('query p50 / p95, hybrid with the vectors scanned exactly (no ANN graph)', (r) =>
    r.build.hybridExact ? `${ms(r.build.hybridExact.p50)} / ${ms(r.build.hybridExact.p95)}` : '—',
  );
  line('hybrid top 6: share equal with and without the ANN graph', (r) =>
    r.build.hybridTop6Agreement === undefined ? '—' : r.build.hybridTop6Agreement.toFixed(3),
  );
  line('query p50 / p95, lexical only', (r) => `${ms(r.build.lexical.p50)} / ${ms(r.build.lexical.p95)}`);
  line('reference: plain MiniSearch p50 / p95', (r) => `${ms(r.build.miniSearch.p50)} / ${ms(r.build.miniSearch.p95)}`);
  line(
    'reference: brute-force Float32Array scan + question embedding, p50 / p95',
    (r) => `${ms(r.build.bruteForce.p50)} / ${ms(r.build.bruteForce.p95)}`,
  );
  line(
    'peak RSS of the build (RSS with the model loaded)',
    (r) => `${r.build.buildPeakRssMb.toFixed(0)} MB (${r.build.rssModelMb.toFixed(0)} MB)`,
  );
  line('build peak above the model', (r) => `${(r.build.buildPeakRssMb - r.build.rssModelMb).toFixed(0)} MB`);
  line('re-index, nothing changed / one file edited', (r) => `${s(r.build.unchangedMs)} / ${s(r.build.editMs)}`);
  line('open the index (cold process) / its first query', (r) => `${s(r.open.openMs)} / ${ms(r.open.firstQueryMs)}`);
  if (rows.some((r) => r.cli)) {
    line('CLI: open + answer one question (process; its CPU time)', (r) =>
      r.cli ? `${s(r.cli.askMs)} (${s(r.cli.askCpuMs)} CPU)` : '—',
    );
    line('CLI: `evident index` unchanged / one file edited (process; CPU)', (r) =>
      r.cli
        ? `${s(r.cli.unchangedMs)} / ${s(r.cli.editMs)} (${s(r.cli.unchangedCpuMs)} / ${s(r.cli.editCpuMs)} CPU)`
        : '—',
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
