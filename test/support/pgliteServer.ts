// A PostgreSQL server with pgvector for the shared-index tests: PGlite (PostgreSQL in
// WebAssembly) served on 127.0.0.1 by pglite-socket, spoken to by the plain `pg` client like
// any server, or a real PostgreSQL (realPostgres.ts: EVIDENT_TEST_PG_URL, or one started here).
// PGlite runs one query at a time; the socket server queues the others and keeps a
// transaction's statements together. On a real server each suite gets a fresh database.
// The store suites run on both (`TEST_SERVERS`).

import { randomBytes } from 'node:crypto';
import { realPostgresUrl } from './realPostgres';

/** The servers every shared-store suite runs on. */
export const TEST_SERVERS = ['pglite', 'postgres'] as const;
export type TestServerKind = (typeof TEST_SERVERS)[number];

export interface TestPostgres {
  url: string;
  /** Where the server is (for messages): pglite or the real server. */
  kind: 'pglite' | 'postgres';
  stop(): Promise<void>;
}

/**
 * `kind`: PGlite, or a real server (a fresh database on it); without it, EVIDENT_TEST_PG_URL when
 * set, else PGlite (the benchmarks). `dataDir`: a PGlite data folder on disk kept between runs
 * (the store profile reuses its index).
 */
export async function startTestPostgres(
  options: { dataDir?: string; kind?: TestServerKind } = {},
): Promise<TestPostgres> {
  if (options.kind === 'postgres') return freshDatabase(await realPostgresUrl());
  const external = options.kind === undefined ? process.env.EVIDENT_TEST_PG_URL : undefined;
  if (external) return freshDatabase(external);
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), extensions: { vector } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 32 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    kind: 'pglite',
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

/** Drops every table of the shared index, so the next open creates the store anew. */
export async function dropStoreTables(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      'DROP TABLE IF EXISTS evident_term_df, evident_stems, evident_terms, evident_passages, evident_documents, evident_store, evident_schema CASCADE',
    );
  } finally {
    await client.end();
  }
}

/** A new database on a real server (dropped on stop), so runs do not see each other's data. */
async function freshDatabase(adminUrl: string): Promise<TestPostgres> {
  const { default: pg } = await import('pg');
  const name = `evident_test_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: 'postgres',
    async stop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
