// One indexing run into the shared index (`evident index --store`), in phases: list the tree and
// read it (a file whose content hash is stored is not chunked), decide whether anything is to be
// written (a run with nothing to change writes nothing, so a role that may only read can run it),
// check the role may write (before any embedding), embed the new passages outside any lock, then
// one transaction under the advisory write lock. Under the lock the run re-checks its whole tree
// against what the store holds now (another indexer may have committed since it read), so the
// last indexer to commit leaves exactly its tree. After the commit, VACUUM (ANALYZE) tidies; a
// failure there (even a lost server) is a warning: the run is done. A text the embedding model
// turns into a non-finite vector keeps its passage without a vector (found by words only).

import type { Passage } from '../../../domain/types';
import { notice } from '../../../domain/notices';
import { chunkMarkdown } from '../../docs/chunker';
import { documentVersion } from '../../docs/version';
import { readDocumentText, type DocFile, type DocSource } from '../../docs/docSource';
import { listFiles, readOrSkip, type ChangedDocument as ChangeSetDocument } from '../../indexing/changeSet';
import {
  embeddingText,
  emptyReport,
  INDEX_FORMAT_VERSION,
  termText,
  type IndexReport,
  type IndexRunOptions,
} from '../../indexing/indexRun';
import { passageTermWeights } from '../../retrieval/lexicalIndex';
import type { Embedder } from '../../types';
import { stemsOf } from '../../text/termStats';
import { StoreError, type StoreStatus } from '../passageStore';
import { WRITE_LOCK } from './schema';
import { finiteVector, PASSAGE_COLUMNS, toPassage, vectorSql, type PassageRow } from './storeRows';
import type { PoolClient } from 'pg';

/** What a run needs of the store: its statements, a connection for the transaction, its errors. */
export interface StoreConnection {
  readonly where: string;
  query<T>(sql: string, params: unknown[]): Promise<T[]>;
  withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  modelMismatch(stored: string, mine: string): StoreError;
}

interface StoreRow {
  embedding_model: string | null;
  format_version: number;
}

/** A document this run writes: the change set's, without the file stamp (the shared index keeps content versions only). */
type ChangedDocument = Pick<ChangeSetDocument, 'version' | 'passages'>;

const WRITE_BATCH = 500;
const EMBED_BATCH = 32;

/** The privileges a run that writes needs, per table. */
const WRITE_PRIVILEGES: [string, string[]][] = [
  ['evident_documents', ['INSERT', 'UPDATE', 'DELETE']],
  ['evident_passages', ['INSERT', 'UPDATE', 'DELETE']],
  ['evident_terms', ['INSERT', 'DELETE']],
  ['evident_term_df', ['INSERT', 'UPDATE', 'DELETE']],
  ['evident_stems', ['INSERT', 'UPDATE', 'DELETE']],
  ['evident_store', ['UPDATE']],
];

export async function indexIntoStore(
  db: StoreConnection,
  docs: DocSource,
  options: IndexRunOptions = {},
): Promise<{ report: IndexReport; state: StoreStatus }> {
  const started = Date.now();
  const { signal, onProgress, embedder } = options;
  const report = emptyReport(embedder ? 'hybrid' : 'lexical');
  const store = (await db.query<StoreRow>('SELECT embedding_model, format_version FROM evident_store', []))[0];
  if (embedder && store.embedding_model !== null && store.embedding_model !== embedder.modelId) {
    throw db.modelMismatch(store.embedding_model, embedder.modelId);
  }
  if (!embedder && store.embedding_model !== null) {
    throw new StoreError(
      `The shared index at ${db.where} holds vectors of ${store.embedding_model}; indexing it needs that embedding model (this run has none). Use --embedding-model ${store.embedding_model}.`,
      'model-mismatch',
    );
  }
  const rechunkAll = store.format_version !== INDEX_FORMAT_VERSION;
  if (rechunkAll) {
    report.notices.push(
      notice(
        'index-format-changed',
        `The shared index was chunked by index format ${store.format_version}; this version uses ${INDEX_FORMAT_VERSION}: re-chunking every document.`,
      ),
    );
  }

  // Phases 1–3: list and read the tree; what the store holds at the same content hash is not chunked.
  const files = await listFiles(docs, report, options);
  const known = new Map(
    (await db.query<{ path: string; version: string }>('SELECT path, version FROM evident_documents', [])).map((r) => [
      r.path,
      r.version,
    ]),
  );
  const tree = new Map<string, string>();
  const changed = new Map<string, ChangedDocument>();
  const unindexable = new Set<string>();
  for (let i = 0; i < files.length; i++) {
    signal?.throwIfAborted();
    const file = files[i];
    onProgress?.({ phase: 'reading', done: i, total: files.length, file: file.path });
    const text = await readOrSkip(docs, file, report);
    if (text === undefined) {
      unindexable.add(file.path);
      continue;
    }
    const version = documentVersion(text);
    tree.set(file.path, version);
    if (!rechunkAll && known.get(file.path) === version) continue;
    changed.set(file.path, { version, passages: chunkMarkdown(file.path, text).passages });
  }
  onProgress?.({ phase: 'reading', done: files.length, total: files.length });
  const leaving = (inStore: Iterable<string>) =>
    [...inStore].filter((p) => (options.paths ? options.paths.includes(p) : true) && !tree.has(p));
  // Stored passages without a vector (another indexer's model binding, or a text the model cannot embed).
  const vectors = new Map<string, Float32Array>();
  const unembeddable = new Set<string>();
  if (embedder) await embedInto(vectors, unembeddable, await passagesWithoutVector(db), embedder, signal);

  // Nothing to change: nothing is written (not even the store's time), so a reader role can run it.
  if (
    !rechunkAll &&
    changed.size === 0 &&
    leaving(known.keys()).length === 0 &&
    (!embedder || store.embedding_model !== null) &&
    vectors.size === 0
  ) {
    report.unchanged = tree.size;
    return finish(db, report, started, undefined, options);
  }
  await assertMayWrite(db);

  // Phase 4: embed the new passages whose id has no vector in the store yet (outside any lock).
  const stored = (sql: string, params: unknown[]) => db.query<{ id: string }>(sql, params);
  if (embedder) {
    const newPassages = [...changed.values()].flatMap((d) => d.passages);
    const have = await idsWithVector(
      stored,
      newPassages.map((p) => p.id),
    );
    await embedInto(
      vectors,
      unembeddable,
      newPassages.filter((p) => !have.has(p.id)),
      embedder,
      signal,
      onProgress,
    );
  }
  signal?.throwIfAborted();

  // Phase 5: one transaction under the write lock, re-checking the whole tree against the store now.
  onProgress?.({ phase: 'saving', done: 0, total: 2 });
  const state = await db.withClient(async (client) => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [WRITE_LOCK]);
      const current = (await client.query<StoreRow>('SELECT embedding_model, format_version FROM evident_store'))
        .rows[0];
      if (embedder) {
        if (current.embedding_model === null) await bindModel(client, embedder);
        else if (current.embedding_model !== embedder.modelId) {
          throw db.modelMismatch(current.embedding_model, embedder.modelId);
        }
      }
      if (rechunkAll) {
        await client.query('DELETE FROM evident_documents');
        await client.query('DELETE FROM evident_stems');
        await client.query('DELETE FROM evident_term_df');
        await client.query('UPDATE evident_store SET format_version = $1', [INDEX_FORMAT_VERSION]);
      }
      const now = new Map(
        (await client.query<{ path: string; version: string }>('SELECT path, version FROM evident_documents')).rows.map(
          (r) => [r.path, r.version],
        ),
      );
      const removed = [...new Set([...leaving(now.keys()), ...[...unindexable].filter((p) => now.has(p))])];
      if (removed.length) {
        await uncount(client, 'source = ANY($1::text[])', [removed]);
        await client.query('DELETE FROM evident_documents WHERE path = ANY($1::text[])', [removed]);
      }
      report.removed = removed.length;
      // Files this run found unchanged that another indexer replaced since: this run's version goes back.
      for (const [p, version] of tree) {
        if (changed.has(p) || now.get(p) === version) continue;
        const again = await readAgain(
          docs,
          files.find((f) => f.path === p),
        );
        if (again) changed.set(p, again);
      }
      const toWrite = [...changed.entries()].filter(([p, d]) => now.get(p) !== d.version);
      for (const [p] of toWrite) {
        if (known.has(p)) report.updated++;
        else report.added++;
      }
      report.unchanged = tree.size - toWrite.length;
      if (embedder) {
        // Passages written in this transaction that have no vector yet (re-checked files).
        const pending = toWrite
          .flatMap(([, d]) => d.passages)
          .filter((x) => !vectors.has(x.id) && !unembeddable.has(x.id));
        const have = await idsWithVector(
          async (sql, params) => (await client.query<{ id: string }>(sql, params)).rows,
          pending.map((x) => x.id),
        );
        await embedInto(
          vectors,
          unembeddable,
          pending.filter((x) => !have.has(x.id)),
          embedder,
          signal,
        );
      }
      await writeDocuments(client, toWrite, vectors);
      if (embedder) {
        // A reused passage whose vector another indexer removed meanwhile: embed it now.
        const missing = (
          await client.query<PassageRow>(`SELECT ${PASSAGE_COLUMNS} FROM evident_passages WHERE embedding IS NULL`)
        ).rows
          .map(toPassage)
          .filter((x) => !unembeddable.has(x.id) && !vectors.has(x.id));
        const late = new Map<string, Float32Array>();
        await embedInto(late, unembeddable, missing, embedder, signal);
        for (const [id, v] of late) vectors.set(id, v);
        // Every vector of this run on a passage that has none (those written above have theirs).
        const withoutVector = new Set(
          (
            await client.query<{ id: string }>(
              'SELECT id FROM evident_passages WHERE embedding IS NULL AND id = ANY($1::text[])',
              [[...vectors.keys()]],
            )
          ).rows.map((r) => r.id),
        );
        await setVectors(client, new Map([...vectors].filter(([id]) => withoutVector.has(id))));
      }
      await client.query('DELETE FROM evident_stems WHERE df <= 0');
      await client.query('DELETE FROM evident_term_df WHERE df <= 0');
      const counts = (
        await client.query<{
          passages: string;
          documents: string;
          embedding_model: string | null;
        }>(`UPDATE evident_store SET updated_at = now(),
        passages = (SELECT count(*) FROM evident_passages),
        documents = (SELECT count(*) FROM evident_documents),
        total_len = (SELECT coalesce(sum(len::float8), 0) FROM evident_passages)
        RETURNING passages, documents, embedding_model`)
      ).rows[0];
      signal?.throwIfAborted();
      await client.query('COMMIT');
      return {
        indexed: true,
        documents: Number(counts.documents),
        passages: Number(counts.passages),
        embeddingModel: counts.embedding_model,
      } satisfies StoreStatus;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      if ((error as { code?: string }).code === '42501') throw await permissionDenied(db, error as Error);
      throw error;
    }
  });
  report.embedded = vectors.size;
  if (unembeddable.size) {
    report.notices.push(
      notice(
        'passages-without-vector',
        `${unembeddable.size} passage${unembeddable.size === 1 ? ' has' : 's have'} no vector: the embedding model gave no usable vector for ${unembeddable.size === 1 ? 'its' : 'their'} text (e.g. only zero-width or control characters); found by words only.`,
      ),
    );
  }
  onProgress?.({ phase: 'saving', done: 1, total: 2 });
  await tidy(db, report);
  return finish(db, report, started, state, options);
}

/** The report's totals: from the committed transaction, else read (a run that wrote nothing). */
async function finish(
  db: StoreConnection,
  report: IndexReport,
  started: number,
  state: StoreStatus | undefined,
  { onProgress }: IndexRunOptions,
): Promise<{ report: IndexReport; state: StoreStatus }> {
  const known = state ?? (await readStatus(db));
  onProgress?.({ phase: 'saving', done: 2, total: 2 });
  report.documents = known.documents;
  report.passages = known.passages;
  report.retrieval = known.embeddingModel ? 'hybrid' : 'lexical';
  report.ms = Date.now() - started;
  return { report, state: known };
}

export async function readStatus(db: Pick<StoreConnection, 'query'>): Promise<StoreStatus> {
  const row = (
    await db.query<{ embedding_model: string | null; updated_at: Date | null; passages: string; documents: string }>(
      'SELECT embedding_model, updated_at, passages, documents FROM evident_store',
      [],
    )
  )[0];
  return {
    indexed: Boolean(row?.updated_at),
    documents: Number(row?.documents ?? 0),
    passages: Number(row?.passages ?? 0),
    embeddingModel: row?.embedding_model ?? null,
  };
}

/**
 * After a commit: the planner's statistics and the visibility map that lets a query read a term's
 * postings from the index alone (no heap visit per posting), and the old row versions of updated
 * passages gone. A server's autovacuum does this later; PGlite has none. VACUUM cannot run in the
 * write's transaction; it runs beside readers without blocking them. A failure (a lost server
 * too) leaves the index as written, only slower until the server vacuums: a warning.
 */
async function tidy(db: StoreConnection, report: IndexReport): Promise<void> {
  try {
    await db.withClient((client) =>
      client.query(
        'VACUUM (ANALYZE) evident_terms, evident_term_df, evident_passages, evident_stems, evident_documents, evident_store',
      ),
    );
  } catch (error) {
    report.notices.push(
      notice(
        'shared-index-maintenance-failed',
        `The shared index is written, but VACUUM (ANALYZE) failed (${(error as Error).message}): searches may be slower until the server's autovacuum runs.`,
      ),
    );
  }
}

/** Refuses a run that must write with a role that may not, naming what it lacks (before any embedding). */
async function assertMayWrite(db: StoreConnection): Promise<void> {
  const pairs = WRITE_PRIVILEGES.flatMap(([table, privileges]) => privileges.map((privilege) => [table, privilege]));
  const rows = await db.query<{ t: string; p: string; role: string }>(
    'SELECT u.t, u.p, current_user AS role FROM unnest($1::text[], $2::text[]) AS u(t, p) WHERE NOT has_table_privilege(u.t, u.p)',
    [pairs.map(([t]) => t), pairs.map(([, p]) => p)],
  );
  if (!rows.length) return;
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.t, [...(byTable.get(r.t) ?? []), r.p]);
  const lacks = [...byTable].map(([t, ps]) => `${ps.join(', ')} on ${t}`).join('; ');
  throw new StoreError(
    `The role ${rows[0].role} may not write the shared index at ${db.where}: it lacks ${lacks}. Run "evident index --store" as the role that owns the index (its indexing job), or grant these to ${rows[0].role}. Nothing was changed.`,
    'permission',
  );
}

/** A write refused by PostgreSQL for want of a privilege (e.g. binding the vector column needs the table's owner). */
async function permissionDenied(db: StoreConnection, error: Error): Promise<StoreError> {
  const role =
    (await db.query<{ role: string }>('SELECT current_user AS role', []).catch(() => []))[0]?.role ?? 'this role';
  return new StoreError(
    `The role ${role} may not write the shared index at ${db.where} (PostgreSQL: ${error.message}). Run "evident index --store" as the role that owns the index (its indexing job). Nothing was changed.`,
    'permission',
  );
}

async function passagesWithoutVector(db: Pick<StoreConnection, 'query'>): Promise<Passage[]> {
  return (
    await db.query<PassageRow>(`SELECT ${PASSAGE_COLUMNS} FROM evident_passages WHERE embedding IS NULL LIMIT 1000`, [])
  ).map(toPassage);
}

async function idsWithVector(
  query: (sql: string, params: unknown[]) => Promise<{ id: string }[]>,
  ids: string[],
): Promise<Set<string>> {
  const have = new Set<string>();
  for (let i = 0; i < ids.length; i += 5000) {
    for (const r of await query(
      'SELECT id FROM evident_passages WHERE id = ANY($1::text[]) AND embedding IS NOT NULL',
      [ids.slice(i, i + 5000)],
    )) {
      have.add(r.id);
    }
  }
  return have;
}

/** A file of the tree read again under the lock (another indexer replaced its stored version). */
async function readAgain(docs: DocSource, file: DocFile | undefined): Promise<ChangedDocument | undefined> {
  if (!file) return undefined;
  const decoded = await readDocumentText(docs, file);
  if (!decoded.ok) return undefined;
  return { version: documentVersion(decoded.text), passages: chunkMarkdown(file.path, decoded.text).passages };
}

/** Embeds `passages` into `out`; a non-finite vector (NaN from an empty-looking text) goes to `unembeddable` instead. */
async function embedInto(
  out: Map<string, Float32Array>,
  unembeddable: Set<string>,
  passages: Passage[],
  embedder: Embedder,
  signal?: AbortSignal,
  onProgress?: IndexRunOptions['onProgress'],
): Promise<void> {
  for (let i = 0; i < passages.length; i += EMBED_BATCH) {
    signal?.throwIfAborted();
    onProgress?.({ phase: 'embedding', done: i, total: passages.length });
    const batch = passages.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map(embeddingText), signal);
    batch.forEach((p, j) => {
      if (finiteVector(vectors[j])) out.set(p.id, vectors[j]);
      else unembeddable.add(p.id);
    });
  }
  if (onProgress) onProgress({ phase: 'embedding', done: passages.length, total: passages.length });
}

/** The first vectors fix the column's dimensions and build the HNSW index (cosine). */
async function bindModel(client: PoolClient, embedder: Embedder): Promise<void> {
  const dims = Math.trunc(embedder.dimensions);
  await client.query('UPDATE evident_passages SET embedding = NULL');
  await client.query(`ALTER TABLE evident_passages ALTER COLUMN embedding TYPE vector(${dims})`);
  await client.query(
    'CREATE INDEX IF NOT EXISTS evident_passages_embedding ON evident_passages USING hnsw (embedding vector_cosine_ops)',
  );
  await client.query('UPDATE evident_store SET embedding_model = $1, dimensions = $2', [embedder.modelId, dims]);
}

async function writeDocuments(
  client: PoolClient,
  entries: [string, ChangedDocument][],
  vectors: Map<string, Float32Array>,
): Promise<void> {
  // In batches of documents: upsert them, then drop their passages that are gone (ids carry the source).
  for (let i = 0; i < entries.length; i += WRITE_BATCH) {
    const batch = entries.slice(i, i + WRITE_BATCH);
    await client.query(
      `INSERT INTO evident_documents (path, version, passages, indexed_at)
       SELECT path, version, passages, now() FROM unnest($1::text[], $2::text[], $3::int[]) AS u(path, version, passages)
       ON CONFLICT (path) DO UPDATE SET version = EXCLUDED.version, passages = EXCLUDED.passages, indexed_at = now()`,
      [batch.map(([p]) => p), batch.map(([, d]) => d.version), batch.map(([, d]) => d.passages.length)],
    );
    const gone = 'source = ANY($1::text[]) AND NOT (id = ANY($2::text[]))';
    const params = [batch.map(([p]) => p), batch.flatMap(([, d]) => d.passages.map((x) => x.id))];
    await uncount(client, gone, params);
    await client.query(`DELETE FROM evident_passages WHERE ${gone}`, params);
  }
  const all = entries.flatMap(([, d]) => d.passages.map((passage, ord) => ({ passage, ord })));
  for (let i = 0; i < all.length; i += WRITE_BATCH) {
    await insertPassages(client, all.slice(i, i + WRITE_BATCH), vectors);
  }
}

async function insertPassages(
  client: PoolClient,
  rows: { passage: Passage; ord: number }[],
  vectors: Map<string, Float32Array>,
): Promise<void> {
  if (!rows.length) return;
  const col = <T>(f: (r: { passage: Passage; ord: number }) => T): T[] => rows.map(f);
  const analysed = rows.map(({ passage }) => passageTermWeights(passage));
  const stems = rows.map(({ passage }) => JSON.stringify([...stemsOf(termText(passage))]));
  // The verifier's document frequencies count each new passage once (a kept id is counted already).
  await client.query(
    `INSERT INTO evident_stems (stem, df)
     SELECT e.stem, count(*) FROM unnest($1::text[], $2::text[]) AS u(id, st)
       CROSS JOIN LATERAL json_array_elements_text(u.st::json) AS e(stem)
     WHERE NOT EXISTS (SELECT 1 FROM evident_passages p WHERE p.id = u.id)
     GROUP BY e.stem
     ON CONFLICT (stem) DO UPDATE SET df = evident_stems.df + EXCLUDED.df`,
    [col((r) => r.passage.id), stems],
  );
  await client.query(
    `INSERT INTO evident_passages (id, source, ord, heading_path, heading, start_line, end_line, text, version, len, embedding, stems)
     SELECT id, source, ord, ARRAY(SELECT json_array_elements_text(hp::json)), heading, start_line, end_line, text, version, len, emb::vector,
            ARRAY(SELECT json_array_elements_text(st::json))
     FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $8::text[], $9::text[], $10::real[], $11::text[], $12::text[])
       AS u(id, source, ord, hp, heading, start_line, end_line, text, version, len, emb, st)
     ON CONFLICT (id) DO UPDATE SET ord = EXCLUDED.ord, start_line = EXCLUDED.start_line, end_line = EXCLUDED.end_line,
       version = EXCLUDED.version, embedding = coalesce(EXCLUDED.embedding, evident_passages.embedding)`,
    [
      col((r) => r.passage.id),
      col((r) => r.passage.source),
      col((r) => r.ord),
      col((r) => JSON.stringify(r.passage.headingPath)),
      col((r) => r.passage.heading),
      col((r) => r.passage.startLine),
      col((r) => r.passage.endLine),
      col((r) => r.passage.text),
      col((r) => r.passage.version),
      analysed.map((a) => a.length),
      col((r) => {
        const v = vectors.get(r.passage.id);
        return v ? vectorSql(v) : null;
      }),
      stems,
    ],
  );
  const ids: string[] = [];
  const terms: string[] = [];
  const tfs: number[] = [];
  const lens: number[] = [];
  rows.forEach(({ passage }, i) => {
    for (const [term, tf] of analysed[i].weights) {
      ids.push(passage.id);
      terms.push(term);
      tfs.push(tf);
      lens.push(analysed[i].length);
    }
  });
  // The BM25 document frequencies count the postings this statement adds (a kept passage's are there already).
  await client.query(
    `WITH added AS (
       INSERT INTO evident_terms (passage_id, term, tf, len) SELECT * FROM unnest($1::text[], $2::text[], $3::real[], $4::real[])
       ON CONFLICT DO NOTHING RETURNING term)
     INSERT INTO evident_term_df (term, df) SELECT term, count(*) FROM added GROUP BY term
     ON CONFLICT (term) DO UPDATE SET df = evident_term_df.df + EXCLUDED.df`,
    [ids, terms, tfs, lens],
  );
}

/**
 * Takes the passages matching `where` (about to be deleted) off the document frequencies: the
 * verifier's (their stems) and BM25's (their postings).
 */
async function uncount(client: PoolClient, where: string, params: unknown[]): Promise<void> {
  await client.query(
    `WITH gone AS (SELECT s.stem, count(*) AS n FROM evident_passages p CROSS JOIN LATERAL unnest(p.stems) AS s(stem) WHERE ${where} GROUP BY s.stem)
     UPDATE evident_stems c SET df = c.df - gone.n FROM gone WHERE c.stem = gone.stem`,
    params,
  );
  await client.query(
    `WITH gone AS (SELECT t.term, count(*) AS n FROM evident_terms t WHERE t.passage_id IN (SELECT id FROM evident_passages WHERE ${where}) GROUP BY t.term)
     UPDATE evident_term_df d SET df = d.df - gone.n FROM gone WHERE d.term = gone.term`,
    params,
  );
}

async function setVectors(client: PoolClient, vectors: Map<string, Float32Array>): Promise<void> {
  if (!vectors.size) return;
  await client.query(
    'UPDATE evident_passages p SET embedding = u.emb::vector FROM unnest($1::text[], $2::text[]) AS u(id, emb) WHERE p.id = u.id',
    [[...vectors.keys()], [...vectors.values()].map(vectorSql)],
  );
}
