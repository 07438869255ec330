// Benchmark of the shared index (PostgreSQL + pgvector) against the local index, in one run:
// index time (from scratch and an unchanged re-run), query p50/p95 for both stores, the same
// queries from 8 concurrent clients, and whether both stores return the same top 6.
//
// The server is PGlite (PostgreSQL in WebAssembly, served by pglite-socket in this process)
// unless --store URL (or EVIDENT_TEST_PG_URL) names a real PostgreSQL with pgvector. PGlite runs
// one query at a time and queues the rest, and here shares this process's event loop: its
// concurrent figures check correctness and queueing, not a server's throughput.
// Embeddings come from the tiny generated model (no real weights can be downloaded here).
//
// A new client's first question (open the store, read the term weights the first answer needs,
// search) is timed on its own: what a VS Code window or a CLI run pays before its first answer.
//
// Usage: npm run bench:store [-- --docs DIR] [-- --questions FILE.jsonl] [-- --store postgres://…]
//        [-- --scale] (the ~50k-passage corpus of the scale benchmark, generated reproducibly in
//        EVIDENT_SCALE_CACHE, with its questions) [-- --ef-search N]
//        [-- --ef-sweep 40,100,200,400] (the same queries again at each hnsw.ef_search: how many
//        top 6 equal the local index's, and the query p50)

import { existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { folderDocSource } from '../src/core/docs/docSource';
import { loadEmbedder } from '../src/core/retrieval/embedder';
import { LocalPassageStore } from '../src/core/store/localPassageStore';
import type { PassageStore } from '../src/core/store/passageStore';
import { DEFAULT_EF_SEARCH, PostgresPassageStore } from '../src/core/store/postgres/postgresPassageStore';
import type { Embedder } from '../src/core/types';
import { startTestPostgres } from '../test/support/pgliteServer';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../test/support/tinyModels';
import { removeDir, tempDir } from '../test/support/workspace';
import pg from 'pg';
import { termText } from '../src/core/indexing/indexRun';
import { termStatsFromTexts } from '../src/core/text/termStats';
import { generatedCorpus, scaleCacheRoot } from './scale/scaleCorpus';
import { SCALE_QUESTIONS } from './scale/scaleQuestions';

const TOP_K = 6;
const CLIENTS = 8;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** Each phase's figure as it is measured (stderr, with the time), so a run cut short still tells what it measured. */
const progress = (line: string) =>
  console.error(`[${new Date().toISOString()}, load ${os.loadavg()[0].toFixed(1)}] ${line}`);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const sec = (n: number) => `${(n / 1000).toFixed(1)} s`;

function questionsFrom(file: string | undefined, fallback: LocalPassageStore): Promise<string[]> | string[] {
  if (file) {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { question: string }).question);
  }
  // No question file: the headings of the indexed passages, a query per heading (up to 100).
  return fallback
    .passageTexts()
    .then((texts) => [...new Set(texts.map((t) => t.split('\n')[0]).filter((h) => h.length > 3))].slice(0, 100));
}

async function timedQueries(
  store: PassageStore,
  questions: string[],
  embedder: Embedder,
): Promise<{ times: number[]; tops: string[][] }> {
  const times: number[] = [];
  const tops: string[][] = [];
  for (const q of questions) {
    const t = performance.now();
    const r = await store.search(q, TOP_K, embedder);
    times.push(performance.now() - t);
    tops.push(r.passages.map((p) => p.passage.id));
  }
  return { times, tops };
}

/**
 * A new client's first question, as the engine asks it: open the store, the question's term
 * weights, the search, the returned passages' term weights. Returns the time and the store.
 */
async function firstQuestion<S extends PassageStore>(
  open: () => Promise<S>,
  question: string,
  embedder: Embedder,
): Promise<{ ms: number; store: S }> {
  const t = performance.now();
  const store = await open();
  await store.termStats([question]);
  const found = await store.search(question, TOP_K, embedder);
  await store.termStats([question, ...found.passages.map((p) => termText(p.passage))]);
  return { ms: performance.now() - t, store };
}

/**
 * The same first question as a client before the stem table (schema 1) asked it: every passage's
 * heading and text read over the wire and analysed for the term weights. Rebuilt here with the
 * previous statement and analysis, on the same database, for the ratio in one run.
 */
async function firstQuestionReadingEveryText(
  url: string,
  question: string,
  embedder: Embedder,
  efSearch: number | undefined,
): Promise<number> {
  const t = performance.now();
  const store = await PostgresPassageStore.open({ connectionString: url, efSearch });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rows = (await client.query<{ t: string }>(`SELECT heading || E'\\n' || text AS t FROM evident_passages`)).rows;
  termStatsFromTexts(rows.map((r) => r.t));
  await store.search(question, TOP_K, embedder);
  const elapsed = performance.now() - t;
  await client.end();
  await store.close();
  return elapsed;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      docs: { type: 'string' },
      questions: { type: 'string' },
      store: { type: 'string' },
      scale: { type: 'boolean' },
      'ef-search': { type: 'string' },
      'ef-sweep': { type: 'string' },
    },
    allowPositionals: true,
  });
  const corpora = path.join(__dirname, '../../shared/data/corpora');
  const docs = values.scale
    ? await generatedCorpus([path.join(corpora, '18f-handbook'), path.join(corpora, 'k8s-community')], 4)
    : path.resolve(values.docs ?? positionals[0] ?? path.join(corpora, '18f-handbook'));
  const defaultQuestions = path.join(__dirname, '../eval/dev/18f-handbook.jsonl');
  const questionFile =
    values.questions ??
    (values.docs || positionals[0] || values.scale
      ? undefined
      : existsSync(defaultQuestions)
        ? defaultQuestions
        : undefined);
  const efSearch = values['ef-search'] ? Number(values['ef-search']) : undefined;
  const modelDir = await makeTinyEmbeddingModel(defaultModelCacheDir());
  const embedder = await loadEmbedder({ modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' });

  const external = values.store ?? process.env.EVIDENT_TEST_PG_URL;
  const server = external ? undefined : await startTestPostgres();
  const url = external ?? server!.url;
  const indexDir = await tempDir('evident-bench-store-');
  const source = folderDocSource(docs);
  try {
    const shared = await PostgresPassageStore.open({ connectionString: url, efSearch });
    await shared.clear();
    const local = await LocalPassageStore.open(indexDir, docs);

    let t = performance.now();
    const localReport = await local.update(source, { embedder });
    const localIndex = performance.now() - t;
    progress(`local index from scratch: ${sec(localIndex)} (${localReport.passages} passages)`);
    t = performance.now();
    await local.update(source, { embedder });
    const localRerun = performance.now() - t;
    t = performance.now();
    const sharedReport = await shared.update(source, { embedder });
    const sharedIndex = performance.now() - t;
    progress(`shared index from scratch: ${sec(sharedIndex)} (${sharedReport.passages} passages)`);
    t = performance.now();
    await shared.update(source, { embedder });
    const sharedRerun = performance.now() - t;

    const questions = values.scale && !questionFile ? SCALE_QUESTIONS : await questionsFrom(questionFile, local);

    // A new client's first question (each store opened afresh on the index just built).
    const firstLocal = await firstQuestion(() => LocalPassageStore.open(indexDir, docs), questions[0], embedder);
    const firstShared = await firstQuestion(
      () => PostgresPassageStore.open({ connectionString: url, efSearch }),
      questions[0],
      embedder,
    );
    await firstShared.store.close();
    const firstReadingAll = await firstQuestionReadingEveryText(url, questions[0], embedder, efSearch);

    // Warm both (first-query costs: HNSW pages, MiniSearch caches), then measure.
    await timedQueries(local, questions.slice(0, 3), embedder);
    await timedQueries(shared, questions.slice(0, 3), embedder);
    const l = await timedQueries(local, questions, embedder);
    const s = await timedQueries(shared, questions, embedder);
    progress(
      `queries: local p50 ${ms(percentile(l.times, 50))}, shared p50 ${ms(percentile(s.times, 50))}; first question local ${ms(firstLocal.ms)}, shared ${ms(firstShared.ms)}, reading every text ${ms(firstReadingAll)}`,
    );

    // 8 clients (8 pools), each asking every question, all at once.
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, () => PostgresPassageStore.open({ connectionString: url, efSearch })),
    );
    const concurrentTimes: number[] = [];
    let wrong = 0;
    t = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        for (let i = 0; i < questions.length; i++) {
          const q = questions[(i + c * 7) % questions.length];
          const started = performance.now();
          const r = await client.search(q, TOP_K, embedder);
          concurrentTimes.push(performance.now() - started);
          const expected = s.tops[(i + c * 7) % questions.length];
          if (r.passages.map((p) => p.passage.id).join() !== expected.join()) wrong++;
        }
      }),
    );
    const concurrentWall = performance.now() - t;
    for (const c of clients) await c.close();

    const same = l.tops.filter((top, i) => top.join() === s.tops[i].join()).length;
    const sameSet = l.tops.filter((top, i) => [...top].sort().join() === [...s.tops[i]].sort().join()).length;
    console.log(
      `Corpus: ${docs} (${localReport.documents} documents, ${localReport.passages} passages; shared: ${sharedReport.documents} / ${sharedReport.passages})`,
    );
    console.log(
      `Questions: ${questions.length} (${questionFile ?? (values.scale ? `the scale benchmark's; corpus in ${scaleCacheRoot()}` : 'passage headings')}); server: ${external ? 'PostgreSQL at --store' : 'PGlite 0.5 via pglite-socket, in this process'}; hnsw.ef_search ${efSearch ?? `default (${DEFAULT_EF_SEARCH})`}`,
    );
    console.log(
      `Machine: ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, Node ${process.version}; embeddings: tiny generated model\n`,
    );
    console.log('| store | index from scratch | re-run, unchanged | query p50 | query p95 |');
    console.log('|---|---|---|---|---|');
    console.log(
      `| local (lexical index + vectors on disk) | ${sec(localIndex)} | ${sec(localRerun)} | ${ms(percentile(l.times, 50))} | ${ms(percentile(l.times, 95))} |`,
    );
    console.log(
      `| shared (PostgreSQL + pgvector, 1 client) | ${sec(sharedIndex)} | ${sec(sharedRerun)} | ${ms(percentile(s.times, 50))} | ${ms(percentile(s.times, 95))} |`,
    );
    console.log(
      `| shared, ${CLIENTS} concurrent clients* | | | ${ms(percentile(concurrentTimes, 50))} | ${ms(percentile(concurrentTimes, 95))} |`,
    );
    console.log(
      `\nA new client's first question (open, term weights, search): local ${ms(firstLocal.ms)}, shared ${ms(firstShared.ms)}; shared reading every passage's text for the weights (the client before the stem table) ${ms(firstReadingAll)}.`,
    );
    console.log(
      `\n* ${CLIENTS} × ${questions.length} queries in ${sec(concurrentWall)} (${(concurrentTimes.length / (concurrentWall / 1000)).toFixed(1)} queries/s); ${wrong} answered differently from the same query alone. PGlite runs one query at a time: this checks correctness and queueing, not a server's throughput.`,
    );
    console.log(
      `Same top ${TOP_K} (ids and order) local vs shared: ${same}/${questions.length}; same set: ${sameSet}/${questions.length}.`,
    );
    l.tops.forEach((top, i) => {
      if (top.join() !== s.tops[i].join()) {
        console.log(`  differs: "${questions[i]}"\n    local  ${top.join(' ')}\n    shared ${s.tops[i].join(' ')}`);
      }
    });
    for (const ef of (values['ef-sweep'] ?? '').split(',').filter(Boolean).map(Number)) {
      const swept = await PostgresPassageStore.open({ connectionString: url, efSearch: ef });
      await timedQueries(swept, questions.slice(0, 3), embedder);
      const r = await timedQueries(swept, questions, embedder);
      await swept.close();
      const equal = l.tops.filter((top, i) => top.join() === r.tops[i].join()).length;
      console.log(
        `hnsw.ef_search ${ef}: same top ${TOP_K} as local ${equal}/${questions.length}; query p50 ${ms(percentile(r.times, 50))}, p95 ${ms(percentile(r.times, 95))}`,
      );
      r.tops.forEach((top, i) => {
        if (top.join() !== l.tops[i].join()) {
          console.log(`  differs: "${questions[i]}"\n    local  ${l.tops[i].join(' ')}\n    shared ${top.join(' ')}`);
        }
      });
    }
    await shared.close();
  } finally {
    await removeDir(indexDir);
    await server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
