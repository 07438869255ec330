import { strict as assert } from 'node:assert';
import { unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import pg from 'pg';
import { folderDocSource } from '../../../../src/core/docs/docSource';
import { LocalPassageStore } from '../../../../src/core/store/localPassageStore';
import { StoreError } from '../../../../src/core/store/passageStore';
import { PostgresPassageStore, redactConnection } from '../../../../src/core/store/postgres/postgresPassageStore';
import { SCHEMA_VERSION } from '../../../../src/core/store/postgres/schema';
import { LEXICAL_SEARCH_SQL } from '../../../../src/core/store/postgres/searchSql';
import { CANDIDATES, RRF_K } from '../../../../src/core/retrieval/hybridRetriever';
import { B, K1, lexicalTerms } from '../../../../src/core/retrieval/lexicalIndex';
import type { Embedder } from '../../../../src/core/types';
import { analyse } from '../../../../src/core/text/terms';
import { dropStoreTables, startTestPostgres, TEST_SERVERS, type TestPostgres } from '../../../support/pgliteServer';
import { startTcpProxy } from '../../../support/tcpProxy';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';
import { loadTinyEmbedder } from '../../../support/tinyEmbedder';

const DOCS: Record<string, string> = {
  'refunds.md':
    '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n\n## Monthly plans\n\nMonthly plans are not refundable.\n',
  'travel/lodging.md':
    '# Lodging\n\nHotel stays are reimbursed up to 180 dollars per night in large cities.\n\n## Per diem\n\nMeals are covered by a per diem of 60 dollars a day.\n',
  'security.md': '# Passwords\n\nPasswords must be at least 14 characters long and stored in the password manager.\n',
  'empty.md': '',
};

const stemsOfText = (text: string) => analyse(text, { stemming: true }).terms.map((t) => t.stem);

const QUERIES = [
  'annual plan refund',
  'hotel night large city',
  'how long must passwords be',
  'per diem meals',
  'monthly plans',
];

/** Undoes schema 3 (BM25 document frequencies, posting lengths): a store as Evident's schema 2 left it. */
const TO_SCHEMA_2 = `DROP TABLE evident_term_df;
  ALTER TABLE evident_terms DROP CONSTRAINT evident_terms_pkey;
  ALTER TABLE evident_terms DROP COLUMN len;
  ALTER TABLE evident_terms ADD CONSTRAINT evident_terms_pkey PRIMARY KEY (term, passage_id);
  UPDATE evident_schema SET version = 2`;

/** Everything the store keeps counted, next to a recount from the rows it counts. */
async function countsAndRecounts(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const q = async (sql: string) => (await client.query(sql)).rows;
    return {
      termDf: await q('SELECT term, df FROM evident_term_df ORDER BY term COLLATE "C"'),
      termRecount: await q(
        'SELECT term, count(*)::int AS df FROM evident_terms GROUP BY term ORDER BY term COLLATE "C"',
      ),
      stemDf: await q('SELECT stem, df FROM evident_stems ORDER BY stem COLLATE "C"'),
      stemRecount: await q(
        'SELECT s AS stem, count(*)::int AS df FROM evident_passages, unnest(stems) AS s GROUP BY s ORDER BY s COLLATE "C"',
      ),
      // Every posting carries its passage's weighted length; none is left without its passage.
      wrongLengths: await q(
        'SELECT t.passage_id, t.len, p.len AS passage_len FROM evident_terms t LEFT JOIN evident_passages p ON p.id = t.passage_id WHERE p.len IS DISTINCT FROM t.len',
      ),
    };
  } finally {
    await client.end();
  }
}

function assertCountsExact(counts: Record<string, unknown[]>): void {
  assert.ok(counts.termRecount.length > 10 && counts.stemRecount.length > 10, 'the fixture has terms to count');
  assert.deepEqual(counts.termDf, counts.termRecount, 'BM25 document frequencies equal a recount of the postings');
  assert.deepEqual(counts.stemDf, counts.stemRecount, "the verifier's stem counts equal a recount");
  assert.deepEqual(counts.wrongLengths, [], "each posting's length is its passage's");
}

/** The same embedder under another model id: a client configured with a different model. */
function renamed(embedder: Embedder, modelId: string): Embedder {
  return { modelId, dimensions: embedder.dimensions, embed: (t, s) => embedder.embed(t, s) };
}

function counting(embedder: Embedder): Embedder & { count: () => number } {
  let n = 0;
  return {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    count: () => n,
    embed: (t, s) => ((n += t.length), embedder.embed(t, s)),
  };
}

for (const kind of TEST_SERVERS) {
  describe(`shared index: PostgreSQL + pgvector store (real pg client, ${kind === 'pglite' ? 'against a PGlite server on 127.0.0.1' : 'against a real PostgreSQL with pgvector'})`, function () {
    this.timeout(180_000);
    let server: TestPostgres;
    let embedder: Embedder;
    let docs: string;
    const open: PostgresPassageStore[] = [];

    async function openStore(url = server.url): Promise<PostgresPassageStore> {
      const store = await PostgresPassageStore.open({ connectionString: url, connectTimeoutMs: 5000 });
      open.push(store);
      return store;
    }

    /** An admin connection (left open) after taking the indexed store back to schema 2, as an older Evident left it. */
    async function adminAtSchema2(): Promise<pg.Client> {
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(TO_SCHEMA_2);
      return admin;
    }

    async function resetDatabase(): Promise<void> {
      await dropStoreTables(server.url);
    }

    before(async () => {
      server = await startTestPostgres({ kind });
      embedder = await loadTinyEmbedder();
    });

    after(async () => {
      await server?.stop();
    });

    beforeEach(async () => {
      await resetDatabase();
      docs = await tempDir();
      await writeDocs(docs, DOCS);
    });

    afterEach(async () => {
      for (const s of open.splice(0)) await s.close().catch(() => {});
      await removeDir(docs);
    });

    it('creates its schema at the current version on first open, and says a never-indexed store has not been indexed', async () => {
      const store = await openStore();
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const version = (await client.query('SELECT version FROM evident_schema')).rows;
      const ext = (await client.query("SELECT extname FROM pg_extension WHERE extname = 'vector'")).rows;
      await client.end();
      assert.deepEqual(version, [{ version: SCHEMA_VERSION }]);
      assert.equal(ext.length, 1, 'the pgvector extension is installed');
      assert.deepEqual(store.status(), { indexed: false, documents: 0, passages: 0, embeddingModel: null });
      await assert.rejects(
        store.search('refunds', 6, embedder),
        (e: StoreError) =>
          e.code === 'not-indexed' && /never been indexed/.test(e.message) && /evident index/.test(e.message),
      );
      // A second open migrates nothing and keeps one schema row.
      await openStore();
    });

    it('migrates a schema-1 store (no stem counts): it asks to be re-indexed, and the next run re-chunks it with its counts', async () => {
      const first = await openStore();
      await first.update(folderDocSource(docs), { embedder });
      await first.close();
      const admin = await adminAtSchema2();
      await admin.query(
        'ALTER TABLE evident_passages DROP COLUMN stems; DROP TABLE evident_stems; ALTER TABLE evident_store DROP COLUMN documents; UPDATE evident_schema SET version = 1',
      );
      await admin.end();
      const store = await openStore();
      assert.equal(store.status().indexed, false);
      await assert.rejects(
        store.search('annual plan refund', 6, embedder),
        (e: StoreError) => e.code === 'not-indexed',
      );
      const report = await store.update(folderDocSource(docs), { embedder });
      assert.ok(
        report.notices.some((n) => n.code === 'index-format-changed' && /re-chunking every document/.test(n.text)),
        report.notices.map((n) => n.text).join(' | '),
      );
      assert.ok((await store.search('annual plan refund', 6, embedder)).passages.length > 0);
      const stats = await store.termStats(['refundable']);
      assert.ok(stats.idf('refund') < stats.idf('zzqunseen'), 'a word of the index weighs less than an unseen one');
      assertCountsExact(await countsAndRecounts(server.url));
    });

    it('migrates a schema-2 store in place (BM25 counts, posting lengths): still indexed, same answers, nothing re-embedded', async () => {
      const first = await openStore();
      await first.update(folderDocSource(docs), { embedder });
      const before = [];
      for (const q of QUERIES) {
        before.push((await first.search(q, 6, embedder)).passages, (await first.search(q, 30, undefined)).passages);
      }
      await first.close();
      const admin = await adminAtSchema2();
      await admin.end();

      const store = await openStore();
      assert.equal(store.status().indexed, true, 'no re-index needed');
      const after = [];
      for (const q of QUERIES) {
        after.push((await store.search(q, 6, embedder)).passages, (await store.search(q, 30, undefined)).passages);
      }
      assert.deepEqual(after, before, 'the same passages, order and scores, hybrid and lexical');
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      assert.deepEqual((await client.query('SELECT version FROM evident_schema')).rows, [{ version: SCHEMA_VERSION }]);
      await client.end();
      assertCountsExact(await countsAndRecounts(server.url));
      const again = counting(embedder);
      const report = await store.update(folderDocSource(docs), { embedder: again });
      assert.deepEqual(
        [report.unchanged, again.count()],
        [4, 0],
        'the next run finds everything current and embeds nothing',
      );
    });

    it('a migration that fails leaves the older store exactly as it was and says which version failed', async () => {
      const first = await openStore();
      await first.update(folderDocSource(docs), { embedder });
      await first.close();
      const admin = await adminAtSchema2();
      // Something of the team's own in the way of schema 3's new table.
      await admin.query('CREATE TABLE evident_term_df (note text)');
      const passages = (await admin.query('SELECT count(*)::int AS n FROM evident_passages')).rows[0].n;
      await assert.rejects(
        openStore(),
        (e: StoreError) =>
          e.code === 'setup' &&
          /Could not migrate the shared index's schema \(version 3\)/.test(e.message) &&
          /evident_term_df/.test(e.message),
      );
      assert.deepEqual(
        (await admin.query('SELECT version FROM evident_schema')).rows,
        [{ version: 2 }],
        'still schema 2',
      );
      assert.equal(
        (
          await admin.query(
            "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'evident_terms' AND column_name = 'len'",
          )
        ).rows[0].n,
        0,
        'no half-migrated table',
      );
      assert.equal(
        (await admin.query('SELECT count(*)::int AS n FROM evident_passages')).rows[0].n,
        passages,
        'no passage lost',
      );
      await admin.query('DROP TABLE evident_term_df');
      await admin.end();
      const store = await openStore();
      assert.equal(store.status().indexed, true);
      assert.ok((await store.search('annual plan refund', 6, embedder)).passages.length > 0);
    });

    it('a reader role opening an older store is refused with the way out (the indexing role migrates it), and nothing changes', async function () {
      if (server.kind === 'pglite') this.skip(); // PGlite has one superuser session: roles are not enforced there
      const writer = await openStore();
      await writer.update(folderDocSource(docs), { embedder });
      const admin = await adminAtSchema2();
      await admin.query('DROP ROLE IF EXISTS evident_test_reader');
      await admin.query("CREATE ROLE evident_test_reader LOGIN PASSWORD 'reader'");
      await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO evident_test_reader');
      await admin.query('REVOKE CREATE ON SCHEMA public FROM evident_test_reader');
      const url = new URL(server.url);
      url.username = 'evident_test_reader';
      url.password = 'reader';
      await assert.rejects(
        openStore(url.toString()),
        (e: StoreError) =>
          e.code === 'setup' &&
          /schema version 2/.test(e.message) &&
          /role that owns its tables/.test(e.message) &&
          /evident index --store/.test(e.message),
      );
      assert.deepEqual((await admin.query('SELECT version FROM evident_schema')).rows, [{ version: 2 }]);
      await admin.end();
    });

    it('refuses a store written by a newer schema, saying to update Evident', async () => {
      await openStore();
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query('UPDATE evident_schema SET version = 99');
      await client.end();
      await assert.rejects(
        openStore(),
        (e: StoreError) => e.code === 'schema-newer' && /Update Evident/.test(e.message),
      );
    });

    it('answers through a role that may only read (no CREATE right): opening a current store changes nothing', async function () {
      if (server.kind === 'pglite') this.skip(); // PGlite has one superuser session: roles are not enforced there
      const writer = await openStore();
      await writer.update(folderDocSource(docs), { embedder });
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query('DROP ROLE IF EXISTS evident_test_reader');
      await admin.query("CREATE ROLE evident_test_reader LOGIN PASSWORD 'reader'");
      await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO evident_test_reader');
      await admin.query('REVOKE CREATE ON SCHEMA public FROM evident_test_reader');
      await admin.end();
      const url = new URL(server.url);
      url.username = 'evident_test_reader';
      url.password = 'reader';
      const reader = await openStore(url.toString());
      assert.ok((await reader.search('annual plan refund', 6, embedder)).passages.length > 0);
    });

    it('holds the same passages (ids, versions, lines) as the local index and ranks the same top 6', async () => {
      const store = await openStore();
      const report = await store.update(folderDocSource(docs), { embedder });
      assert.equal(report.added, 4);
      assert.equal(report.retrieval, 'hybrid');
      const localDir = await tempDir('evident-index-');
      try {
        const local = await LocalPassageStore.open(localDir, docs);
        await local.update(folderDocSource(docs), { embedder });
        const localPassages = (await local.passageTexts()).length;
        assert.equal(store.status().passages, localPassages);
        assert.equal(store.status().documents, 4);
        assert.equal(store.status().embeddingModel, embedder.modelId);
        for (const q of QUERIES) {
          const shared = await store.search(q, 6, embedder);
          const mine = await local.search(q, 6, embedder);
          assert.equal(shared.mode, 'hybrid');
          assert.deepEqual(
            shared.passages.map((p) => p.passage),
            mine.passages.map((p) => p.passage),
            `same passages, same order for "${q}"`,
          );
        }
        // Lexical only (a client without an embedding model): still the local ranking.
        for (const q of QUERIES) {
          const shared = await store.search(q, 6, undefined);
          const mine = await local.search(q, 6, undefined);
          assert.equal(shared.mode, 'lexical');
          assert.deepEqual(
            shared.passages.map((p) => p.passage.id),
            mine.passages.map((p) => p.passage.id),
            `same lexical ranking for "${q}"`,
          );
        }
      } finally {
        await removeDir(localDir);
      }
    });

    it('gives the verifier the same term weights and document sources as the local index', async () => {
      const store = await openStore();
      await store.update(folderDocSource(docs), { embedder });
      const localDir = await tempDir('evident-index-');
      try {
        const local = await LocalPassageStore.open(localDir, docs);
        await local.update(folderDocSource(docs), { embedder });
        const texts = await local.passageTexts();
        const [sharedStats, localStats] = [await store.termStats([...texts, 'zzqunseen']), await local.termStats([])];
        const stems = new Set(texts.flatMap((t) => analyse(t, { stemming: true }).terms.map((term) => term.stem)));
        assert.ok(stems.size > 20, `the fixture has words to weigh (${stems.size})`);
        const weights = new Set<number>();
        for (const stem of [...stems, 'zzqunseen']) {
          assert.equal(sharedStats.idf(stem), localStats.idf(stem), `idf of "${stem}"`);
          weights.add(localStats.idf(stem));
        }
        assert.ok(weights.size > 1, 'rare and common terms weigh differently');
        assert.equal(await store.commonFolder(), await local.commonFolder());
        assert.equal(await store.commonFolder(), '', 'refunds.md and travel/lodging.md share no folder');
      } finally {
        await removeDir(localDir);
      }
    });

    it('reads term weights from its stem table, kept exact through edits and deletions, without reading passage texts', async () => {
      const store = await openStore();
      await store.update(folderDocSource(docs), { embedder });
      // Edit one file (passages change), delete another, add a third; then reindex incrementally.
      await writeFile(
        path.join(docs, 'refunds.md'),
        '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable within 30 days.\n\n## Gift cards\n\nGift cards are never refundable.\n',
      );
      await unlink(path.join(docs, 'security.md'));
      await writeFile(
        path.join(docs, 'travel/rail.md'),
        '# Rail\n\nRail travel is booked in standard class; per diem applies to meals on board.\n',
      );
      await store.update(folderDocSource(docs), { embedder });
      const localDir = await tempDir('evident-index-');
      try {
        const local = await LocalPassageStore.open(localDir, docs);
        await local.update(folderDocSource(docs), { embedder });
        const texts = await local.passageTexts();
        const stems = new Set(texts.flatMap((t) => analyse(t, { stemming: true }).terms.map((term) => term.stem)));
        // The removed file's words are counted nowhere any more: as unseen as a made-up word.
        for (const gone of stemsOfText('passwords manager')) {
          assert.ok(!stems.has(gone), `fixture: "${gone}" left with security.md`);
        }
        // A new client with a fresh cache, and one that has read counts before the update (stale cache).
        const fresh = await openStore();
        const freshStats = await fresh.termStats([...texts, 'passwords manager']);
        const localStats = await local.termStats([]);
        for (const stem of [...stems, ...stemsOfText('passwords manager')]) {
          assert.equal(freshStats.idf(stem), localStats.idf(stem), `idf of "${stem}" after the edits`);
        }
        // The counts came from the stem table: emptying the passages' text does not change them.
        const admin = new pg.Client({ connectionString: server.url });
        await admin.connect();
        await admin.query("UPDATE evident_passages SET text = '', heading = ''");
        const stemRows = Number((await admin.query('SELECT count(*) AS n FROM evident_stems')).rows[0].n);
        await admin.end();
        assert.equal(stemRows, stems.size, 'one row per stem in the index, none left over from removed passages');
        const again = await (await openStore()).termStats(texts);
        for (const stem of stems) {
          assert.equal(again.idf(stem), localStats.idf(stem), `idf of "${stem}" read from the stem table`);
        }
        assertCountsExact(await countsAndRecounts(server.url));
      } finally {
        await removeDir(localDir);
      }
    });

    it('ranks as the local index does after edits, deletions and a clear (BM25 counts kept by every write)', async () => {
      // Twelve policies sharing words in different proportions, so document frequencies decide the order.
      const words = ['travel', 'hotel', 'refund', 'laptop', 'overtime', 'leave', 'review', 'budget'];
      const policy = (i: number, shift = 0) =>
        `# Policy ${i}\n\n${words
          .filter((_, w) => (i + w + shift) % 3 !== 0)
          .map((w, k) => `The ${w} rule ${k} applies to team ${i % 4}.`)
          .join(' ')}\n\n## Notes\n\nAsk the ${words[(i + shift) % words.length]} desk.\n`;
      await writeDocs(docs, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`policies/p${i}.md`, policy(i)])));
      const queries = [
        'travel hotel refund',
        'laptop overtime',
        'leave review budget desk',
        'team rule',
        'hotel desk notes',
      ];
      const store = await openStore();
      const localDir = await tempDir('evident-index-');
      try {
        const local = await LocalPassageStore.open(localDir, docs);
        const compare = async (when: string) => {
          await store.update(folderDocSource(docs), { embedder });
          await local.update(folderDocSource(docs), { embedder });
          for (const q of queries) {
            const shared = (await store.search(q, 30, undefined)).passages.map((p) => p.passage.id);
            assert.ok(shared.length > 3, `"${q}" finds passages ${when}`);
            assert.deepEqual(
              shared,
              (await local.search(q, 30, undefined)).passages.map((p) => p.passage.id),
              `lexical order of "${q}" ${when}`,
            );
            assert.deepEqual(
              (await store.search(q, 6, embedder)).passages.map((p) => p.passage.id),
              (await local.search(q, 6, embedder)).passages.map((p) => p.passage.id),
              `top 6 of "${q}" ${when}`,
            );
          }
          assertCountsExact(await countsAndRecounts(server.url));
        };
        await compare('after the first run');
        for (const i of [1, 4, 7]) await writeFile(path.join(docs, `policies/p${i}.md`), policy(i, 1));
        for (const i of [2, 9]) await unlink(path.join(docs, `policies/p${i}.md`));
        await unlink(path.join(docs, 'refunds.md'));
        await compare('after edits and deletions');
        await store.clear();
        await compare('after a clear and a new run');
      } finally {
        await removeDir(localDir);
      }
    });

    it("reads only the query terms' postings, through the postings' key, never a scan of the term table", async () => {
      // Enough passages that the term table spans many pages (the planner would scan a one-page table anyway).
      const topics = [
        'travel',
        'hotel',
        'refund',
        'laptop',
        'overtime',
        'leave',
        'review',
        'budget',
        'badge',
        'parking',
      ];
      await writeDocs(
        docs,
        Object.fromEntries(
          Array.from({ length: 150 }, (_, i) => [
            `many/doc-${i}.md`,
            `# Doc ${i}\n\n${Array.from({ length: 12 }, (_, k) => `Word${i}x${k} ${topics[(i + k) % topics.length]} item${k} note${i % 17}.`).join(' ')}\n`,
          ]),
        ),
      );
      const store = await openStore();
      await store.update(folderDocSource(docs), {});
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const terms = lexicalTerms('hotel refund for doc 12 notes');
        const plan = (
          await client.query(`EXPLAIN ${LEXICAL_SEARCH_SQL}`, [terms, 6, CANDIDATES, RRF_K, K1, B, []])
        ).rows
          .map((r) => r['QUERY PLAN'] as string)
          .join('\n');
        assert.doesNotMatch(plan, /Seq Scan on evident_terms\b/, plan);
        assert.match(plan, /evident_terms_pkey/, plan);
        assert.match(plan, /evident_term_df_pkey/, plan);
      } finally {
        await client.end();
      }
      assert.ok((await store.search('hotel refund', 6, undefined)).passages.length === 6);
    });

    it('indexes incrementally by content hash: unchanged files are skipped, only new passages are embedded, deleted files leave', async () => {
      const store = await openStore();
      await store.update(folderDocSource(docs), { embedder });
      const before = await store.search('hotel night', 6, embedder);
      const lodgingId = before.passages.find((p) => p.passage.source === 'travel/lodging.md')!.passage.id;

      const again = counting(embedder);
      const unchanged = await store.update(folderDocSource(docs), { embedder: again });
      assert.deepEqual(
        [unchanged.added, unchanged.updated, unchanged.removed, unchanged.unchanged, again.count()],
        [0, 0, 0, 4, 0],
      );

      // One section added above the others (their lines move, their ids and vectors stay), one file deleted.
      await writeFile(
        path.join(docs, 'travel/lodging.md'),
        '# Lodging\n\nA new first paragraph about booking through the travel desk.\n\nHotel stays are reimbursed up to 180 dollars per night in large cities.\n\n## Per diem\n\nMeals are covered by a per diem of 60 dollars a day.\n',
      );
      await unlink(path.join(docs, 'security.md'));
      const edit = counting(embedder);
      const report = await store.update(folderDocSource(docs), { embedder: edit });
      assert.deepEqual([report.added, report.updated, report.removed, report.unchanged], [0, 1, 1, 2]);
      assert.equal(edit.count(), report.embedded);
      assert.ok(
        report.embedded >= 1 && report.embedded < 3,
        `only the changed passages are embedded (${report.embedded})`,
      );
      const perDiem = (await store.search('per diem meals', 1, embedder)).passages[0].passage;
      assert.equal(perDiem.startLine, 9, 'line ranges follow the edit');
      assert.equal(
        (await store.search('passwords', 6, undefined)).passages.filter((p) => p.passage.source === 'security.md')
          .length,
        0,
      );
      assert.equal(store.status().documents, 3);
      assert.deepEqual(
        (await store.passages([lodgingId, 'nope'])).length,
        0,
        'the edited paragraph has a new id (its text changed)',
      );
    });

    it('two indexers at once end with one consistent index (advisory lock), every passage with a vector', async () => {
      const a = await openStore();
      const b = await openStore();
      const [ra, rb] = await Promise.all([
        a.update(folderDocSource(docs), { embedder }),
        b.update(folderDocSource(docs), { embedder }),
      ]);
      assert.equal(ra.documents, 4);
      assert.equal(rb.documents, 4);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const counts = (
        await client.query(
          'SELECT count(*)::int AS n, count(embedding)::int AS v, count(DISTINCT id)::int AS d FROM evident_passages',
        )
      ).rows[0];
      const docsRows = (await client.query('SELECT count(*)::int AS n FROM evident_documents')).rows[0];
      await client.end();
      // The counts (stems, BM25 terms) were kept once per passage, not once per indexer: they equal a recount.
      assertCountsExact(await countsAndRecounts(server.url));
      assert.equal(counts.n, counts.v, 'every passage has its vector');
      assert.equal(counts.n, counts.d);
      assert.equal(docsRows.n, 4);
      const c = await openStore();
      assert.equal(c.status().passages, counts.n);
      assert.deepEqual(
        (await c.search('annual plan refund', 6, embedder)).passages.map((p) => p.passage.id),
        (await a.search('annual plan refund', 6, embedder)).passages.map((p) => p.passage.id),
      );
    });

    it('a second client answers while an indexer runs: it sees the old index or the new, never half of one', async () => {
      const writer = await openStore();
      const reader = await openStore();
      await writer.update(folderDocSource(docs), { embedder });
      await writeDocs(docs, {
        'travel/lodging.md': '# Lodging\n\nHotel stays are reimbursed up to 210 dollars per night in large cities.\n',
      });
      for (let i = 0; i < 30; i++) {
        await writeDocs(docs, {
          [`more/policy-${i}.md`]: `# Policy ${i}\n\nRule ${i} applies to hotel stays in city ${i}.\n`,
        });
      }
      const indexing = writer.update(folderDocSource(docs), { embedder });
      const seen = new Set<number>();
      let done = false;
      void indexing.finally(() => (done = true));
      while (!done) {
        const hits = await reader.search('hotel stays dollars per night', 6, embedder);
        const lodging = hits.passages
          .filter((p) => p.passage.source === 'travel/lodging.md' && p.passage.text.startsWith('Hotel'))
          .map((p) => p.passage.text);
        assert.equal(lodging.length, 1, 'exactly one version of the lodging passage');
        seen.add(lodging[0].includes('210') ? 210 : 180);
      }
      await indexing;
      const after = await reader.search('hotel stays dollars per night', 6, embedder);
      assert.ok(after.passages.some((p) => p.passage.text.includes('210')));
      assert.ok(seen.size >= 1);
    });

    it('refuses a client with another embedding model, naming both and the way out', async () => {
      const store = await openStore();
      await store.update(folderDocSource(docs), { embedder });
      const other = renamed(embedder, 'Xenova/some-other-model');
      await assert.rejects(
        store.search('refunds', 6, other),
        (e: StoreError) =>
          e.code === 'model-mismatch' &&
          e.message.includes(`embedded with ${embedder.modelId}`) &&
          e.message.includes('Xenova/some-other-model') &&
          e.message.includes(`--embedding-model ${embedder.modelId}`),
      );
      await assert.rejects(
        store.update(folderDocSource(docs), { embedder: other }),
        (e: StoreError) => e.code === 'model-mismatch',
      );
      await assert.rejects(
        store.update(folderDocSource(docs), {}),
        (e: StoreError) => e.code === 'model-mismatch' && /needs that embedding model/.test(e.message),
      );
      // Nothing was changed by the refused runs.
      assert.equal((await store.search('refunds', 6, embedder)).passages.length > 0, true);
    });

    it('a connection lost mid-query is retried once on a new connection; a server that stays away gives a clear error', async () => {
      const proxy = await startTcpProxy('127.0.0.1', Number(new URL(server.url).port));
      try {
        const url = new URL(server.url);
        url.port = String(proxy.port);
        url.password = 'not-shown';
        const store = await openStore(url.toString());
        await store.update(folderDocSource(docs), { embedder });
        const expected = (await store.search('annual plan refund', 6, embedder)).passages.map((p) => p.passage.id);

        proxy.dropNext(1);
        const retried = await store.search('annual plan refund', 6, embedder);
        assert.deepEqual(
          retried.passages.map((p) => p.passage.id),
          expected,
          'the retry answers the same',
        );

        proxy.dropNext(Infinity);
        await assert.rejects(
          store.search('annual plan refund', 6, embedder),
          (e: StoreError) =>
            e.code === 'unreachable' &&
            /unreachable/.test(e.message) &&
            /try again/.test(e.message) &&
            !e.message.includes('not-shown'),
        );

        proxy.dropNext(0);
        assert.deepEqual(
          (await store.search('annual plan refund', 6, embedder)).passages.map((p) => p.passage.id),
          expected,
          'usable again once the server is back',
        );
      } finally {
        await proxy.stop();
      }
    });

    it('says which index answers without ever showing the password', () => {
      assert.equal(
        redactConnection('postgres://team:s3cret@db.example:5432/handbook'),
        'postgres://team@db.example:5432/handbook',
      );
      assert.equal(redactConnection('postgresql://db.example/handbook'), 'postgresql://db.example/handbook');
    });
  });
}
