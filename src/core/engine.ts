// The engine: one object that the extension host and the CLI both drive. It owns the passage
// index of a docs folder, loads the embedding model once (or falls back to lexical retrieval and
// says so once), runs turns of the cited agent loop with the verifier, and logs each turn.
// The host loads this module lazily (it is the heavy bundle), so everything it needs is exported.

import { EvidenceLedger } from './agent/ledger';
import { runTurn, verifierText, type TurnEvent } from './agent/agentLoop';
import { standaloneQuestion, type PreviousTurn } from './agent/followUp';
import { checkQuestion } from './agent/question';
import type { DocSource } from './docs/docSource';
import { assertIndexOutsideDocs } from './docs/indexPlacement';
import { markStaleEvidence } from './docs/staleEvidence';
import { setAnnLog } from './retrieval/annIndex';
import { embeddingModelId, loadEmbedder, type EmbeddingSettings } from './retrieval/embedder';
import { describeRuntime, type OnnxRuntimeChoice } from './onnxRuntime';
import { termText, type IndexProgress, type IndexReport } from './indexing/indexRun';
import { LocalPassageStore } from './store/localPassageStore';
import type { PassageStore } from './store/passageStore';
import { PostgresPassageStore } from './store/postgres/postgresPassageStore';
import { WorkerPassageStore } from './store/workerPassageStore';
import { partialRetrieval, type VectorFill } from '../domain/partialRetrieval';
import type { DocFolder } from './docs/docFolders';
import { appendFeedback, appendTurnLog } from './metrics/turnLog';
import type { LogLimits } from './metrics/logFile';
import type { Feedback, Passage, RetrievalMode, TurnResult } from '../domain/types';
import { lexicalOnlyNotice, uniqueNotices, type Notice } from '../domain/notices';
import { StoreError } from './store/passageStore';
import { boundTopK, DEFAULT_TOP_K } from '../domain/topK';
import type { ChatModel, Embedder, GroundedModel, SupportScorer, TextSimilarity } from './types';
import { embedderSimilarity } from './retrieval/textSimilarity';
import type { ExtractiveTuning } from './models/extractiveModel';
import { createWebSearchTool } from './agent/webSearchTool';
import { createLexicalScorer, verifyAnswer } from './verifier';
import { PassageCache } from './verifier/passageCache';
import { checkRelevance } from './verifier/relevance';
import { uniformTermStats, type TermStats } from './text/termStats';
import type { TextVerifier } from './tools/textCheck';

export {
  decodeDocument,
  folderDocSource,
  NO_DOCS,
  workspaceDocSource,
  DEFAULT_INCLUDE,
  DEFAULT_EXCLUDE,
  type DocFile,
  type DocSource,
} from './docs/docSource';
export { resolveSource, toSourcePath, type DocFolder } from './docs/docFolders';
export { documentVersion } from './docs/version';
export { docsFolderHoldingIndex, IndexInsideDocsError } from './docs/indexPlacement';
import { createExtractiveModel } from './models/extractiveModel';
export { createExtractiveModel };
export { createGeminiModel, GeminiError, DEFAULT_GEMINI_MODEL } from './models/geminiModel';
export {
  createGoogleSearchModel,
  createVertexSearchModel,
  parseDatastore,
  type GoogleSearchOptions,
  type VertexSearchOptions,
} from './models/groundedModel';
export { askGrounded, openGroundedInvocations, type GroundedAskOptions } from './groundedAsk';
export { DEFAULT_EMBEDDING_MODEL, type EmbeddingSettings } from './retrieval/embedder';
export { splitSentences, createEntailmentScorer, createJudgeScorer, DEFAULT_ENTAILMENT_MODEL } from './verifier';
export type { IndexProgress, IndexReport } from './indexing/indexRun';
export type { TurnEvent } from './agent/agentLoop';
export type { PreviousTurn } from './agent/followUp';
export { StoreError, type PassageStore } from './store/passageStore';
export { redactConnection } from './store/postgres/postgresPassageStore';
export { readMetricsReport, metricsReport, type ReportOptions } from './metrics/metricsReport';
export type { MetricsReport, AlertSettings, MetricsAlert } from '../domain/metricsReport';
export { DEFAULT_ALERT_SETTINGS } from './metrics/alerts';
export { DEFAULT_LOG_LIMITS, type LogLimits } from './metrics/logFile';
export { MAX_QUESTION_LENGTH, QuestionTooLongError } from './agent/question';
export { IndexWorkerStopped } from './store/workerPassageStore';
export * as tools from './tools';

export interface EngineLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface EngineOptions {
  docs: DocSource;
  /** Where the local index lives: never inside the docs folder. */
  indexDir: string;
  /** A shared index (postgres://…) instead of the local one; the password apart, never in settings. */
  store?: { connectionString: string; password?: string };
  /** Dense retrieval settings, or false for lexical only. */
  embedding?: EmbeddingSettings | false;
  /**
   * Index in a worker thread (the extension): the local index, its embedding model and its
   * searches live in the worker started from `script`; `docs` says again what `docs` holds, as
   * data the worker can receive. Without it the index runs in this thread (the CLI).
   */
  worker?: { script: string; docs: { folders: DocFolder[]; include?: string[]; exclude?: string[] } };
  /** Answer from the index as committed, while another process may be indexing it (nothing is cleaned up on open). */
  answerOnly?: boolean;
  topK?: number;
  /** `similarity`: meaning under the embedding model, for the verifier (optional; it works without). */
  verifier?: { threshold?: number; escalation?: SupportScorer; similarity?: TextSimilarity };
  /** "Does this answer the question?" after the support check (default on). */
  relevanceCheck?: boolean;
  metricsLog?: string;
  auditLog?: string;
  /** Size bound of each log (rotation); DEFAULT_LOG_LIMITS when absent. */
  logLimits?: LogLimits;
  log?: EngineLogger;
}

export interface IndexStatus {
  indexed: boolean;
  documents: number;
  passages: number;
  retrieval: RetrievalMode;
  embeddingModel?: string;
  /** Which index answers: "local index" or "shared index postgres://host/db". */
  store: string;
  /** Hybrid retrieval while vectors fill in: how many passages have one (absent when all do). */
  vectors?: VectorFill;
}

export interface AskOptions {
  model: ChatModel;
  /** The verifier's second tier for this turn (e.g. a judge on this turn's model); else the engine's. */
  escalation?: SupportScorer;
  signal?: AbortSignal;
  id?: string;
  maxToolRounds?: number;
  onDraft?(textSoFar: string): void;
  onEvent?(event: TurnEvent): void;
  /**
   * The turn this question follows in a conversation. A follow-up that leans on it ("and for
   * part-time staff?") is answered as a standalone question carrying its question (the result's
   * `answeredAs`); a question that stands alone is answered alone. Nothing else of it is carried.
   */
  follows?: PreviousTurn;
  /** Mixing routes: also offer the model Google Search as the `searchWeb` tool (a grounded sub-call). */
  webSearch?: GroundedModel;
}

export { DEFAULT_TOP_K };

const silentLog: EngineLogger = { info: () => {}, warn: () => {}, error: () => {} };

type EmbedderState =
  { kind: 'unloaded' } | { kind: 'ready'; embedder: Embedder } | { kind: 'unavailable'; reason: Notice };

export class Engine {
  /** Passages ready for the support check, kept across turns: each prepared as it enters a turn's evidence. */
  private readonly readyPassages = new PassageCache();
  private readonly ledger = new EvidenceLedger((evidence) => void this.readyPassages.ready(verifierText(evidence)));
  private embedderState: EmbedderState = { kind: 'unloaded' };
  private embedderLoading: Promise<Embedder | undefined> | undefined;
  private similarityOf: { embedder: Embedder; similarity: TextSimilarity } | undefined;
  private stats: TermStats | undefined;
  private sourcesFolder: string | undefined;
  private readonly log: EngineLogger;
  /** Said once per engine: why retrieval is lexical only, why the index was rebuilt… */
  private pendingNotices: Notice[] = [];

  private constructor(
    private readonly options: EngineOptions,
    private readonly passages: PassageStore,
  ) {
    this.log = options.log ?? silentLog;
    setAnnLog((message) => this.log.warn(message));
    for (const notice of passages.openNotices) this.notice(notice);
  }

  static async open(options: EngineOptions): Promise<Engine> {
    assertIndexOutsideDocs(options.indexDir, options.docs.roots);
    const store = options.store
      ? await PostgresPassageStore.open(options.store)
      : options.worker
        ? await openWorkerStore(options, options.worker)
        : await LocalPassageStore.open(options.indexDir, options.docs.root, { keepStrayFiles: options.answerOnly });
    return new Engine(options, store);
  }

  /** The local index lives in a worker thread, with its own embedding model (none loads here). */
  private get inWorker(): WorkerPassageStore | undefined {
    return this.passages instanceof WorkerPassageStore ? this.passages : undefined;
  }

  /** Ledger entries still open (0 between turns): for diagnostics and the boundedness test. */
  get openInvocations(): number {
    return this.ledger.size;
  }

  /** True once an embedding model is loaded: index runs embed passages (known from a run's first progress report). */
  /** The ONNX runtime the embedding model runs on ('native' or 'wasm'), once it is loaded. */
  get embeddingRuntime(): OnnxRuntimeChoice | undefined {
    return this.embedderState.kind === 'ready' ? this.embedderState.embedder.runtime : undefined;
  }

  get embeddingReady(): boolean {
    const worker = this.inWorker;
    if (worker) return worker.workerStatus.embedder === 'ready';
    return this.embedderState.kind === 'ready';
  }

  status(): IndexStatus {
    const ready = this.embedderState.kind === 'ready' ? this.embedderState.embedder : undefined;
    const status = this.passages.status();
    const retrieval = this.passages.mode(ready);
    const vectors =
      retrieval === 'hybrid' && status.vectors && partialRetrieval(status.vectors) ? status.vectors : undefined;
    return {
      indexed: status.indexed,
      documents: status.documents,
      passages: status.passages,
      retrieval,
      embeddingModel: status.embeddingModel ?? undefined,
      store: this.passages.label,
      ...(vectors ? { vectors } : {}),
    };
  }

  /**
   * Brings the index up to date. `onLexicalReady` hears when the lexical part is committed (answers work from then on, while
   * vectors fill in); `commitEvery` sets how often vectors are committed (tests and benchmarks;
   * the default suits editors).
   * `modelWhenNeeded`: the local index loads the embedding model only when the run has passages
   * to embed (the CLI: an unchanged `evident index` never loads it). Without it the model is
   * loaded (or found unavailable) before the first progress report, as the editor's progress expects.
   */
  async index(
    opts: {
      signal?: AbortSignal;
      onProgress?(p: IndexProgress): void;
      paths?: string[];
      modelWhenNeeded?: boolean;
      onLexicalReady?(): void;
      commitEvery?: { passages?: number; ms?: number };
      /** Another process indexing this folder: wait for it (default), or answer from what it committed. */
      whenBusy?: 'wait' | 'answer';
      onWaiting?(holder: { pid: number; host: string } | undefined): void;
    } = {},
  ): Promise<IndexReport> {
    const settings = this.options.embedding;
    const lazy =
      opts.modelWhenNeeded && !this.shared && !this.inWorker && settings && this.embedderState.kind === 'unloaded'
        ? { modelId: embeddingModelId(settings), load: () => this.embedder() }
        : undefined;
    const embedder = lazy ? undefined : await this.embedder();
    const { signal, onProgress, paths, onLexicalReady, commitEvery, whenBusy, onWaiting } = opts;
    const report = await this.passages.update(this.options.docs, {
      signal,
      onProgress,
      paths,
      embedder,
      onLexicalReady,
      commitEvery,
      whenBusy,
      onWaiting,
      ...(lazy ? { lazyEmbedder: lazy } : {}),
    });
    this.stats = undefined;
    this.sourcesFolder = undefined;
    for (const s of report.skipped) this.log.warn(`Skipped ${s.path}: ${s.reason}`);
    for (const n of report.notices) this.log.warn(n.text);
    report.notices = uniqueNotices([...this.standingNotices(), ...report.notices]);
    return report;
  }

  async ask(question: string, opts: AskOptions): Promise<TurnResult> {
    checkQuestion(question);
    this.assertAnswerable();
    const embedder = await this.embedder();
    const retrieval = this.passages.mode(embedder);
    const similarity = this.textSimilarity();
    // Vectors still filling in: the search is hybrid over the passages that have one.
    const fill = this.passages.status().vectors;
    const partial = retrieval === 'hybrid' && fill ? partialRetrieval(fill) : undefined;
    const topK = boundTopK(this.options.topK);
    // Term weights for the question now, for each search's passages as they come, for the answer
    // before it is checked; each time for every text of the turn so far (a shared index updated
    // meanwhile starts its counts anew; otherwise they are known and cost nothing).
    const turnTexts = [question, ...(opts.follows ? [opts.follows.answeredAs ?? opts.follows.question] : [])];
    this.stats = await this.passages.termStats(turnTexts);
    const standalone = opts.follows ? standaloneQuestion(question, opts.follows, this.stats) : undefined;
    const result = await runTurn(
      question,
      opts.model,
      {
        ledger: this.ledger,
        retrieval,
        search: async (query, signal) => {
          const found = (await this.passages.search(query, topK, embedder, signal)).passages;
          turnTexts.push(query, ...found.map((p) => termText(p.passage)));
          this.stats = await this.passages.termStats(turnTexts);
          return found;
        },
        searchWeb: opts.webSearch
          ? createWebSearchTool(opts.webSearch, { threshold: this.options.verifier?.threshold })
          : undefined,
        verify: async (text, evidence, signal) =>
          (await this.verifierFor([...turnTexts, text], opts.escalation))(text, evidence, signal),
        relevance:
          this.options.relevanceCheck === false
            ? undefined
            : (input) => checkRelevance({ ...input, termStats: this.termStats() }),
        ...(similarity ? { similarity } : {}),
      },
      {
        id: opts.id,
        signal: opts.signal,
        maxToolRounds: opts.maxToolRounds,
        onDraft: opts.onDraft,
        onEvent: opts.onEvent,
        notices: this.standingNotices(),
        ...(standalone ? { standalone } : {}),
      },
    );
    if (partial) result.partialRetrieval = partial;
    // A shared index's documents need not be in this workspace: the CLI's --docs says where they are.
    if (!this.shared) await markStaleEvidence(result.evidence, this.options.docs);
    try {
      await appendTurnLog(result, this.indexVersion(), {
        metricsLog: this.options.metricsLog,
        auditLog: this.options.auditLog,
        limits: this.options.logLimits,
        commonFolder: await this.commonFolder(),
      });
    } catch (error) {
      this.log.warn(`Could not write the metrics log: ${(error as Error).message}`);
    }
    return result;
  }

  /**
   * The verifier as a turn runs it (this engine's threshold and escalation tier, term weights
   * exact for the stems of `texts`): for the turn's answer, and for checks of any text
   * (src/core/tools) so that their verdicts are the ones `ask` would give.
   */
  async verifierFor(texts: readonly string[], escalation?: SupportScorer): Promise<TextVerifier> {
    this.stats = await this.passages.termStats(texts);
    const options = {
      threshold: this.options.verifier?.threshold,
      scorer: createLexicalScorer({ termStats: this.stats, passages: this.readyPassages }),
      escalation: escalation ?? this.options.verifier?.escalation,
      similarity: this.options.verifier?.similarity,
    };
    return (text, evidence, signal) => verifyAnswer(text, evidence, options, signal);
  }

  /** A search outside any turn (the agents' tools, "Check Text"): the best `k` passages for `query`. */
  async searchPassages(query: string, k: number, signal?: AbortSignal): Promise<Passage[]> {
    this.assertAnswerable();
    return (await this.passages.search(query, k, await this.embedder(), signal)).passages.map((found) => found.passage);
  }

  /** Adds the user's verdict on an answer to the turn log (when the engine keeps one). */
  async recordFeedback(invocationId: string, feedback: Feedback): Promise<void> {
    if (this.options.metricsLog) await appendFeedback(this.options.metricsLog, invocationId, feedback);
  }

  async clear(): Promise<void> {
    await this.passages.clear();
    this.stats = undefined;
    this.sourcesFolder = undefined;
  }

  /** Answers come from a shared team index (kept current by its own indexer), not a local one. */
  get shared(): boolean {
    return this.passages.kind === 'shared';
  }

  /** Which index answers (for headers and logs; never a password). */
  get storeLabel(): string {
    return this.passages.label;
  }

  /** Closes the store's connections (a shared index); the engine is unusable after. */
  async close(): Promise<void> {
    await this.passages.close();
  }

  /**
   * The offline model, weighing question words by how informative they are in this index, and
   * sentences by their similarity in meaning to the question when the embedding model is loaded.
   * `tuning`: the dev-set sweep only.
   */
  createExtractiveModel(tuning?: Partial<ExtractiveTuning>): ChatModel {
    return createExtractiveModel({
      termStats: () => this.termStats(),
      similarity: () => this.textSimilarity(),
      ...(tuning ? { tuning } : {}),
    });
  }

  /**
   * How close texts are in meaning under the loaded embedding model (the TextSimilarity port), or
   * undefined while no model is loaded (lexical only, or still loading): every user falls back to
   * its lexical evidence. Turns pass it on to the checks after the model (`TurnDeps.similarity`).
   */
  textSimilarity(): TextSimilarity | undefined {
    const embedder = this.embedderState.kind === 'ready' ? this.embedderState.embedder : undefined;
    if (!embedder) return this.inWorker?.similarity();
    if (this.similarityOf?.embedder !== embedder) {
      this.similarityOf = { embedder, similarity: embedderSimilarity(embedder) };
    }
    return this.similarityOf.similarity;
  }

  /** Term weights over every passage of the index (read by `ask` as it goes): informative words weigh more. */
  termStats(): TermStats {
    return this.stats ?? uniformTermStats;
  }

  /** Throws when nothing is indexed to answer from (a shared index never indexed says so itself, with the command that indexes it). */
  private assertAnswerable(): void {
    const stored = this.passages.status();
    if (stored.passages === 0 && (!this.shared || stored.indexed)) {
      const where = this.shared ? `the ${this.passages.label}` : this.options.docs.roots.join(', ');
      throw new StoreError(
        `There are no documents to answer from: no Markdown passages are indexed from ${where} (add .md files, or check the include/exclude patterns and the skipped files).`,
        'not-indexed',
      );
    }
  }

  /** The folder that holds every indexed document (topics are areas below it). */
  private async commonFolder(): Promise<string> {
    this.sourcesFolder ??= await this.passages.commonFolder();
    return this.sourcesFolder;
  }

  /** The index that answered, for the metrics and audit lines (a shared index is named). */
  private indexVersion(): string {
    const version = `${this.passages.status().embeddingModel ?? 'lexical'}@${this.status().passages}`;
    return this.passages.kind === 'shared' ? `${version} (${this.passages.label})` : version;
  }

  private async embedder(): Promise<Embedder | undefined> {
    // The worker loads and uses its own model for indexing and searching.
    if (this.inWorker) return undefined;
    if (this.options.embedding === false || this.options.embedding === undefined) {
      if (this.embedderState.kind === 'unloaded') {
        this.embedderState = { kind: 'unavailable', reason: lexicalOnlyNotice('dense retrieval is off') };
      }
      return undefined;
    }
    if (this.embedderState.kind === 'ready') return this.embedderState.embedder;
    if (this.embedderState.kind === 'unavailable') return undefined;
    this.embedderLoading ??= loadEmbedder(this.options.embedding).then(
      (embedder) => {
        this.embedderState = { kind: 'ready', embedder };
        const runtime = embedder.runtime ? ` on the ${describeRuntime(embedder.runtime)}` : '';
        this.log.info(`Embedding model loaded: ${embedder.modelId} (${embedder.dimensions} dimensions)${runtime}.`);
        return embedder;
      },
      (error: Error) => {
        const reason = lexicalOnlyNotice(error.message);
        this.embedderState = { kind: 'unavailable', reason };
        this.log.warn(reason.text);
        return undefined;
      },
    );
    return this.embedderLoading;
  }

  /** Notices every answer carries: one-time ones (index rebuilt) and why retrieval is lexical only. */
  private standingNotices(): Notice[] {
    const problem = this.inWorker?.workerStatus.embedderProblem;
    const lexicalReason = problem
      ? [problem]
      : this.embedderState.kind === 'unavailable' && this.options.embedding
        ? [this.embedderState.reason]
        : [];
    return [...this.takeNotices(), ...lexicalReason];
  }

  private notice(notice: Notice): void {
    this.log.warn(notice.text);
    this.pendingNotices.push(notice);
  }

  private takeNotices(): Notice[] {
    const out = this.pendingNotices;
    this.pendingNotices = [];
    return out;
  }
}

/** Starts the index worker with the engine's settings (a download is reported through the engine's callback). */
function openWorkerStore(
  options: EngineOptions,
  worker: NonNullable<EngineOptions['worker']>,
): Promise<WorkerPassageStore> {
  const embedding = options.embedding ? { ...options.embedding } : false;
  const onDownloadProgress = embedding ? embedding.onDownloadProgress : undefined;
  if (embedding) delete embedding.onDownloadProgress;
  const log = options.log;
  return WorkerPassageStore.open({
    script: worker.script,
    indexDir: options.indexDir,
    docs: worker.docs,
    embedding,
    onDownloadProgress,
    log: log ? (level, message) => log[level](message) : undefined,
  });
}
