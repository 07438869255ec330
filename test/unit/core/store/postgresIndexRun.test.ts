// An indexing run into the shared index, where it used to go wrong: two indexers over different
// trees (the last to commit applies its whole tree), a text the embedding model turns into NaN,
// the connection lost during the VACUUM after the commit, and a role that may only read. On
// PGlite and on a real PostgreSQL (roles are enforced only there).

import { strict as assert } from 'node:assert';
import pg from 'pg';
import { folderDocSource } from '../../../../src/core/docs/docSource';
import { StoreError } from '../../../../src/core/store/passageStore';
import { PostgresPassageStore } from '../../../../src/core/store/postgres/postgresPassageStore';
import type { Embedder } from '../../../../src/core/types';
import { dropStoreTables, startTestPostgres, TEST_SERVERS, type TestPostgres } from '../../../support/pgliteServer';
import { startTcpProxy } from '../../../support/tcpProxy';
import { loadTinyEmbedder } from '../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

/** Zero-width spaces: the tiny generated model (a real transformers.js pipeline) embeds them as NaN. */
const ZERO_WIDTH = '\u200b\u200b\u200b';

async function sql<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
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
  describe(`shared index runs: concurrent trees, NaN vectors, a lost VACUUM, a read-only role (${kind === 'pglite' ? 'PGlite server on 127.0.0.1' : 'a real PostgreSQL'})`, function () {
    this.timeout(180_000);
    let server: TestPostgres;
    let embedder: Embedder;
    const open: PostgresPassageStore[] = [];
    const dirs: string[] = [];

    const openStore = async (url = server.url) => {
      const store = await PostgresPassageStore.open({ connectionString: url, connectTimeoutMs: 5000 });
      open.push(store);
      return store;
    };
    const tree = async (files: Record<string, string>) => {
      const dir = await tempDir();
      dirs.push(dir);
      await writeDocs(dir, files);
      return dir;
    };
    const documents = async () =>
      (
        await sql<{ path: string; version: string }>(
          server.url,
          'SELECT path, version FROM evident_documents ORDER BY path',
        )
      ).map((r) => r.path);

    before(async () => {
      server = await startTestPostgres({ kind });
      embedder = await loadTinyEmbedder();
    });
    after(async () => server?.stop());
    beforeEach(async () => dropStoreTables(server.url));
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close().catch(() => {});
      for (const d of dirs.splice(0)) await removeDir(d);
    });

    it('the last indexer to commit applies its whole tree, also the files it found unchanged before the other committed', async () => {
      const treeA = await tree({
        'refunds.md': '# Refunds\n\nAnnual plans are refundable within 90 days.\n',
        'only-a.md': '# A\n\nOnly tree A has this.\n',
      });
      const treeB = await tree({
        'refunds.md': '# Refunds\n\nAnnual plans are refundable within 30 days.\n',
        'only-b.md': '# B\n\nOnly tree B has this.\n',
      });
      const a = await openStore();
      const b = await openStore();
      await a.update(folderDocSource(treeA), { embedder });
      // A reads its tree (refunds.md unchanged in the store), then B indexes its own tree and
      // commits, then A commits: A's tree is what the store must hold.
      await writeDocs(treeA, { 'new-a.md': '# New\n\nA new file of tree A.\n' });
      let bDone = false;
      const waitsForB: Embedder = {
        modelId: embedder.modelId,
        dimensions: embedder.dimensions,
        embed: async (texts, signal) => {
          if (!bDone) {
            bDone = true;
            await b.update(folderDocSource(treeB), { embedder });
          }
          return embedder.embed(texts, signal);
        },
      };
      await a.update(folderDocSource(treeA), { embedder: waitsForB });
      assert.ok(bDone);
      assert.deepEqual(await documents(), ['new-a.md', 'only-a.md', 'refunds.md']);
      const refund = await a.search('annual plans refundable days', 1, embedder);
      assert.match(refund.passages[0].passage.text, /90 days/, "tree A's refunds.md");
      const counts = (
        await sql<{ n: number; v: number }>(
          server.url,
          'SELECT count(*)::int AS n, count(embedding)::int AS v FROM evident_passages',
        )
      )[0];
      assert.equal(counts.n, counts.v, 'every passage has its vector');
    });

    it('copes with a text the model embeds as NaN: the passage is kept without a vector, and such a question searches by words', async () => {
      const docs = await tree({
        'refunds.md': '# Refunds\n\nAnnual plans are refundable within 90 days.\n',
        'blank.md': `${ZERO_WIDTH}\n`,
      });
      const store = await openStore();
      const report = await store.update(folderDocSource(docs), { embedder });
      assert.equal(report.documents, 2);
      assert.match(report.notices.map((n) => n.text).join(' '), /1 passage has no vector/);
      const rows = await sql<{ text: string; has: boolean }>(
        server.url,
        'SELECT text, embedding IS NOT NULL AS has FROM evident_passages ORDER BY text',
      );
      assert.equal(rows.length, 2);
      assert.ok(
        rows.every((r) => r.has === !r.text.includes(ZERO_WIDTH)),
        'only the zero-width passage is without a vector',
      );
      const found = await store.search(ZERO_WIDTH, 6, embedder);
      assert.equal(found.mode, 'lexical', 'a question the model cannot embed is searched by words');
      assert.ok((await store.search('annual plans refundable', 6, embedder)).passages.length > 0);
      const again = await store.update(folderDocSource(docs), { embedder });
      assert.equal(again.unchanged, 2);
    });

    it('reports done, with a warning, when the connection is lost during the VACUUM after the commit', async () => {
      const docs = await tree({
        'refunds.md': '# Refunds\n\nAnnual plans are refundable within 90 days.\n',
        'travel.md': '# Travel\n\nEconomy class for short flights.\n',
      });
      const proxy = await startTcpProxy('127.0.0.1', Number(new URL(server.url).port));
      try {
        const url = new URL(server.url);
        url.port = String(proxy.port);
        const store = await openStore(url.toString());
        const report = await store.update(folderDocSource(docs), {
          embedder,
          // Committed: from here every statement's connection is cut (the VACUUM's first).
          onProgress: (p) => void (p.phase === 'saving' && p.done === 1 && p.total === 2 && proxy.dropNext(Infinity)),
        });
        assert.equal(report.documents, 2);
        assert.equal(report.added, 2);
        assert.match(
          report.notices.map((n) => n.text).join(' '),
          /The shared index is written, but VACUUM \(ANALYZE\) failed/,
        );
        proxy.dropNext(0);
      } finally {
        await proxy.stop();
      }
      const check = await openStore();
      assert.equal(check.status().documents, 2, 'the run was committed');
    });

    it('a role that may only read: a run with nothing to change writes nothing and succeeds; a run with a change names the missing privileges before embedding', async function () {
      if (kind === 'pglite') this.skip(); // PGlite has one superuser session: roles are not enforced there
      const docs = await tree({ 'refunds.md': '# Refunds\n\nAnnual plans are refundable within 90 days.\n' });
      const writer = await openStore();
      await writer.update(folderDocSource(docs), { embedder });
      const before = await sql(server.url, 'SELECT updated_at, passages FROM evident_store');
      await sql(server.url, 'DROP ROLE IF EXISTS evident_test_reader');
      await sql(server.url, "CREATE ROLE evident_test_reader LOGIN PASSWORD 'reader'");
      await sql(server.url, 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO evident_test_reader');
      await sql(server.url, 'REVOKE CREATE ON SCHEMA public FROM evident_test_reader');
      const url = new URL(server.url);
      url.username = 'evident_test_reader';
      url.password = 'reader';
      const reader = await openStore(url.toString());
      const unchanged = await reader.update(folderDocSource(docs), { embedder });
      assert.equal(unchanged.unchanged, 1);
      assert.deepEqual(
        await sql(server.url, 'SELECT updated_at, passages FROM evident_store'),
        before,
        'nothing written',
      );

      await writeDocs(docs, { 'travel.md': '# Travel\n\nEconomy class for short flights.\n' });
      const counted = counting(embedder);
      await assert.rejects(reader.update(folderDocSource(docs), { embedder: counted }), (e: StoreError) => {
        assert.equal(e.code, 'permission', e.message);
        assert.match(e.message, /evident_test_reader may not write the shared index/);
        assert.match(e.message, /INSERT, UPDATE, DELETE on evident_documents/);
        assert.match(e.message, /Nothing was changed/);
        assert.doesNotMatch(e.message, /^permission denied/);
        return true;
      });
      assert.equal(counted.count(), 0, 'refused before embedding anything');
      assert.deepEqual(await documents(), ['refunds.md']);
    });
  });
}
