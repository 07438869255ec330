import { strict as assert } from 'node:assert';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../../support/cli';
import { dropStoreTables, startTestPostgres, TEST_SERVERS, type TestPostgres } from '../../../support/pgliteServer';
import { tinyEmbeddingModelDir } from '../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

const DOCS = {
  'refunds.md': '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n',
  'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
};

for (const kind of TEST_SERVERS) {
  describe(`evident index/ask --store: a shared index (real pg client, ${kind === 'pglite' ? 'PGlite server on 127.0.0.1' : 'a real PostgreSQL'})`, function () {
    this.timeout(120_000);
    let server: TestPostgres;
    let docs: string;
    let cache: string;
    let model: string;

    before(async () => {
      server = await startTestPostgres({ kind });
      model = await tinyEmbeddingModelDir();
    });
    after(async () => server?.stop());
    beforeEach(async () => {
      await dropStoreTables(server.url);
      docs = await tempDir();
      cache = await tempDir('evident-cache-');
      await writeDocs(docs, DOCS);
    });
    afterEach(async () => {
      await removeDir(docs);
      await removeDir(cache);
    });

    it('indexes into the store once, then answers from it with no local index; with --docs each evidence says where its file is', async () => {
      const env = { XDG_CACHE_HOME: cache };
      const indexed = await runCli(
        ['index', '--docs', docs, '--store', server.url, '--embedding-model', model, '--offline'],
        env,
      );
      assert.equal(indexed.code, 0, indexed.stderr);
      assert.match(indexed.stdout, /Indexed 2 documents, 2 passages into the shared index postgres:\/\/.* \(hybrid\)/);

      const again = await runCli(
        ['index', '--docs', docs, '--store', server.url, '--embedding-model', model, '--offline', '--json'],
        env,
      );
      assert.equal(JSON.parse(again.stdout).unchanged, 2);

      const asked = await runCli(
        [
          'ask',
          '--store',
          server.url,
          '--embedding-model',
          model,
          '--offline',
          '--json',
          '--question',
          'Are annual plans refundable?',
        ],
        env,
      );
      assert.equal(asked.code, 0, asked.stderr);
      const result = JSON.parse(asked.stdout);
      assert.equal(result.retrieval, 'hybrid');
      assert.equal(result.abstained, false);
      assert.equal(result.evidence[0].source, 'refunds.md');
      assert.equal(result.evidence[0].file, undefined, 'without --docs there is no file to point at');
      const logs = (await readdir(path.join(cache, 'evident', 'stores'), { recursive: true })).filter((f) =>
        String(f).endsWith('metrics.jsonl'),
      );
      assert.equal(logs.length, 1);
      const metrics = JSON.parse(
        (await readFile(path.join(cache, 'evident', 'stores', String(logs[0])), 'utf8')).trim().split('\n').pop()!,
      );
      assert.match(
        metrics.indexVersion,
        /@2 \(shared index postgres:\/\/[^:@/]+@[^)]+\)$/,
        'the metrics line names the index that answered',
      );

      await writeFile(path.join(docs, 'refunds.md'), `${DOCS['refunds.md']}\nEdited locally.\n`);
      const withDocs = await runCli(
        [
          'ask',
          '--store',
          server.url,
          '--docs',
          docs,
          '--embedding-model',
          model,
          '--offline',
          '--json',
          '--question',
          'Are annual plans refundable?',
        ],
        env,
      );
      const ev = JSON.parse(withDocs.stdout).evidence.find((e: { source: string }) => e.source === 'refunds.md');
      assert.equal(ev.file, path.join(docs, 'refunds.md'));
      assert.equal(ev.fileVersion, 'changed', 'the local file no longer has the cited version');
    });

    it('keeps the logs of ask --store in a folder of that store (not of the current directory), read by metrics --store', async () => {
      const env = { XDG_CACHE_HOME: cache };
      assert.equal((await runCli(['index', '--docs', docs, '--store', server.url, '--no-embeddings'], env)).code, 0);
      const question = ['--no-embeddings', '--json', '--question', 'Are annual plans refundable?'];
      const here = await tempDir('evident-cwd-');
      try {
        const withPassword = new URL(server.url);
        withPassword.password = 'not-in-the-folder-name';
        const fromHere = await runCli(['ask', '--store', server.url, ...question], env, { cwd: here });
        const fromDocs = await runCli(['ask', '--store', withPassword.toString(), ...question], env, { cwd: docs });
        assert.equal(fromHere.code, 0, fromHere.stderr);
        assert.equal(fromDocs.code, 0, fromDocs.stderr);
        const stores = await readdir(path.join(cache, 'evident', 'stores'));
        assert.equal(
          stores.length,
          1,
          `one log folder for the store, whatever the directory and password: ${stores.join(', ')}`,
        );
        assert.ok(!stores[0].includes('not-in-the-folder-name'));
        assert.deepEqual(
          await readdir(path.join(cache, 'evident')).then((d) => d.filter((x) => x === 'indexes')),
          [],
          'no folder named after a working directory',
        );
        const report = await runCli(['metrics', '--store', server.url, '--json'], env, { cwd: here });
        assert.equal(report.code, 0, report.stderr);
        assert.equal(JSON.parse(report.stdout).turns, 2);
      } finally {
        await removeDir(here);
      }
    });

    it('refuses another embedding model and a never-indexed store with a clear message and exit 1', async () => {
      const never = await runCli(
        ['ask', '--store', server.url, '--no-embeddings', '--question', 'Are annual plans refundable?'],
        { XDG_CACHE_HOME: cache },
      );
      assert.equal(never.code, 1);
      assert.match(never.stderr, /has never been indexed\. Run "evident index --docs DIR --store/);

      await runCli(['index', '--docs', docs, '--store', server.url, '--embedding-model', model, '--offline'], {
        XDG_CACHE_HOME: cache,
      });
      const other = await runCli(['index', '--docs', docs, '--store', server.url, '--no-embeddings'], {
        XDG_CACHE_HOME: cache,
      });
      assert.equal(other.code, 1);
      assert.match(other.stderr, /holds vectors of .*evident-tiny-embedding.*needs that embedding model/);
    });

    it('refuses a --store that is not a postgres:// URL, without echoing a password', async () => {
      const bad = await runCli(['ask', '--store', 'mysql://u:hunter2@h/db', '--question', 'x'], {
        XDG_CACHE_HOME: cache,
      });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--store must be a postgres:\/\//);
      assert.doesNotMatch(bad.stderr, /hunter2/);
    });
  });
}
