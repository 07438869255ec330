// The workspace's passage index as the editor sees it: opens the engine lazily (first use loads
// the engine bundle), indexes the Markdown of every local workspace folder into workspace storage with a
// cancellable progress notification, keeps it current from a debounced file watcher, reports
// the embedding model's one-time download, and publishes an IndexView for the status bar and chat.
// The index itself lives in a worker thread (dist/indexWorker.js, started by the engine): reading,
// embedding and writing never block this event loop; questions are answered as soon as a run's
// lexical part is committed, while vectors fill in (the view carries the figure).
// What touches the editor and the engine bundle comes through `IndexHost` (workspaceIndexHost.ts
// wires the editor's): no `vscode` import at run time, the state machine is unit-tested in plain Node.

import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Engine, IndexProgress, IndexReport } from '../core/engine';
import type { DocFolder } from '../core/docs/docFolders';
import { MAX_SKIPPED_SHOWN, type IndexView } from '../shared/protocol';
import { Emitter, type Disposable, type Event } from './emitter';
import { errorMessage } from './errorMessage';
import type { SessionLog } from './chatSession';
import { HostError, isWorkerStopped } from './errorCodes';
import { lexicalOnlyReason } from './answerNotices';
import { describeIndexProgress, indexPercent } from '../domain/indexProgress';
import { partialRetrieval, shortVectorFill } from '../domain/partialRetrieval';
import { counted } from '../domain/wording';

const WATCH_DEBOUNCE_MS = 800;

/** A progress notification's reporter. */
export interface ProgressReporter {
  report(value: { message?: string; increment?: number }): void;
}

/** Shows a progress notification while `task` runs; `cancelled` fires when the user cancels it. */
export type ShowProgress = <T>(
  options: { title: string; cancellable?: boolean },
  task: (progress: ProgressReporter, cancelled: Event<void>) => Promise<T>,
) => PromiseLike<T>;

/** The engine's settings for this workspace, read when it opens (index settings, store, embedding). */
export interface EngineRequest {
  /** The first local folder: its settings scope the index settings. */
  folder: vscode.WorkspaceFolder;
  folders: DocFolder[];
  indexDir: string;
  /** This workspace's storage folder (the metrics and audit logs). */
  storageDir: string;
  onDownloadProgress(p: { file: string; loaded: number; total: number }): void;
}

/** What the workspace index needs of the editor and the engine bundle. */
export interface IndexHost {
  /** The local (file) workspace folders. */
  localFolders(): readonly vscode.WorkspaceFolder[];
  /** This workspace's storage folder (none with no folder open), and the window's. */
  readonly storageDir: string | undefined;
  readonly globalStorageDir: string;
  /** The docs folder of `roots` that would hold `indexDir`, if any (Evident never writes inside documents). */
  docsFolderHoldingIndex(indexDir: string, roots: string[]): string | undefined;
  /** Opens the engine with this workspace's settings. */
  openEngine(request: EngineRequest): Promise<Engine>;
  /** A file's path as the index names it (docs-relative), or undefined when it is not a doc. */
  toSourcePath(folders: DocFolder[], fsPath: string): string | undefined;
  /** Watches the indexed files of `folders` (changes, additions, deletions). */
  watch(folders: readonly vscode.WorkspaceFolder[], onChange: (fsPath: string) => void): Disposable[];
  showProgress: ShowProgress;
  /** A message the user reads (the shared index is not cleared from here). */
  inform(message: string): void;
  /** Whether the workspace has an index to answer from (the `evident.indexed` context key). */
  setIndexed(indexed: boolean): void;
  /** The walkthrough's "index" step is done. */
  markIndexedStep(): void;
  /** Whether `error` is a cancellation. */
  isCancellation(error: unknown): boolean;
}

/** A notification shown while the embedding model downloads (once per machine). */
class DownloadNotice {
  private finish: (() => void) | undefined;
  private progress: ProgressReporter | undefined;
  private readonly files = new Map<string, { loaded: number; total: number }>();
  private shown = 0;

  constructor(private readonly showProgress: ShowProgress) {}

  report(p: { file: string; loaded: number; total: number }): void {
    this.files.set(p.file, { loaded: p.loaded, total: p.total });
    if (!this.finish) {
      void this.showProgress(
        { title: 'Evident: downloading the embedding model (once)' },
        (progress) =>
          new Promise<void>((resolve) => {
            this.progress = progress;
            this.finish = resolve;
          }),
      );
    }
    let loaded = 0;
    let total = 0;
    for (const f of this.files.values()) {
      loaded += f.loaded;
      total += f.total;
    }
    const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
    this.progress?.report({ message: `${p.file} · ${percent}%`, increment: Math.max(0, percent - this.shown) });
    this.shown = Math.max(this.shown, percent);
  }

  done(): void {
    this.finish?.();
    this.finish = undefined;
    this.progress = undefined;
    this.files.clear();
    this.shown = 0;
  }
}

export class WorkspaceIndex implements Disposable {
  private enginePromise: Promise<Engine> | undefined;
  /** The previous engine closing (its worker terminating): a new engine waits for it. */
  private closing: Promise<void> = Promise.resolve();
  private view: IndexView;
  private queue: Promise<unknown> = Promise.resolve();
  /** Settles when the latest queued run has committed its lexical part (or ended): answers may start. */
  private usable: Promise<void> = Promise.resolve();
  private queuedRuns = 0;
  private running: AbortController | undefined;
  /** The running run has committed its lexical part and is filling in vectors. */
  private filling = false;
  /** A run stopped in its fill so that a newer one (an edit) goes first; the newer one resumes the fill. */
  private preempted: AbortController | undefined;
  private readonly pendingPaths = new Set<string>();
  /** Files the index skipped, with the reason (from each run's report; a run of some paths updates those). */
  private readonly skipped = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchers: Disposable[] = [];
  private readonly download: DownloadNotice;
  private readonly emitter = new Emitter<IndexView>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly host: IndexHost,
    private readonly log: SessionLog,
  ) {
    this.download = new DownloadNotice(host.showProgress);
    this.view = { state: this.folder ? 'not-indexed' : 'no-folder', documents: 0, passages: 0, retrieval: 'lexical' };
  }

  /** The first local workspace folder (its settings scope the index settings). */
  get folder(): vscode.WorkspaceFolder | undefined {
    return this.localFolders[0];
  }

  /** Every local workspace folder: all their Markdown is indexed together. */
  get folders(): DocFolder[] {
    return this.localFolders.map((f) => ({ name: f.name, root: f.uri.fsPath }));
  }

  private get localFolders(): vscode.WorkspaceFolder[] {
    return [...this.host.localFolders()];
  }

  get status(): IndexView {
    return this.view;
  }

  /** Where the metrics log of this workspace is written. */
  get metricsLogPath(): string | undefined {
    return this.host.storageDir ? path.join(this.host.storageDir, 'metrics.jsonl') : undefined;
  }

  /** The metrics and audit logs of this workspace (of the window, with no folder open). */
  get logPaths(): { metrics: string; audit: string } {
    const dir = this.host.storageDir ?? path.join(this.host.globalStorageDir, 'no-folder');
    return { metrics: path.join(dir, 'metrics.jsonl'), audit: path.join(dir, 'audit.jsonl') };
  }

  /** The engine for this workspace, opened on first call. */
  engine(): Promise<Engine> {
    this.enginePromise ??= this.openEngine().catch((error: unknown) => {
      this.enginePromise = undefined;
      this.update({ state: 'error', message: errorMessage(error) });
      throw error;
    });
    return this.enginePromise;
  }

  /** The engine, indexed: indexes first (with a notification) when nothing is indexed yet. */
  async ready(onIndexing?: () => void): Promise<Engine> {
    const engine = await this.engine();
    // Not the whole run: answers work once its lexical part is committed (vectors fill in after).
    await this.usable;
    if (!engine.status().indexed && isShared(engine)) {
      throw new HostError(
        `The ${engine.storeLabel} has never been indexed: its indexer (usually the docs repository's CI) runs "evident index --docs DIR --store …".`,
        'index-unavailable',
      );
    }
    if (!engine.status().indexed) {
      onIndexing?.();
      const run = this.reindex({ notify: true });
      run.catch(() => undefined);
      // Its lexical commit is enough to answer (a failure before it is the turn's error).
      await Promise.race([this.usable, run]);
      if (!engine.status().indexed) {
        throw new HostError(
          'The workspace is not indexed yet: run "Evident: Reindex Workspace Docs".',
          'index-unavailable',
        );
      }
    }
    // Indexed with nothing to answer from: the run's end says why (the files it skipped), and
    // the turn's error names it; such a run has no vectors to fill in, so it ends at once.
    const s = engine.status();
    if (s.indexed && s.passages === 0 && !isShared(engine)) await this.queue;
    return engine;
  }

  /** Opens the engine after activation and brings the index up to date (full index if none). */
  async warmUp(): Promise<void> {
    if (!this.folder) return;
    try {
      const engine = await this.engine();
      // A reindex asked for meanwhile (the command that activated us) does the same work.
      if (this.queuedRuns === 0) await this.reindex({ notify: !engine.status().indexed });
    } catch (error) {
      if (!this.host.isCancellation(error)) this.log.error(`Could not open the index: ${errorMessage(error)}`);
    }
  }

  /** Queues an index run: all files, or only `paths` (docs-relative) from the watcher. */
  reindex(options: { notify: boolean; paths?: string[] }): Promise<IndexReport | undefined> {
    // A run filling in vectors (which may take long) makes way: it keeps what it committed, and
    // the new run embeds the passages still without a vector, its own and the others'.
    if (this.running && this.filling) {
      this.preempted = this.running;
      this.running.abort();
    }
    this.queuedRuns++;
    let usable!: () => void;
    this.usable = new Promise<void>((resolve) => (usable = resolve));
    const run = this.queue.then(
      () => this.run(options, usable),
      () => this.run(options, usable),
    );
    this.queue = run
      .catch(() => undefined)
      .finally(() => {
        usable();
        this.queuedRuns--;
      });
    return run;
  }

  /** Stops a running index and deletes the index. */
  async clear(): Promise<void> {
    this.running?.abort();
    this.pendingPaths.clear();
    const engine = await this.engine();
    if (isShared(engine)) {
      this.host.inform(
        `Evident: the ${engine.storeLabel} is kept by its indexer (usually CI); Evident does not clear it from here.`,
      );
      return;
    }
    await this.queue;
    await engine.clear();
    this.log.info('Index cleared.');
    this.skipped.clear();
    this.update({
      state: 'not-indexed',
      documents: 0,
      passages: 0,
      message: undefined,
      percent: undefined,
      skipped: undefined,
    });
  }

  /** Settings changed: the next use opens a fresh engine; an existing index is brought up to date. */
  reset(): void {
    const wasOpen = this.enginePromise !== undefined;
    this.running?.abort();
    // A shared index holds connections: the old engine lets them go (after its running queries).
    // The old index worker is terminated before a new one opens the same folder (one writer).
    this.closing = this.enginePromise?.then((old) => old.close()).catch(() => undefined) ?? Promise.resolve();
    this.enginePromise = undefined;
    if (!this.folder) this.update({ state: 'no-folder', documents: 0, passages: 0 });
    else if (this.view.state === 'no-folder') this.update({ state: 'not-indexed' });
    this.startWatching();
    if (wasOpen) void this.warmUp();
  }

  /** Watches the indexed file types and indexes changes, additions and deletions (debounced). */
  startWatching(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    if (!this.folder) return;
    this.watchers = this.host.watch(this.localFolders, (fsPath) => this.changed(fsPath));
  }

  dispose(): void {
    this.running?.abort();
    // The index worker is terminated with its engine (what it committed stays on disk).
    void this.enginePromise?.then((engine) => engine.close()).catch(() => undefined);
    this.enginePromise = undefined;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
    this.download.done();
    this.emitter.dispose();
  }

  private changed(fsPath: string): void {
    const rel = this.host.toSourcePath(this.folders, fsPath);
    if (!rel) return;
    this.pendingPaths.add(rel);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const paths = [...this.pendingPaths];
      this.pendingPaths.clear();
      // Changes before the first index are picked up by that index.
      if (this.enginePromise && this.view.state !== 'not-indexed' && this.view.state !== 'no-folder') {
        void this.reindex({ notify: false, paths }).catch(() => undefined);
      }
    }, WATCH_DEBOUNCE_MS);
  }

  private async openEngine(): Promise<Engine> {
    const folder = this.folder;
    const storage = this.host.storageDir;
    if (!folder || !storage) {
      throw new HostError(
        'Open a folder to use Evident: it answers from the Markdown files of a workspace folder.',
        'index-unavailable',
      );
    }
    await this.closing;
    const indexDir = path.join(storage, 'index');
    const holder = this.host.docsFolderHoldingIndex(
      indexDir,
      this.folders.map((f) => f.root),
    );
    if (holder !== undefined) {
      throw new HostError(
        `The index would be written inside the workspace folder ${holder} (VS Code keeps this workspace's storage at ${storage}), ` +
          "and Evident never writes inside your documents. Open a folder that does not contain VS Code's data folder.",
        'index-unavailable',
      );
    }
    const started = Date.now();
    const engine = await this.host.openEngine({
      folder,
      folders: this.folders,
      indexDir,
      storageDir: storage,
      onDownloadProgress: (p) => this.download.report(p),
    });
    this.log.info(
      `Engine opened for ${folder.uri.fsPath} in ${Date.now() - started} ms; answers come from the ${engine.storeLabel}.`,
    );
    this.updateFrom(engine);
    return engine;
  }

  private async run(
    options: { notify: boolean; paths?: string[] },
    usable: () => void = () => undefined,
  ): Promise<IndexReport | undefined> {
    const engine = await this.engine();
    // A shared index is kept current by its own indexer (CI): nothing is indexed from here.
    if (isShared(engine)) {
      this.updateFrom(engine);
      return undefined;
    }
    const controller = new AbortController();
    this.running = controller;
    // The embedding model is loaded (or found unavailable) before the first progress report.
    let embedsKnown: boolean | undefined;
    const embeds = (): boolean => (embedsKnown ??= engine.embeddingReady);
    this.update({
      state: 'indexing',
      percent: 0,
      phase: 'scanning',
      done: undefined,
      total: undefined,
      message: undefined,
    });
    const onLexicalReady = () => {
      // Committed by words: answers work now; the view keeps "indexing" while vectors fill in.
      const s = engine.status();
      this.host.setIndexed(s.indexed);
      this.update({ documents: s.documents, passages: s.passages, retrieval: s.retrieval, vectors: s.vectors });
      // The model is loaded by now (the worker loads it before the run): a download notice ends.
      this.download.done();
      if (this.running === controller) this.filling = true;
      usable();
    };
    const index = (onProgress: (p: IndexProgress) => void) =>
      engine.index({ signal: controller.signal, onProgress, paths: options.paths, onLexicalReady });
    try {
      const report = options.notify
        ? await this.host.showProgress(
            { title: 'Evident: indexing workspace docs', cancellable: true },
            async (progress, cancelled) => {
              const cancel = cancelled(() => controller.abort());
              let shown = 0;
              try {
                return await index((p) => {
                  const percent = this.progressPercent(p, embeds());
                  const vectors =
                    p.vectors && partialRetrieval(p.vectors)
                      ? ` · answers work already (${shortVectorFill(p.vectors)})`
                      : '';
                  progress.report({
                    message: `${describeIndexProgress(p)}${vectors}`,
                    increment: Math.max(0, percent - shown),
                  });
                  shown = Math.max(shown, percent);
                });
              } finally {
                cancel.dispose();
              }
            },
          )
        : await index((p) => this.progressPercent(p, embeds()));
      this.log.info(
        `Indexed ${counted(report.documents, 'document')}, ${counted(report.passages, 'passage')} (${report.added} added, ${report.updated} updated, ` +
          `${report.removed} removed, ${report.unchanged} unchanged, ${report.skipped.length} skipped) in ${report.ms} ms · ${report.retrieval}.`,
      );
      this.recordSkipped(report.skipped, options.paths);
      this.updateFrom(engine, lexicalOnlyReason(report.notices));
      return report;
    } catch (error) {
      // Cancelled, or stopped by a settings change or deactivation (the worker is terminated then).
      if (this.preempted === controller) {
        this.log.info('Filling in vectors paused for a newer index run, which resumes it; what was committed is kept.');
        return undefined;
      }
      if (this.host.isCancellation(error) || controller.signal.aborted) {
        // What was committed stays (the lexical part, the vectors computed so far): the view says so.
        this.log.info('Indexing cancelled; what was committed is kept.');
        const s = engine.status();
        this.update({
          state: s.indexed ? 'indexed' : 'not-indexed',
          percent: undefined,
          phase: undefined,
          done: undefined,
          total: undefined,
          documents: s.documents,
          passages: s.passages,
          retrieval: s.retrieval,
          vectors: s.vectors,
          message: s.vectors
            ? 'Indexing was cancelled: the vectors computed so far are kept; reindex to compute the rest.'
            : 'Indexing was cancelled.',
        });
        return undefined;
      }
      if (isWorkerStopped(error)) this.enginePromise = undefined;
      this.log.error(`Indexing failed: ${errorMessage(error)}`);
      this.update({
        state: 'error',
        percent: undefined,
        phase: undefined,
        done: undefined,
        total: undefined,
        message: `Indexing failed: ${errorMessage(error)}`,
      });
      throw error;
    } finally {
      this.download.done();
      if (this.running === controller) {
        this.running = undefined;
        this.filling = false;
      }
      if (this.preempted === controller) this.preempted = undefined;
    }
  }

  /** Updates the "indexing N%" state (phase and counts for the chat view) and returns the percentage. */
  private progressPercent(p: IndexProgress, embeds: boolean): number {
    // Embedding has its own span (50–99%), entered once: when the model finished loading only after
    // the lexical part (a first download), the run's share restarts there rather than sticking at 95%.
    const entering = p.phase === 'embedding' && this.view.phase !== 'embedding';
    const percent = Math.max(
      entering ? 0 : (this.view.percent ?? 0),
      indexPercent(p, embeds || p.phase === 'embedding'),
    );
    const total = p.total > 0 ? p.total : undefined;
    const done = total !== undefined ? p.done : undefined;
    // Filling in vectors (the lexical part is committed): the figure rides along, searches are hybrid.
    const filling = p.vectors !== undefined && partialRetrieval(p.vectors) !== undefined;
    const vectors = p.vectors ? (filling ? p.vectors : undefined) : this.view.vectors;
    if (
      percent !== this.view.percent ||
      p.phase !== this.view.phase ||
      done !== this.view.done ||
      total !== this.view.total ||
      vectors !== this.view.vectors
    ) {
      this.update({
        state: 'indexing',
        percent,
        phase: p.phase,
        done,
        total,
        vectors,
        ...(filling ? { retrieval: 'hybrid' as const } : {}),
      });
    }
    return percent;
  }

  private updateFrom(engine: Engine, message?: string): void {
    const s = engine.status();
    // The walkthrough's "Index your documents" step completes on this context key, and the host
    // also marks it done directly (walkthrough.ts says why).
    this.host.setIndexed(s.indexed);
    if (s.indexed) this.host.markIndexedStep();
    this.update({
      state: s.indexed ? 'indexed' : 'not-indexed',
      phase: undefined,
      done: undefined,
      total: undefined,
      documents: s.documents,
      passages: s.passages,
      retrieval: s.retrieval,
      percent: undefined,
      message: s.retrieval === 'lexical' ? (message ?? this.view.message) : undefined,
      store: isShared(engine) ? engine.storeLabel : undefined,
      vectors: s.vectors,
    });
  }

  /** A full run's skipped files replace the list; a run of some paths settles those paths only. */
  private recordSkipped(
    skipped: readonly { path: string; reason: string }[],
    paths: readonly string[] | undefined,
  ): void {
    if (paths) for (const p of paths) this.skipped.delete(p);
    else this.skipped.clear();
    for (const s of skipped) this.skipped.set(s.path, s.reason);
    const files = [...this.skipped]
      .sort(([a], [b]) => a.localeCompare(b))
      .slice(0, MAX_SKIPPED_SHOWN)
      .map(([path, reason]) => ({ path, reason }));
    this.view = { ...this.view, skipped: files.length ? { files, total: this.skipped.size } : undefined };
  }

  private update(change: Partial<IndexView>): void {
    this.view = { ...this.view, ...change };
    this.emitter.fire(this.view);
  }
}

/** Answers come from a shared team index (PostgreSQL), not this workspace's own index. */
function isShared(engine: Engine): boolean {
  return engine.shared;
}
