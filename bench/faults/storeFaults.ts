// Faults of the shared index on a real PostgreSQL with pgvector that this benchmark owns: the
// server is stopped as in a crash (`pg_ctl stop -m immediate`) during a first index, during an
// update's transaction, during the embedding phase and during the VACUUM after the commit; after
// a restart the next run must succeed and the store must equal a clean index of the same tree
// (documents, passages, vectors, every kept count). Then two indexers over different trees at
// once, again and again: no failure, and the store equals a clean index of the last committer's tree.

import pg from 'pg';
import { folderDocSource } from '../../src/core/docs/docSource';
import type { IndexProgress } from '../../src/core/indexing/indexRun';
import { PostgresPassageStore } from '../../src/core/store/postgres/postgresPassageStore';
import type { Embedder } from '../../src/core/types';
import type { OwnPostgres } from '../../test/support/realPostgres';
import { removeDir, tempDir, writeDocs } from '../../test/support/workspace';

export interface FaultOutcome {
  scenario: string;
  ok: boolean;
  detail: string;
}

/** A tree of `n` policies; `variant` changes some texts (another indexer's tree). */
export function policyTree(n: number, variant = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`policies/p${i}.md`] =
      `# Policy ${i}${variant}\n\n${Array.from({ length: 6 }, (_, j) => `Rule ${i}.${j}${variant} says team ${j} files report ${i * j} on day ${j + 1}.`).join(' ')}\n`;
  }
  files[variant ? `only${variant}.md` : 'base.md'] = `# Only ${variant || 'base'}\n\nThis file is in one tree only.\n`;
  return files;
}

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function freshDatabase(adminUrl: string, name: string): Promise<string> {
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Everything a store holds that a clean index of the same tree must hold too, and its counts against recounts. */
export async function storeContents(url: string): Promise<{ rows: string; countsExact: boolean }> {
  return withClient(url, async (c) => {
    const q = async (sql: string) => JSON.stringify((await c.query(sql)).rows);
    const rows = [
      await q('SELECT path, version, passages FROM evident_documents ORDER BY path COLLATE "C"'),
      await q(
        'SELECT id, source, version, start_line, end_line, text, embedding IS NOT NULL AS v FROM evident_passages ORDER BY id COLLATE "C"',
      ),
      await q('SELECT passages, documents, embedding_model FROM evident_store'),
    ].join('\n');
    const exact = async (kept: string, recount: string) => (await q(kept)) === (await q(recount));
    const countsExact =
      (await exact(
        'SELECT term, df FROM evident_term_df ORDER BY term COLLATE "C"',
        'SELECT term, count(*)::int AS df FROM evident_terms GROUP BY term ORDER BY term COLLATE "C"',
      )) &&
      (await exact(
        'SELECT stem, df FROM evident_stems ORDER BY stem COLLATE "C"',
        'SELECT s AS stem, count(*)::int AS df FROM evident_passages, unnest(stems) AS s GROUP BY s ORDER BY s COLLATE "C"',
      ));
    return { rows, countsExact };
  });
}

async function index(url: string, dir: string, embedder: Embedder, onProgress?: (p: IndexProgress) => void) {
  const store = await PostgresPassageStore.open({ connectionString: url, connectTimeoutMs: 5000 });
  try {
    return await store.update(folderDocSource(dir), { embedder, onProgress });
  } finally {
    await store.close().catch(() => undefined);
  }
}

type KillPoint = { name: string; prepare: boolean; at: (p: IndexProgress) => boolean; expectFailure: boolean };

const KILL_POINTS: KillPoint[] = [
  {
    name: 'first index (in its transaction)',
    prepare: false,
    at: (p) => p.phase === 'saving' && p.done === 0,
    expectFailure: true,
  },
  {
    name: 'update (in its transaction)',
    prepare: true,
    at: (p) => p.phase === 'saving' && p.done === 0,
    expectFailure: true,
  },
  { name: 'embedding phase', prepare: true, at: (p) => p.phase === 'embedding' && p.done > 0, expectFailure: true },
  {
    name: 'VACUUM after the commit',
    prepare: true,
    at: (p) => p.phase === 'saving' && p.done === 1 && p.total === 2,
    expectFailure: false,
  },
];

export async function storeKills(
  own: OwnPostgres,
  embedder: Embedder,
  log: (line: string) => void,
): Promise<FaultOutcome[]> {
  const out: FaultOutcome[] = [];
  const docs = await tempDir('evident-faults-docs-');
  try {
    await writeDocs(docs, policyTree(120));
    const cleanUrl = await freshDatabase(own.url, 'evident_faults_clean');
    for (const point of KILL_POINTS) {
      const url = await freshDatabase(own.url, 'evident_faults_run');
      if (point.prepare) {
        await index(url, docs, embedder);
        await writeDocs(docs, {
          'policies/p3.md': `# Policy 3\n\nEdited before the ${point.name} run: ${Date.now()}.\n`,
          [`new/${out.length}.md`]: `# New ${out.length}\n\n${Array.from({ length: 80 }, (_, j) => `New rule ${j} of run ${out.length}.`).join(' ')}\n`,
        });
      }
      let killed = false;
      let failure: string | undefined;
      let notices: string[] = [];
      try {
        const report = await index(url, docs, embedder, (p) => {
          if (!killed && point.at(p)) {
            killed = true;
            own.kill();
          }
        });
        notices = report.notices.map((n) => n.text);
      } catch (error) {
        failure = `${(error as { code?: string }).code ?? ''} ${(error as Error).message}`.trim();
      }
      own.restart();
      const after = await index(url, docs, embedder);
      await withClient(own.url, async (c) => {
        await c.query('DROP DATABASE IF EXISTS evident_faults_clean WITH (FORCE)');
        await c.query('CREATE DATABASE evident_faults_clean');
      });
      await index(cleanUrl, docs, embedder);
      const [got, want] = [await storeContents(url), await storeContents(cleanUrl)];
      const asExpected =
        killed &&
        (point.expectFailure
          ? failure !== undefined && /unreachable/.test(failure)
          : failure === undefined && notices.some((n) => /VACUUM \(ANALYZE\) failed/.test(n)));
      const ok = asExpected && got.rows === want.rows && got.countsExact;
      const detail = `killed: ${killed}; run: ${failure ?? `done${notices.length ? ` (${notices.join(' ').slice(0, 160)})` : ''}`}; next run: ${after.documents} documents, ${after.passages} passages; equals a clean index: ${got.rows === want.rows}; counts exact: ${got.countsExact}`;
      log(`store: PostgreSQL stopped during the ${point.name}: ${ok ? 'ok' : 'FAILED'} — ${detail}`);
      out.push({ scenario: `store-kill: ${point.name}`, ok, detail });
    }
  } finally {
    await removeDir(docs);
  }
  return out;
}

export async function storeWriters(
  own: OwnPostgres,
  embedder: Embedder,
  rounds: number,
  log: (line: string) => void,
): Promise<FaultOutcome> {
  const treeA = await tempDir('evident-faults-a-');
  const treeB = await tempDir('evident-faults-b-');
  const cleanDir = await tempDir('evident-faults-clean-');
  const failures: string[] = [];
  let equal = 0;
  try {
    const url = await freshDatabase(own.url, 'evident_faults_writers');
    const cleanUrl = await freshDatabase(own.url, 'evident_faults_writers_clean');
    await writeDocs(treeA, policyTree(60, '-a'));
    await writeDocs(treeB, policyTree(60, '-b'));
    for (let round = 0; round < rounds; round++) {
      await writeDocs(treeA, { [`a/round-${round}.md`]: `# A ${round}\n\nWriter A, round ${round}.\n` });
      await writeDocs(treeB, { [`b/round-${round}.md`]: `# B ${round}\n\nWriter B, round ${round}.\n` });
      const committed: string[] = [];
      const run = (name: string, dir: string) =>
        index(url, dir, embedder, (p) => void (p.phase === 'saving' && p.done === 1 && committed.push(name))).catch(
          (error: Error) => failures.push(`round ${round} ${name}: ${error.message}`),
        );
      await Promise.all([run('a', treeA), run('b', treeB)]);
      const last = committed[committed.length - 1];
      await withClient(own.url, async (c) => {
        await c.query('DROP DATABASE IF EXISTS evident_faults_writers_clean WITH (FORCE)');
        await c.query('CREATE DATABASE evident_faults_writers_clean');
      });
      await removeDir(cleanDir);
      await index(cleanUrl, last === 'a' ? treeA : treeB, embedder);
      const [got, want] = [await storeContents(url), await storeContents(cleanUrl)];
      if (got.rows === want.rows && got.countsExact) equal++;
      else {
        failures.push(
          `round ${round}: the store (last commit by ${last}) differs from a clean index of that tree (counts exact: ${got.countsExact})`,
        );
      }
    }
  } finally {
    for (const d of [treeA, treeB, cleanDir]) await removeDir(d);
  }
  const ok = failures.length === 0;
  const detail = `${rounds} rounds of two indexers over different trees at once: ${failures.length} failures; the store equals a clean index of the last committer's tree in ${equal} of ${rounds}${failures.length ? `; ${failures.slice(0, 3).join('; ')}` : ''}`;
  log(`store: ${detail}`);
  return { scenario: 'store-writers', ok, detail };
}
