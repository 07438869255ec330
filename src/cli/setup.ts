// Shared CLI plumbing: the flags every engine-backed command takes, where the index lives (a
// cache folder, never inside --docs), which model answers, and progress drawn only on a TTY.

import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliError, type CliIO } from './io';
import { escapeForTerminal } from './terminalText';
import { fetchedModelDir } from './fetchedModel';
import {
  createGeminiModel,
  createGoogleSearchModel,
  createVertexSearchModel,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_GEMINI_MODEL,
  Engine,
  folderDocSource,
  NO_DOCS,
  GeminiError,
  redactConnection,
  type IndexProgress,
} from '../core/engine';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../core/models/geminiModel';
import type { ChatModel, GroundedModel, SupportScorer } from '../core/types';
import { hubEndpoint } from '../core/modelLoading';
import { EMBEDDING_BACKENDS, type EmbeddingBackend } from '../core/onnxRuntime';
import { docsFolderHoldingIndex, realPathOf } from '../core/docs/indexPlacement';
import { createEntailmentScorer, createJudgeScorer, DEFAULT_ENTAILMENT_MODEL } from '../core/verifier';
import { boundTopK, DEFAULT_TOP_K, MAX_TOP_K, MIN_TOP_K } from '../domain/topK';
import { DEFAULT_THRESHOLD } from '../domain/threshold';

export const ENGINE_FLAGS = {
  docs: { type: 'string' },
  'index-dir': { type: 'string' },
  store: { type: 'string' },
  'embedding-model': { type: 'string' },
  'no-embeddings': { type: 'boolean' },
  'embedding-backend': { type: 'string' },
  'top-k': { type: 'string' },
  threshold: { type: 'string' },
  escalation: { type: 'string' },
  'entailment-model': { type: 'string' },
  offline: { type: 'boolean' },
  'no-relevance-check': { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const ENGINE_FLAGS_HELP = `  --docs DIR               folder of Markdown documents (required)
  --index-dir DIR          where the index is kept (default: a cache folder per docs folder,
                           $XDG_CACHE_HOME/evident or ~/.cache/evident); never inside --docs
  --store postgres://USER@HOST:PORT/DB
                           a shared team index in PostgreSQL with pgvector instead of the local
                           index (password: EVIDENT_STORE_PASSWORD or PGPASSWORD, not the URL)
  --embedding-model ID|DIR embedding model for dense retrieval (default: the folder \`npm run
                           fetch-model\` wrote, $EVIDENT_MODEL_DIR or ~/.cache/evident/models/all-MiniLM-L6-v2,
                           when it is there; else ${DEFAULT_EMBEDDING_MODEL}, downloaded once when
                           the network allows; else retrieval is lexical only)
  --no-embeddings          lexical retrieval only
  --embedding-backend KIND ONNX runtime of the embedding model: auto (default: native where it
                           loads, else WebAssembly), native, or wasm (slower, runs everywhere)
  --top-k N                passages per search, a whole number from ${MIN_TOP_K} to ${MAX_TOP_K} (default ${DEFAULT_TOP_K})
  --threshold N            support threshold of the verifier, 0..1 (default ${DEFAULT_THRESHOLD})
  --escalation KIND        second verifier tier for sentences the lexical check rejects:
                           entailment (local NLI model) or judge (Gemini; needs GEMINI_API_KEY)
  --entailment-model ID|DIR  model for --escalation entailment (default ${DEFAULT_ENTAILMENT_MODEL})
  --offline                never download a model (embedding or entailment)
  --no-relevance-check     keep answers the verifier backs even when they do not address the
                           question (default: such turns abstain, partial answers say what is missing)
  --timeout SECONDS        how long one request to Gemini may take, retries included (default
                           ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}; 0: no limit)`;

export interface EngineFlags {
  docs?: string;
  'index-dir'?: string;
  store?: string;
  'embedding-model'?: string;
  'no-embeddings'?: boolean;
  'embedding-backend'?: string;
  'top-k'?: string;
  threshold?: string;
  escalation?: string;
  'entailment-model'?: string;
  offline?: boolean;
  'no-relevance-check'?: boolean;
  timeout?: string;
  model?: string;
}

export function cacheRoot(env: CliIO['env']): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'evident');
}

export function resolveDocs(flags: EngineFlags, io: CliIO): string {
  if (!flags.docs) throw new CliError('--docs DIR is required.');
  const docs = path.resolve(io.cwd, flags.docs);
  if (!existsSync(docs)) throw new CliError(`--docs: no such folder: ${docs}`);
  if (!statSync(docs).isDirectory()) throw new CliError(`--docs: not a folder: ${docs}`);
  return docs;
}

export function numberFlag(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new CliError(`--${name} must be a number from ${min} to ${max} (got "${value}").`);
  }
  return n;
}

/** `--top-k N`: a whole number of passages per search (the rule of src/domain/topK.ts). */
export function topKFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!value.trim() || !Number.isInteger(n) || n !== boundTopK(n)) {
    throw new CliError(`--top-k must be a whole number from ${MIN_TOP_K} to ${MAX_TOP_K} (got "${value}").`);
  }
  return n;
}

/** The index folder of a docs folder: --index-dir, else a cache folder per docs folder; never inside --docs. */
export function resolveIndexDir(
  flags: Pick<EngineFlags, 'docs' | 'index-dir'>,
  io: CliIO,
): { docs: string; indexDir: string } {
  const docs = resolveDocs(flags, io);
  const indexDir = flags['index-dir']
    ? path.resolve(io.cwd, flags['index-dir'])
    : path.join(
        cacheRoot(io.env),
        'indexes',
        `${path.basename(docs)}-${createHash('sha256').update(docs).digest('hex').slice(0, 12)}`,
      );
  const holder = docsFolderHoldingIndex(indexDir, [docs]);
  if (holder !== undefined) {
    throw new CliError(
      `--index-dir must be outside --docs (the CLI never writes inside the docs folder; symlinks resolved): ${indexDir} is inside ${realPathOf(holder)}`,
    );
  }
  return { docs, indexDir };
}

/**
 * Where a shared index's turn logs are kept on this machine: --index-dir, else a cache folder of
 * that store, named by its host and database and keyed by its URL without the password (the
 * same folder from any working directory).
 */
export function storeLogDir(flags: Pick<EngineFlags, 'store' | 'index-dir'>, io: CliIO): string {
  if (flags['index-dir']) return path.resolve(io.cwd, flags['index-dir']);
  const where = redactConnection(flags.store ?? '');
  let name = 'store';
  try {
    const url = new URL(where);
    name = `${url.hostname}${url.port ? `-${url.port}` : ''}${url.pathname.replace(/\//g, '-')}`
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/-+$/, '');
  } catch {
    // unparsable: refused by openEngine before anything is written
  }
  return path.join(
    cacheRoot(io.env),
    'stores',
    `${name.slice(0, 80)}-${createHash('sha256').update(where).digest('hex').slice(0, 12)}`,
  );
}

/** A shared index's folders: the docs (when given) and the store's log folder, outside them. */
function storeFolders(flags: EngineFlags, io: CliIO): { docs: string | undefined; indexDir: string } {
  const docs = flags.docs ? resolveDocs(flags, io) : undefined;
  const indexDir = storeLogDir(flags, io);
  const holder = docs === undefined ? undefined : docsFolderHoldingIndex(indexDir, [docs]);
  if (holder !== undefined) {
    throw new CliError(
      `--index-dir must be outside --docs (the CLI never writes inside the docs folder; symlinks resolved): ${indexDir} is inside ${realPathOf(holder)}`,
    );
  }
  return { docs, indexDir };
}

/** The turn logs kept beside the CLI's index. */
export function turnLogPaths(indexDir: string): { metricsLog: string; auditLog: string } {
  return { metricsLog: path.join(indexDir, 'metrics.jsonl'), auditLog: path.join(indexDir, 'audit.jsonl') };
}

export async function openEngine(
  flags: EngineFlags,
  io: CliIO,
  options: { answerOnly?: boolean } = {},
): Promise<Engine> {
  if (flags.store !== undefined && !/^postgres(ql)?:\/\//.test(flags.store)) {
    throw new CliError(
      `--store must be a postgres://USER@HOST:PORT/DB connection string (got "${redactConnection(flags.store)}").`,
    );
  }
  // With a shared store, --docs is optional for answering (it only says where sources are), and
  // the turn logs are the store's, not a docs folder's.
  const { docs, indexDir } = flags.store ? storeFolders(flags, io) : resolveIndexDir(flags, io);
  const cache = cacheRoot(io.env);
  const topK = topKFlag(flags['top-k']);
  const threshold = numberFlag(flags.threshold, 'threshold', 0, 1);
  const escalation = await escalationFor(flags.escalation, flags, io);
  const backend = flags['embedding-backend'] ?? 'auto';
  if (!EMBEDDING_BACKENDS.includes(backend as EmbeddingBackend)) {
    throw new CliError(`--embedding-backend must be one of ${EMBEDDING_BACKENDS.join(', ')} (got "${backend}").`);
  }
  const password = io.env.EVIDENT_STORE_PASSWORD;
  return Engine.open({
    docs: docs === undefined ? NO_DOCS : folderDocSource(docs),
    indexDir,
    ...(flags.store ? { store: { connectionString: flags.store, ...(password ? { password } : {}) } } : {}),
    answerOnly: options.answerOnly,
    topK,
    verifier: { threshold, escalation },
    relevanceCheck: !flags['no-relevance-check'],
    embedding: flags['no-embeddings']
      ? false
      : {
          // No --embedding-model: the copy `npm run fetch-model` wrote on this machine, else the hub's.
          modelId: flags['embedding-model'] ?? fetchedModelDir(io.env) ?? DEFAULT_EMBEDDING_MODEL,
          cacheDir: path.join(cache, 'models'),
          allowRemote: !flags.offline,
          hubEndpoint: hubEndpoint(io.env),
          backend: backend as EmbeddingBackend,
        },
    ...turnLogPaths(indexDir),
    log: {
      info: () => {},
      // Notices (lexical only, index rebuilt…) are said once, here; they also travel in the JSON output.
      warn: (m) => io.stderr(`evident: ${escapeForTerminal(m)}\n`),
      error: (m) => io.stderr(`evident: ${escapeForTerminal(m)}\n`),
    },
  });
}

/**
 * `--model`: extractive (offline) or gemini[:MODEL_ID]; by default Gemini when GEMINI_API_KEY is
 * set. Checked at once (a bad flag fails before any indexing); the model is made for the engine.
 */
export function chooseCliModel(name: string | undefined, io: CliIO, timeout?: string): (engine: Engine) => ChatModel {
  const wanted = name ?? (geminiKey(io) ? 'gemini' : 'extractive');
  const timeoutMs = timeoutFlag(timeout);
  if (wanted === 'extractive') return (engine) => engine.createExtractiveModel();
  const gemini = geminiFromEnv(wanted, io, timeoutMs);
  return () => gemini;
}

/** `--timeout SECONDS`: one model request's limit, retries included (0: none); in milliseconds. */
export function timeoutFlag(value: string | undefined): number | undefined {
  const seconds = numberFlag(value, 'timeout', 0, 3600);
  return seconds === undefined ? undefined : seconds * 1000;
}

/** Flags of the second route (built-in grounding). */
export const GROUNDING_FLAGS = {
  datastore: { type: 'string' },
  'search-filter': { type: 'string' },
  'max-results': { type: 'string' },
} as const;

export const GROUNDING_FLAGS_HELP = `Built-in grounding (the provider searches; no --docs):
  --model google-search[:MODEL_ID]     Gemini with Google Search (GEMINI_API_KEY)
  --model vertex-ai-search[:MODEL_ID]  Vertex AI with Vertex AI Search on --datastore
  --datastore NAME         projects/P/locations/L/collections/C/dataStores/D
  --search-filter EXPR     Vertex AI Search filter expression
  --max-results N          results per Vertex AI Search query, 1..10
  Vertex credentials: application default credentials (project from the data store, or
  GOOGLE_CLOUD_PROJECT; location GOOGLE_CLOUD_LOCATION, default global), or an API key in
  EVIDENT_VERTEX_API_KEY. GOOGLE_VERTEX_BASE_URL / GOOGLE_GEMINI_BASE_URL point at another endpoint.`;

export interface GroundingFlags {
  model?: string;
  timeout?: string;
  datastore?: string;
  'search-filter'?: string;
  'max-results'?: string;
}

const GROUNDED_MODEL = /^(google-search|vertex-ai-search)(?::(.+))?$/;

/** True when --model names a built-in grounding route. */
export function isGroundedModelName(name: string | undefined): boolean {
  return name !== undefined && GROUNDED_MODEL.test(name);
}

/**
 * `--model google-search[:MODEL_ID]` or `vertex-ai-search[:MODEL_ID]`: the provider searches.
 * Checked at once, so a missing key or a malformed data store fails before any call.
 */
export function groundedCliModel(flags: GroundingFlags, io: CliIO): GroundedModel {
  const match = GROUNDED_MODEL.exec(flags.model ?? '');
  if (!match) {
    throw new CliError(
      `--model must be google-search[:MODEL_ID] or vertex-ai-search[:MODEL_ID] (got "${flags.model}").`,
    );
  }
  const modelId = match[2] ?? io.env.EVIDENT_GEMINI_MODEL ?? DEFAULT_GEMINI_MODEL;
  const timeoutMs = timeoutFlag(flags.timeout);
  try {
    if (match[1] === 'google-search') {
      if (flags.datastore || flags['search-filter'] || flags['max-results']) {
        throw new CliError('--datastore, --search-filter and --max-results are for --model vertex-ai-search.');
      }
      const key = geminiKey(io);
      if (!key) throw new CliError('--model google-search needs GEMINI_API_KEY in the environment.');
      return createGoogleSearchModel({
        apiKey: key,
        model: modelId,
        baseUrl: io.env.GOOGLE_GEMINI_BASE_URL,
        timeoutMs,
      });
    }
    if (!flags.datastore) {
      throw new CliError(
        '--model vertex-ai-search needs --datastore projects/P/locations/L/collections/C/dataStores/D.',
      );
    }
    const maxResults = numberFlag(flags['max-results'], 'max-results', 1, 10);
    if (maxResults !== undefined && !Number.isInteger(maxResults)) {
      throw new CliError(`--max-results must be a whole number from 1 to 10 (got "${flags['max-results']}").`);
    }
    return createVertexSearchModel({
      datastore: flags.datastore,
      filter: flags['search-filter'],
      maxResults,
      model: modelId,
      project: io.env.GOOGLE_CLOUD_PROJECT || undefined,
      location: io.env.GOOGLE_CLOUD_LOCATION || undefined,
      apiKey: io.env.EVIDENT_VERTEX_API_KEY || undefined,
      baseUrl: io.env.GOOGLE_VERTEX_BASE_URL || io.env.GOOGLE_GEMINI_BASE_URL || undefined,
      timeoutMs,
    });
  } catch (error) {
    if (error instanceof GeminiError) throw new CliError(error.message);
    throw error;
  }
}

function geminiKey(io: CliIO): string | undefined {
  return io.env.GEMINI_API_KEY ?? io.env.GOOGLE_API_KEY;
}

function geminiFromEnv(wanted: string, io: CliIO, timeoutMs?: number): ChatModel {
  if (isGroundedModelName(wanted)) {
    throw new CliError(`--model ${wanted} works with "evident ask" only: the provider searches, not the docs index.`);
  }
  if (wanted !== 'gemini' && !wanted.startsWith('gemini:')) {
    throw new CliError(
      `--model must be "extractive", "gemini" or "gemini:MODEL_ID" (got "${wanted}"); "evident ask" also takes google-search[:MODEL_ID] and vertex-ai-search[:MODEL_ID].`,
    );
  }
  const key = geminiKey(io);
  if (!key) {
    throw new CliError(
      '--model gemini needs GEMINI_API_KEY in the environment (or use --model extractive, which works offline).',
    );
  }
  return createGeminiModel({
    apiKey: key,
    model: wanted.includes(':')
      ? wanted.slice(wanted.indexOf(':') + 1)
      : (io.env.EVIDENT_GEMINI_MODEL ?? DEFAULT_GEMINI_MODEL),
    baseUrl: io.env.GOOGLE_GEMINI_BASE_URL,
    timeoutMs,
  });
}

/** Draws "indexing 42% (reading 120/286)" on one stderr line, only when stderr is a terminal. */
export function progressPrinter(io: CliIO): ((p: IndexProgress) => void) | undefined {
  if (!io.isTTY) return undefined;
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < 100 && p.done !== p.total) return;
    last = now;
    const pct = p.total ? Math.floor((p.done / p.total) * 100) : 0;
    io.stderr(
      `\r\x1b[Kindexing: ${p.phase} ${p.done}/${p.total} (${pct}%)${p.done === p.total && p.phase === 'saving' ? '\n' : ''}`,
    );
  };
}

/** `--escalation entailment|judge`: the second verifier tier for sentences the lexical check rejects. */
export async function escalationFor(
  kind: string | undefined,
  flags: { 'entailment-model'?: string; offline?: boolean; model?: string; timeout?: string },
  io: CliIO,
): Promise<SupportScorer | undefined> {
  if (kind === undefined) return undefined;
  if (kind === 'entailment') {
    const wanted = flags['entailment-model'] ?? DEFAULT_ENTAILMENT_MODEL;
    const folder = path.resolve(io.cwd, wanted);
    const isFolder = existsSync(folder);
    return createEntailmentScorer({
      model: wanted,
      ...(isFolder ? { localModelPath: folder } : {}),
      cacheDir: path.join(cacheRoot(io.env), 'models'),
      allowRemote: !flags.offline,
    });
  }
  if (kind === 'judge') {
    // The judge is a chat model: Gemini (the extractive model cannot judge).
    const model = geminiFromEnv(
      flags.model?.startsWith('gemini') ? flags.model : 'gemini',
      io,
      timeoutFlag(flags.timeout),
    );
    return createJudgeScorer(model);
  }
  throw new CliError(`--escalation must be "entailment" or "judge" (got "${kind}").`);
}
