// The shared team index: passages, vectors and a BM25 term table in PostgreSQL with pgvector.
// Indexed once (e.g. by the docs repository's CI), answered from every client.
//
// * Incremental by content hash: a document whose version (sha256 of its text) is stored is not
//   re-chunked; a passage id that has a vector is not re-embedded.
// * Indexing runs are storeIndexRun.ts: reading, chunking and embedding happen outside any lock;
//   the write is one transaction under an advisory lock that re-checks the run's whole tree
//   against the store, so two indexers at once end consistent, the last with its tree; readers
//   never see a half-written run; a run with nothing to change writes nothing.
// * The embedding model id is stored with the vectors; a client with another model refuses.
// * A search is one SQL statement (one round trip): BM25 over the term table (the local index's
//   analysis and parameters), pgvector's cosine ranking (HNSW), fused by reciprocal rank fusion.
// * The verifier's term statistics are kept at index time (each passage's stems, each stem's
//   document frequency): a client reads the counts of the stems it needs (with each search's
//   results, or for an answer's words), never every passage: what a client reads and analyses
//   does not grow with the corpus (the server's BM25 postings and HNSW search grow as any index's).

import type { Passage, RetrievalMode } from '../../../domain/types';
import type { Notice } from '../../../domain/notices';
import type { DocSource } from '../../docs/docSource';
import { B, K1, lexicalTerms } from '../../retrieval/lexicalIndex';
import { CANDIDATES, FUSION_WEIGHTS, RRF_K } from '../../retrieval/hybridRetriever';
import { INDEX_FORMAT_VERSION, type IndexReport, type IndexRunOptions } from '../../indexing/indexRun';
import { commonFolderOf } from '../../metrics/topic';
import type { Embedder } from '../../types';
import { stemsOf, termStatsFromCounts, type TermStats } from '../../text/termStats';
import { StoreError, type PassageStore, type StoreSearch, type StoreStatus } from '../passageStore';
import { migrate, WRITE_LOCK } from './schema';
import { HYBRID_SEARCH_SQL, LEXICAL_SEARCH_SQL, STEM_COUNTS_SQL } from './searchSql';
import { indexIntoStore, readStatus, type StoreConnection } from './storeIndexRun';
import { finiteVector, PASSAGE_COLUMNS, toPassage, vectorSql, type PassageRow } from './storeRows';
import type { Pool, PoolClient } from 'pg';

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
  if (
    e.code &&
    [
      'ECONNRESET',
      'ECONNREFUSED',
      'EPIPE',
      'ETIMEDOUT',
      'ENOTFOUND',
      'EHOSTUNREACH',
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08003',
      '08001',
    ].includes(e.code)
  ) {
    return true;
  }
  // The last resort, for errors of the pg client that carry no code (their message is all it gives).
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|socket hang up/i.test(
    e.message ?? '',
  );
}

export class PostgresPassageStore implements PassageStore {
  readonly kind = 'shared' as const;
  readonly openNotices: Notice[] = [];
  readonly label: string;
  private state: StoreStatus = { indexed: false, documents: 0, passages: 0, embeddingModel: null };

  /** Connections whose HNSW search breadth is set (once each, before their first search). */
  private readonly tuned = new WeakSet<PoolClient>();
  private readonly listened = new WeakSet<PoolClient>();
  private stems: StemCache | undefined;

  private constructor(
    private readonly pool: Pool,
    private readonly where: string,
    private readonly efSearch: number,
  ) {
    this.label = `shared index ${where}`;
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresPassageStore> {
    if (!/^postgres(ql)?:\/\//.test(options.connectionString)) {
      throw new StoreError(
        `The store must be a postgres://… connection string (got "${redactConnection(options.connectionString)}").`,
        'setup',
      );
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
    const store = new PostgresPassageStore(
      pool,
      where,
      Math.max(CANDIDATES, Math.trunc(options.efSearch ?? DEFAULT_EF_SEARCH)),
    );
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

  async search(
    query: string,
    topK: number,
    embedder: Embedder | undefined,
    signal?: AbortSignal,
  ): Promise<StoreSearch> {
    if (!this.state.indexed) await this.refreshStatus();
    if (!this.state.indexed) throw this.neverIndexed();
    const storedModel = this.state.embeddingModel;
    if (embedder && storedModel !== null && embedder.modelId !== storedModel) {
      throw this.modelMismatch(storedModel, embedder.modelId);
    }
    const terms = queryTerms(query);
    const stems = [...stemsOf(query)];
    let rows: (PassageRow & CountsRow & { stems: string[] })[];
    let mode: RetrievalMode = 'lexical';
    // A question the model turns into NaN (only zero-width or control characters) is searched by words.
    const [vector] = embedder && storedModel !== null ? await embedder.embed([query], signal) : [undefined];
    signal?.throwIfAborted();
    if (finiteVector(vector)) {
      mode = 'hybrid';
      rows = await this.query(
        HYBRID_SEARCH_SQL,
        [
          terms,
          vectorSql(vector),
          topK,
          CANDIDATES,
          RRF_K,
          K1,
          B,
          FUSION_WEIGHTS.lexical,
          FUSION_WEIGHTS.vector,
          stems,
        ],
        true,
      );
    } else {
      rows = await this.query(LEXICAL_SEARCH_SQL, [terms, topK, CANDIDATES, RRF_K, K1, B, stems]);
    }
    signal?.throwIfAborted();
    if (rows.length) this.absorb(rows[0], [...stems, ...rows.flatMap((r) => r.stems)]);
    return { mode, passages: rows.map((r) => ({ passage: toPassage(r), score: Number(r.score) })) };
  }

  async passages(ids: readonly string[]): Promise<Passage[]> {
    if (!ids.length) return [];
    const rows = await this.query<PassageRow>(
      `SELECT ${PASSAGE_COLUMNS} FROM evident_passages WHERE id = ANY($1::text[])`,
      [ids],
    );
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
    const [row] = await this.query<{ lo: string | null; hi: string | null }>(
      'SELECT min(source COLLATE "C") AS lo, max(source COLLATE "C") AS hi FROM evident_passages',
      [],
    );
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

  /** An indexing run (storeIndexRun.ts): incremental by content hash, one transaction under the write lock. */
  async update(docs: DocSource, options: IndexRunOptions = {}): Promise<IndexReport> {
    const { report, state } = await indexIntoStore(this.connection(), docs, options);
    this.state = state;
    return report;
  }

  /** What an indexing run needs of this store. */
  private connection(): StoreConnection {
    return {
      where: this.where,
      query: (sql, params) => this.query(sql, params),
      withClient: (work) => this.withClient(work),
      modelMismatch: (stored, mine) => this.modelMismatch(stored, mine),
    };
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
    this.state = await readStatus(this.connection());
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
    return new StoreError(
      `The shared index at ${this.where} has never been indexed. Run "evident index --docs DIR --store ${this.where}" first (usually in the docs repository's CI).`,
      'not-indexed',
    );
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
