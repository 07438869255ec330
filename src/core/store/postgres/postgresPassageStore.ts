// The shared team index: passages, vectors and a BM25 term table in PostgreSQL with pgvector.
// Indexed once (e.g. by the docs repository's CI), answered from every client.
//
// * Incremental by content hash: a document whose version (sha256 of its text) is stored is not
//   re-chunked; a passage id that has a vector is not re-embedded.
// * Two indexers at once: reading, chunking and embedding happen outside any lock; the write is
//   one transaction under an advisory lock that re-checks what it writes (a document written by
//   the other indexer at the same version is left alone; a reused passage whose vector vanished
//   meanwhile is embedded inside the transaction). Readers never see a half-written run.
// * The embedding model id is stored with the vectors; a client with another model refuses.
// * A search is one SQL statement (one round trip): BM25 over the term table (the local index's
//   analysis and parameters), pgvector's cosine ranking (HNSW), fused by reciprocal rank fusion.
// * The verifier's term statistics are kept at index time (each passage's stems, each stem's
//   document frequency): a client reads the counts of the stems it needs (with each search's
//   results, or for an answer's words), never every passage: what a client reads and analyses
//   does not grow with the corpus (the server's BM25 postings and HNSW search grow as any index's).

import type { Passage, RetrievalMode } from '../../../domain/types';
import { chunkMarkdown } from '../../docs/chunker';
import { documentVersion } from '../../docs/version';
import { readDocumentText, type DocFile, type DocSource } from '../../docs/docSource';
import { B, K1, lexicalTerms, passageTermWeights } from '../../retrieval/lexicalIndex';
import { CANDIDATES, FUSION_WEIGHTS, RRF_K } from '../../retrieval/hybridRetriever';
import { embeddingText, INDEX_FORMAT_VERSION, termText, type IndexReport, type IndexRunOptions } from '../../retrieval/passageIndex';
import { commonFolderOf } from '../../metrics/topic';
import type { Embedder } from '../../types';
import { stemsOf, termStatsFromCounts, type TermStats } from '../../verifier/termStats';
import { StoreError, type PassageStore, type StoreSearch, type StoreStatus } from '../passageStore';
import { migrate, WRITE_LOCK } from './schema';
import { HYBRID_SEARCH_SQL, LEXICAL_SEARCH_SQL, STEM_COUNTS_SQL } from './searchSql';
import type { Pool, PoolClient } from 'pg';
import pgvector from 'pgvector';

export interface PostgresStoreOptions {
  /** postgres://user@host:port/db (a password may come separately, never from settings). */
  connectionString: string;
  password?: string;
  /** Connection attempts give up after this long (ms). */
  connectTimeoutMs?: number;
  /**
   * pgvector's HNSW search breadth (hnsw.ef_search). HNSW is approximate: at 100, 3 of the 93 dev
   * questions of the 18F handbook had another top 6 than the local index's exact scan; at 400,
   * none, at no measured cost (docs/measurements.md, "Shared team index").
   */
  efSearch?: number;
}

interface StoreRow {
  embedding_model: string | null;
  dimensions: number | null;
  format_version: number;
  updated_at: Date | null;
  passages: string;
}

interface PassageRow {
  id: string;
  source: string;
  heading_path: string[];
  heading: string;
  start_line: number;
  end_line: number;
  text: string;
  version: string;
  score?: number;
}

/** The verifier's counts as a search or a stem look-up returns them. */
interface CountsRow {
  n: string;
  at: Date | null;
  dfs: Record<string, number> | null;
}

/** The stem counts this client has read, for one state of the store (its last update time). */
interface StemCache {
  at: number | null;
  n: number;
  df: Map<string, number>;
  asked: Set<string>;
  stats: TermStats;
}

const WRITE_BATCH = 500;
/** See PostgresStoreOptions.efSearch. */
export const DEFAULT_EF_SEARCH = 400;

/** `postgres://user:secret@host/db` → `postgres://user@host/db`: what may be shown and logged. */
export function redactConnection(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    url.password = '';
    return url.toString().replace(/^(postgres(?:ql)?:\/\/[^@/]*):@/, '$1@');
  } catch {
    return 'postgres://(unparsable connection string)';
  }
}

/** Errors that mean the connection, not the query, failed: worth one retry on a new connection. */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  if (e.code && ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08006', '08003', '08001'].includes(e.code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|socket hang up/i.test(e.message ?? '');
}

export class PostgresPassageStore implements PassageStore {
  readonly kind = 'shared' as const;
  readonly openNotices: string[] = [];
  readonly label: string;
  private state: StoreStatus = { indexed: false, documents: 0, passages: 0, embeddingModel: null };

  /** Connections whose HNSW search breadth is set (once each, before their first search). */
  private readonly tuned = new WeakSet<PoolClient>();
  private readonly listened = new WeakSet<PoolClient>();
  private stems: StemCache | undefined;

  private constructor(private readonly pool: Pool, private readonly where: string, private readonly efSearch: number) {
    this.label = `shared index ${where}`;
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresPassageStore> {
    if (!/^postgres(ql)?:\/\//.test(options.connectionString)) {
      throw new StoreError(`The store must be a postgres://… connection string (got "${redactConnection(options.connectionString)}").`, 'setup');
    }
    const { default: pg } = await import('pg');
    const where = redactConnection(options.connectionString);
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      ...(options.password !== undefined ? { password: options.password } : {}),
      max: 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      idleTimeoutMillis: 30_000,
    });
    // A broken idle connection is dropped by the pool; its error must not crash the process.
    pool.on('error', () => {});
    const store = new PostgresPassageStore(pool, where, Math.max(CANDIDATES, Math.trunc(options.efSearch ?? DEFAULT_EF_SEARCH)));
    try {
      await store.withClient(async (client) => {
        await migrate(client, INDEX_FORMAT_VERSION);
      });
      await store.refreshStatus();
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return store;
  }

  status(): StoreStatus {
    return this.state;
  }

  mode(embedder: Embedder | undefined): RetrievalMode {
    return embedder && this.state.embeddingModel !== null ? 'hybrid' : 'lexical';
  }

  async search(query: string, topK: number, embedder: Embedder | undefined, signal?: AbortSignal): Promise<StoreSearch> {
    if (!this.state.indexed) await this.refreshStatus();
    if (!this.state.indexed) throw this.neverIndexed();
    const storedModel = this.state.embeddingModel;
    if (embedder && storedModel !== null && embedder.modelId !== storedModel) throw this.modelMismatch(storedModel, embedder.modelId);
    const terms = queryTerms(query);
    const stems = [...stemsOf(query)];
    let rows: (PassageRow & CountsRow & { stems: string[] })[];
    let mode: RetrievalMode = 'lexical';
    if (embedder && storedModel !== null) {
      const [vector] = await embedder.embed([query], signal);
      signal?.throwIfAborted();
      mode = 'hybrid';
      rows = await this.query(HYBRID_SEARCH_SQL, [terms, vectorSql(vector), topK, CANDIDATES, RRF_K, K1, B, FUSION_WEIGHTS.lexical, FUSION_WEIGHTS.vector, stems], true);
    } else {
      rows = await this.query(LEXICAL_SEARCH_SQL, [terms, topK, CANDIDATES, RRF_K, K1, B, stems]);
    }
    signal?.throwIfAborted();
    if (rows.length) this.absorb(rows[0], [...stems, ...rows.flatMap((r) => r.stems)]);
    return { mode, passages: rows.map((r) => ({ passage: toPassage(r), score: Number(r.score) })) };
  }

  async passages(ids: readonly string[]): Promise<Passage[]> {
    if (!ids.length) return [];
    const rows = await this.query<PassageRow>('SELECT id, source, heading_path, heading, start_line, end_line, text, version FROM evident_passages WHERE id = ANY($1::text[])', [ids]);
    const byId = new Map(rows.map((r) => [r.id, toPassage(r)]));
    return ids.map((id) => byId.get(id)).filter((p): p is Passage => p !== undefined);
  }

  /**
   * Counted as the local index counts them (stems of heading and text, per passage), read from the
   * stem table: only the stems of `texts` not read before (one round trip, none when all are known).
   */
  async termStats(texts: readonly string[]): Promise<TermStats> {
    const wanted = new Set<string>();
    for (const text of texts) for (const stem of stemsOf(text)) wanted.add(stem);
    const missing = this.stems ? [...wanted].filter((stem) => !this.stems!.asked.has(stem)) : [...wanted];
    if (missing.length || !this.stems) {
      const [row] = await this.query<CountsRow>(STEM_COUNTS_SQL, [missing]);
      this.absorb(row, missing);
    }
    return this.stems!.stats;
  }

  /** The lowest and highest source paths bound the rest: their common folder is everyone's. */
  async commonFolder(): Promise<string> {
    const [row] = await this.query<{ lo: string | null; hi: string | null }>('SELECT min(source COLLATE "C") AS lo, max(source COLLATE "C") AS hi FROM evident_passages', []);
    return row?.lo && row.hi ? commonFolderOf([row.lo, row.hi]) : '';
  }

  /** Adds counts read with `asked` to the cache; a store updated since starts a new cache. */
  private absorb(row: CountsRow | undefined, asked: readonly string[]): void {
    const at = row?.at ? new Date(row.at).getTime() : null;
    if (!this.stems || this.stems.at !== at) {
      const n = Number(row?.n ?? 0);
      const df = new Map<string, number>();
      this.stems = { at, n, df, asked: new Set(), stats: termStatsFromCounts(n, df) };
    }
    for (const stem of asked) this.stems.asked.add(stem);
    for (const [stem, count] of Object.entries(row?.dfs ?? {})) if (count > 0) this.stems.df.set(stem, count);
  }

  async update(docs: DocSource, options: IndexRunOptions = {}): Promise<IndexReport> {
    const started = Date.now();
    const { signal, onProgress, embedder } = options;
    const report: IndexReport = {
      documents: 0, passages: 0, added: 0, updated: 0, removed: 0, unchanged: 0, embedded: 0,
      skipped: [], retrieval: embedder ? 'hybrid' : 'lexical', notices: [], ms: 0,
    };
    const store = (await this.query<StoreRow>('SELECT embedding_model, dimensions, format_version, updated_at, passages FROM evident_store', []))[0];
    if (embedder && store.embedding_model !== null && store.embedding_model !== embedder.modelId) {
      throw this.modelMismatch(store.embedding_model, embedder.modelId);
    }
    if (!embedder && store.embedding_model !== null) {
      throw new StoreError(`The shared index at ${this.where} holds vectors of ${store.embedding_model}; indexing it needs that embedding model (this run has none). Use --embedding-model ${store.embedding_model}.`, 'model-mismatch');
    }
    const rechunkAll = store.format_version !== INDEX_FORMAT_VERSION;
    if (rechunkAll) report.notices.push(`The shared index was chunked by index format ${store.format_version}; this version uses ${INDEX_FORMAT_VERSION}: re-chunking every document.`);

    // Phase 1: list the documents and what the store holds.
    onProgress?.({ phase: 'scanning', done: 0, total: 0 });
    const listed = await docs.list(signal, (entry) => report.skipped.push(entry));
    const known = new Map((await this.query<{ path: string; version: string }>('SELECT path, version FROM evident_documents', [])).map((r) => [r.path, r.version]));
    const files: DocFile[] = options.paths ? listed.filter((f) => options.paths!.includes(f.path)) : listed;
    const present = new Set(files.map((f) => f.path));
    const removed = (options.paths ?? [...known.keys()]).filter((p) => known.has(p) && !present.has(p));

    // Phases 2–3: read and chunk each file; unchanged content hashes are skipped.
    const changed = new Map<string, { version: string; passages: Passage[] }>();
    for (let i = 0; i < files.length; i++) {
      signal?.throwIfAborted();
      const file = files[i];
      onProgress?.({ phase: 'reading', done: i, total: files.length, file: file.path });
      const decoded = await readDocumentText(docs, file);
      if (!decoded.ok) {
        report.skipped.push({ path: file.path, reason: decoded.reason });
        if (known.has(file.path)) removed.push(file.path);
        continue;
      }
      // The version is the text's hash (as the chunker stamps it): an unchanged file is not parsed.
      const version = documentVersion(decoded.text);
      const before = known.get(file.path);
      if (!rechunkAll && before === version) {
        report.unchanged++;
        continue;
      }
      const passages = chunkMarkdown(file.path, decoded.text).passages;
      if (before !== undefined) report.updated++;
      else report.added++;
      changed.set(file.path, { version, passages });
    }
    onProgress?.({ phase: 'reading', done: files.length, total: files.length });

    // Phase 4: embed the new passages whose id has no vector in the store yet.
    const newPassages = [...changed.values()].flatMap((d) => d.passages);
    const vectors = new Map<string, Float32Array>();
    if (embedder) {
      const ids = newPassages.map((p) => p.id);
      const have = new Set<string>();
      for (let i = 0; i < ids.length; i += 5000) {
        const rows = await this.query<{ id: string }>('SELECT id FROM evident_passages WHERE id = ANY($1::text[]) AND embedding IS NOT NULL', [ids.slice(i, i + 5000)]);
        for (const r of rows) have.add(r.id);
      }
      const toEmbed = newPassages.filter((p) => !have.has(p.id));
      await embedInto(vectors, toEmbed, embedder, signal, onProgress);
    }
    signal?.throwIfAborted();

    // Phase 5: one transaction under the write lock.
    onProgress?.({ phase: 'saving', done: 0, total: 1 });
    report.embedded = vectors.size;
    await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [WRITE_LOCK]);
        const current = (await client.query<StoreRow>('SELECT embedding_model, dimensions, format_version FROM evident_store')).rows[0];
        if (embedder) {
          if (current.embedding_model === null) {
            await bindModel(client, embedder);
          } else if (current.embedding_model !== embedder.modelId) {
            throw this.modelMismatch(current.embedding_model, embedder.modelId);
          }
        }
        if (rechunkAll) {
          await client.query('DELETE FROM evident_documents');
          await client.query('DELETE FROM evident_stems');
          await client.query('DELETE FROM evident_term_df');
          await client.query('UPDATE evident_store SET format_version = $1', [INDEX_FORMAT_VERSION]);
        }
        if (removed.length) {
          await uncount(client, 'source = ANY($1::text[])', [removed]);
          await client.query('DELETE FROM evident_documents WHERE path = ANY($1::text[])', [removed]);
        }
        const nowKnown = new Map((await client.query<{ path: string; version: string }>('SELECT path, version FROM evident_documents WHERE path = ANY($1::text[])', [[...changed.keys()]])).rows.map((r) => [r.path, r.version]));
        const toWrite = [...changed.entries()].filter(([p, d]) => nowKnown.get(p) !== d.version);
        await writeDocuments(client, toWrite);
        if (embedder) {
          // A reused passage whose vector another indexer removed meanwhile: embed it now.
          const missing = (await client.query<PassageRow>('SELECT id, source, heading_path, heading, start_line, end_line, text, version FROM evident_passages WHERE embedding IS NULL')).rows.map(toPassage);
          if (missing.length) {
            const late = new Map<string, Float32Array>();
            await embedInto(late, missing, embedder, signal);
            await setVectors(client, late);
            report.embedded += late.size;
          }
        }
        await client.query('DELETE FROM evident_stems WHERE df <= 0');
        await client.query('DELETE FROM evident_term_df WHERE df <= 0');
        await client.query(`UPDATE evident_store SET updated_at = now(),
          passages = (SELECT count(*) FROM evident_passages),
          documents = (SELECT count(*) FROM evident_documents),
          total_len = (SELECT coalesce(sum(len::float8), 0) FROM evident_passages)`);
        signal?.throwIfAborted();
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }

      async function writeDocuments(c: PoolClient, entries: [string, { version: string; passages: Passage[] }][]): Promise<void> {
        // In batches of documents: upsert them, then drop their passages that are gone (ids carry the source).
        for (let i = 0; i < entries.length; i += WRITE_BATCH) {
          const batch = entries.slice(i, i + WRITE_BATCH);
          await c.query(
            `INSERT INTO evident_documents (path, version, passages, indexed_at)
             SELECT path, version, passages, now() FROM unnest($1::text[], $2::text[], $3::int[]) AS u(path, version, passages)
             ON CONFLICT (path) DO UPDATE SET version = EXCLUDED.version, passages = EXCLUDED.passages, indexed_at = now()`,
            [batch.map(([p]) => p), batch.map(([, d]) => d.version), batch.map(([, d]) => d.passages.length)],
          );
          const gone = 'source = ANY($1::text[]) AND NOT (id = ANY($2::text[]))';
          const params = [batch.map(([p]) => p), batch.flatMap(([, d]) => d.passages.map((x) => x.id))];
          await uncount(c, gone, params);
          await c.query(`DELETE FROM evident_passages WHERE ${gone}`, params);
        }
        const all = entries.flatMap(([, d]) => d.passages.map((passage, ord) => ({ passage, ord })));
        for (let i = 0; i < all.length; i += WRITE_BATCH) await insertPassages(c, all.slice(i, i + WRITE_BATCH), vectors);
      }
    });
    await this.tidy(report);
    onProgress?.({ phase: 'saving', done: 1, total: 1 });
    report.removed = new Set(removed).size;
    await this.refreshStatus();
    report.documents = this.state.documents;
    report.passages = this.state.passages;
    report.retrieval = this.state.embeddingModel ? 'hybrid' : 'lexical';
    report.ms = Date.now() - started;
    return report;
  }

  /**
   * After a write: the planner's statistics and the visibility map that lets a query read a term's
   * postings from the index alone (no heap visit per posting), and the old row versions of updated
   * passages gone. A server's autovacuum does this later; PGlite has none. VACUUM cannot run in the
   * write's transaction; it runs beside readers without blocking them. A failure leaves the index
   * as written (only slower until the server vacuums), and is reported.
   */
  private async tidy(report: IndexReport): Promise<void> {
    try {
      await this.withClient((client) => client.query('VACUUM (ANALYZE) evident_terms, evident_term_df, evident_passages, evident_stems, evident_documents, evident_store'));
    } catch (error) {
      report.notices.push(`The shared index is written, but VACUUM (ANALYZE) failed (${(error as Error).message}): searches may be slower until the server's autovacuum runs.`);
    }
  }

  async clear(): Promise<void> {
    await this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [WRITE_LOCK]);
        await client.query('DELETE FROM evident_documents');
        await client.query('DELETE FROM evident_stems');
        await client.query('DELETE FROM evident_term_df');
        await client.query('UPDATE evident_store SET updated_at = NULL, passages = 0, documents = 0, total_len = 0');
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });
    await this.refreshStatus();
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async refreshStatus(): Promise<void> {
    const rows = await this.query<{ embedding_model: string | null; updated_at: Date | null; passages: string; documents: string }>(
      'SELECT embedding_model, updated_at, passages, documents FROM evident_store',
      [],
    );
    const row = rows[0];
    this.state = {
      indexed: Boolean(row?.updated_at),
      documents: Number(row?.documents ?? 0),
      passages: Number(row?.passages ?? 0),
      embeddingModel: row?.embedding_model ?? null,
    };
  }

  /** One statement; a broken connection is retried once on a fresh one, then reported clearly. */
  private async query<T>(sql: string, params: unknown[], dense = false): Promise<T[]> {
    for (let attempt = 1; ; attempt++) {
      let client: PoolClient | undefined;
      let broken: Error | undefined;
      try {
        client = await this.checkout();
        if (dense && !this.tuned.has(client)) {
          await client.query(`SET hnsw.ef_search = ${this.efSearch}`);
          this.tuned.add(client);
        }
        return (await client.query(sql, params)).rows as T[];
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        broken = error as Error;
        if (attempt >= 2) throw this.unreachable(error);
      } finally {
        client?.release(broken);
      }
    }
  }

  private async withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.checkout();
    } catch (error) {
      throw this.unreachable(error);
    }
    let broken: Error | undefined;
    try {
      return await work(client);
    } catch (error) {
      if (isConnectionError(error)) {
        broken = error as Error;
        throw this.unreachable(error);
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** A pooled connection; its socket errors surface as the failing query's error, never uncaught. */
  private async checkout(): Promise<PoolClient> {
    const client = await this.pool.connect();
    if (!this.listened.has(client)) {
      client.on('error', () => {});
      this.listened.add(client);
    }
    return client;
  }

  private unreachable(error: unknown): StoreError {
    return new StoreError(
      `The shared index at ${this.where} is unreachable (${(error as Error).message || (error as { code?: string }).code}). Check that the server is up and the connection setting is right, then try again.`,
      'unreachable',
    );
  }

  private neverIndexed(): StoreError {
    return new StoreError(`The shared index at ${this.where} has never been indexed. Run "evident index --docs DIR --store ${this.where}" first (usually in the docs repository's CI).`, 'not-indexed');
  }

  private modelMismatch(stored: string, mine: string): StoreError {
    return new StoreError(
      `The shared index at ${this.where} was embedded with ${stored}; this client uses ${mine}. Vectors of different models cannot be compared: set the embedding model to ${stored} (--embedding-model ${stored}, or the evident.embedding.model setting).`,
      'model-mismatch',
    );
  }
}

/** The query's terms, analysed as the passages' were (the SQL keeps each once). */
function queryTerms(query: string): string[] {
  return lexicalTerms(query);
}

function vectorSql(v: Float32Array): string {
  return pgvector.toSql(Array.from(v)) ?? '[]';
}

function toPassage(r: PassageRow): Passage {
  return { id: r.id, source: r.source, headingPath: r.heading_path, heading: r.heading, startLine: r.start_line, endLine: r.end_line, text: r.text, version: r.version };
}

async function embedInto(
  out: Map<string, Float32Array>,
  passages: Passage[],
  embedder: Embedder,
  signal?: AbortSignal,
  onProgress?: IndexRunOptions['onProgress'],
): Promise<void> {
  const BATCH = 32;
  for (let i = 0; i < passages.length; i += BATCH) {
    signal?.throwIfAborted();
    onProgress?.({ phase: 'embedding', done: i, total: passages.length });
    const batch = passages.slice(i, i + BATCH);
    const vectors = await embedder.embed(batch.map(embeddingText), signal);
    batch.forEach((p, j) => out.set(p.id, vectors[j]));
  }
  onProgress?.({ phase: 'embedding', done: passages.length, total: passages.length });
}

/** The first vectors fix the column's dimensions and build the HNSW index (cosine). */
async function bindModel(client: PoolClient, embedder: Embedder): Promise<void> {
  const dims = Math.trunc(embedder.dimensions);
  await client.query('UPDATE evident_passages SET embedding = NULL');
  await client.query(`ALTER TABLE evident_passages ALTER COLUMN embedding TYPE vector(${dims})`);
  await client.query('CREATE INDEX IF NOT EXISTS evident_passages_embedding ON evident_passages USING hnsw (embedding vector_cosine_ops)');
  await client.query('UPDATE evident_store SET embedding_model = $1, dimensions = $2', [embedder.modelId, dims]);
}

async function insertPassages(client: PoolClient, rows: { passage: Passage; ord: number }[], vectors: Map<string, Float32Array>): Promise<void> {
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
      col((r) => r.passage.id), col((r) => r.passage.source), col((r) => r.ord), col((r) => JSON.stringify(r.passage.headingPath)),
      col((r) => r.passage.heading), col((r) => r.passage.startLine), col((r) => r.passage.endLine), col((r) => r.passage.text),
      col((r) => r.passage.version), analysed.map((a) => a.length),
      col((r) => { const v = vectors.get(r.passage.id); return v ? vectorSql(v) : null; }),
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
