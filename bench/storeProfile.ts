// Profile of the shared index's search statement: EXPLAIN (ANALYZE, BUFFERS) of the one SQL
// statement a client sends per question (searchSql.ts), on a PGlite store kept on disk between
// runs, so iterating on the statement or the schema does not rebuild the index each time.
//
// The first run indexes the corpus into the data folder (minutes at 11k passages); later runs
// re-open it (an index run that finds every file unchanged only when --update is given, e.g.
// after a schema change migrated the store). Each question's search is timed through the store
// (as a client asks it) and its plan is printed (the slowest question's in full, or each with --plans).
//
// Usage: npm run bench:store-profile [-- --docs DIR] [-- --data DIR] [-- --update] [-- --plans]
//        [-- --lexical] (the lexical statement, without the vector side)
// Defaults: the k8s-community corpus (11,797 passages), data in $TMPDIR/evident-store-profile/<corpus>,
// the scale benchmark's 20 questions.

import { mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { folderDocSource } from '../src/core/docs/docSource';
import { loadEmbedder } from '../src/core/retrieval/embedder';
import { CANDIDATES, FUSION_WEIGHTS, RRF_K } from '../src/core/retrieval/hybridRetriever';
import { B, K1, lexicalTerms } from '../src/core/retrieval/lexicalIndex';
import { DEFAULT_EF_SEARCH, PostgresPassageStore } from '../src/core/store/postgres/postgresPassageStore';
import { HYBRID_SEARCH_SQL, LEXICAL_SEARCH_SQL } from '../src/core/store/postgres/searchSql';
import { stemsOf } from '../src/core/text/termStats';
import { startTestPostgres } from '../test/support/pgliteServer';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../test/support/tinyModels';
import { SCALE_QUESTIONS } from './scale/scaleQuestions';
import pgvector from 'pgvector';

const TOP_K = 6;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      docs: { type: 'string' },
      data: { type: 'string' },
      update: { type: 'boolean' },
      plans: { type: 'boolean' },
      lexical: { type: 'boolean' },
    },
  });
  const docs = path.resolve(values.docs ?? path.join(__dirname, '../../shared/data/corpora/k8s-community'));
  const dataDir = path.resolve(values.data ?? path.join(os.tmpdir(), 'evident-store-profile', path.basename(docs)));
  const modelDir = await makeTinyEmbeddingModel(defaultModelCacheDir());
  const embedder = await loadEmbedder({ modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const server = await startTestPostgres({ dataDir });
  try {
    const store = await PostgresPassageStore.open({ connectionString: server.url });
    if (!store.status().indexed || values.update) {
      const t = performance.now();
      const report = await store.update(folderDocSource(docs), { embedder });
      console.log(
        `Indexed ${docs} into ${dataDir}: ${report.passages} passages (${report.added} added, ${report.updated} updated, ${report.unchanged} unchanged) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    } else {
      console.log(`Store in ${dataDir}: ${store.status().passages} passages (${store.status().documents} documents)`);
    }
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query(`SET hnsw.ef_search = ${DEFAULT_EF_SEARCH}`);
    const rows: { question: string; store: number; plan: string; execution: number }[] = [];
    for (const question of SCALE_QUESTIONS) {
      let t = performance.now();
      await store.search(question, TOP_K, values.lexical ? undefined : embedder);
      const searched = performance.now() - t;
      const terms = lexicalTerms(question);
      const stems = [...stemsOf(question)];
      const [vector] = await embedder.embed([question]);
      const params = values.lexical
        ? [terms, TOP_K, CANDIDATES, RRF_K, K1, B, stems]
        : [
            terms,
            pgvector.toSql(Array.from(vector)),
            TOP_K,
            CANDIDATES,
            RRF_K,
            K1,
            B,
            FUSION_WEIGHTS.lexical,
            FUSION_WEIGHTS.vector,
            stems,
          ];
      t = performance.now();
      const explained = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${values.lexical ? LEXICAL_SEARCH_SQL : HYBRID_SEARCH_SQL}`,
        params,
      );
      const plan = explained.rows.map((r) => r['QUERY PLAN']).join('\n');
      const execution = Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1] ?? NaN);
      rows.push({ question, store: searched, plan, execution });
      console.log(
        `${searched.toFixed(1).padStart(9)} ms search, ${execution.toFixed(1).padStart(9)} ms executed (EXPLAIN ANALYZE)  ${question}  [${terms.join(' ')}]`,
      );
      if (values.plans) console.log(plan);
    }
    const sorted = [...rows].sort((a, b) => a.store - b.store);
    console.log(
      `\nsearch p50 ${sorted[Math.ceil(sorted.length / 2) - 1].store.toFixed(1)} ms, max ${sorted[sorted.length - 1].store.toFixed(1)} ms`,
    );
    if (!values.plans) {
      const slowest = sorted[sorted.length - 1];
      console.log(`\nThe slowest question's plan ("${slowest.question}"):\n${slowest.plan}`);
    }
    await client.end();
    await store.close();
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
