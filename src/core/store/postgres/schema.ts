// The shared index's schema, created and migrated by version. Each migration runs once, in
// order, inside one transaction holding an advisory lock, so two clients opening a new store at
// the same time do not both create it. A store written by a newer Evident is refused.

import type { PoolClient } from 'pg';
import { StoreError } from '../passageStore';

/** Advisory lock keys (one bigint each): schema migrations, and indexing runs' writes. */
export const MIGRATION_LOCK = 0x45766964656e7401n.toString();
export const WRITE_LOCK = 0x45766964656e7402n.toString();

const MIGRATIONS: string[] = [
  // 1: documents, passages with their vectors and weighted lengths, the BM25 term table
  // (weighted term frequencies, as the local lexical index keeps them), and the store's one row.
  `CREATE EXTENSION IF NOT EXISTS vector;
   CREATE TABLE evident_store (
     id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
     embedding_model text,
     dimensions int,
     format_version int NOT NULL,
     updated_at timestamptz,
     passages bigint NOT NULL DEFAULT 0,
     total_len double precision NOT NULL DEFAULT 0
   );
   CREATE TABLE evident_documents (
     path text PRIMARY KEY,
     version text NOT NULL,
     passages int NOT NULL,
     indexed_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE evident_passages (
     id text PRIMARY KEY,
     source text NOT NULL REFERENCES evident_documents(path) ON DELETE CASCADE,
     ord int NOT NULL,
     heading_path text[] NOT NULL,
     heading text NOT NULL,
     start_line int NOT NULL,
     end_line int NOT NULL,
     text text NOT NULL,
     version text NOT NULL,
     len real NOT NULL,
     embedding vector
   );
   CREATE INDEX evident_passages_source ON evident_passages (source);
   CREATE TABLE evident_terms (
     term text NOT NULL,
     passage_id text NOT NULL REFERENCES evident_passages(id) ON DELETE CASCADE,
     tf real NOT NULL,
     PRIMARY KEY (term, passage_id)
   );
   CREATE INDEX evident_terms_passage ON evident_terms (passage_id);`,
  // 2: the verifier's term statistics, kept at index time so a client reads only the counts of
  // the stems it needs (never every passage's text): each passage's stems, each stem's document
  // frequency, and the document count. Stems come from Evident's analysis, not SQL: a store
  // indexed before this version is re-chunked by the next index run and not answered from until then.
  `ALTER TABLE evident_passages ADD COLUMN stems text[] NOT NULL DEFAULT '{}';
   CREATE TABLE evident_stems (
     stem text PRIMARY KEY,
     df int NOT NULL
   );
   ALTER TABLE evident_store ADD COLUMN documents bigint NOT NULL DEFAULT 0;
   UPDATE evident_store SET format_version = 0, updated_at = NULL;`,
  // 3: BM25 without scanning the term table: each term's document frequency kept at index time
  // (like the stems'), each posting carrying its passage's weighted length (a passage id fixes its
  // text, so its length never changes), and the postings' key covering tf and length, so a query
  // reads only its terms' postings, in index order, and joins no passage. Migrated in place
  // (from the rows already there: no re-indexing, no re-embedding).
  `ALTER TABLE evident_terms ADD COLUMN len real;
   UPDATE evident_terms t SET len = p.len FROM evident_passages p WHERE p.id = t.passage_id;
   ALTER TABLE evident_terms ALTER COLUMN len SET NOT NULL;
   ALTER TABLE evident_terms DROP CONSTRAINT evident_terms_pkey;
   ALTER TABLE evident_terms ADD CONSTRAINT evident_terms_pkey PRIMARY KEY (term, passage_id) INCLUDE (tf, len);
   CREATE TABLE evident_term_df (
     term text PRIMARY KEY,
     df int NOT NULL
   );
   INSERT INTO evident_term_df (term, df) SELECT term, count(*) FROM evident_terms GROUP BY term;
   ANALYZE evident_terms;
   ANALYZE evident_term_df;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Creates or migrates the schema; returns the version found before (0 for a new store). */
export async function migrate(client: PoolClient, formatVersion: number): Promise<number> {
  // A store at the current version needs no lock and no CREATE right (a reader role has none).
  const exists = (await client.query<{ t: string | null }>("SELECT to_regclass('evident_schema')::text AS t")).rows[0]
    ?.t;
  if (exists) {
    const current =
      (await client.query<{ version: number }>('SELECT version FROM evident_schema')).rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) throw newerSchema(current);
    if (current === SCHEMA_VERSION) return current;
  }
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
    // Only a new store creates it (a reader migrating an older store fails below, with the way out).
    if (!exists) await client.query('CREATE TABLE IF NOT EXISTS evident_schema (version int NOT NULL)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM evident_schema');
    const found = rows[0]?.version ?? 0;
    if (found > SCHEMA_VERSION) throw newerSchema(found);
    for (let v = found; v < SCHEMA_VERSION; v++) {
      try {
        await client.query(MIGRATIONS[v]);
      } catch (error) {
        const message = (error as Error).message;
        // The server's error (pg's, not ours): its SQLSTATE code first, its words as the last resort.
        const denied =
          (error as { code?: string }).code === '42501' || /must be owner|permission denied/i.test(message);
        const hint =
          denied && found > 0
            ? ` The shared index is at schema version ${found} and this Evident needs ${SCHEMA_VERSION}: migrating it needs the role that owns its tables. Run "evident index --store …" once as that role (the indexing job); nothing was changed.`
            : /extension "vector"|vector/.test(message)
              ? ' The server needs the pgvector extension (CREATE EXTENSION vector, by a database owner).'
              : '';
        throw new StoreError(
          `Could not ${found > 0 ? 'migrate' : 'create'} the shared index's schema (version ${v + 1}): ${message}.${hint}`,
          'setup',
        );
      }
    }
    if (found === 0) {
      await client.query('INSERT INTO evident_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
      await client.query('INSERT INTO evident_store (id, format_version) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [
        formatVersion,
      ]);
    } else if (found < SCHEMA_VERSION) {
      await client.query('UPDATE evident_schema SET version = $1', [SCHEMA_VERSION]);
    }
    await client.query('COMMIT');
    return found;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

function newerSchema(found: number): StoreError {
  return new StoreError(
    `The shared index uses schema version ${found}; this Evident knows up to ${SCHEMA_VERSION}. Update Evident to use it.`,
    'schema-newer',
  );
}
