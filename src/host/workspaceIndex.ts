// The workspace's passage index as the editor sees it: opens the engine lazily (first use loads
// the engine bundle), indexes the Markdown of every local workspace folder into workspace storage with a
// cancellable progress notification, keeps it current from a debounced file watcher, reports
// the embedding model's one-time download, and publishes an IndexView for the status bar and chat.

import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Engine, IndexProgress, IndexReport } from '../core/engine';
import type { DocFolder } from '../core/docs/docFolders';
import type { IndexView } from '../shared/protocol';
import { loadEngineApi } from './engineLoader';
import { engineLogger, errorMessage, isAbortError } from './log';
import { readIndexSettings, readLogLimits, readStoreConnection, settingTrustNotes } from './settings';
import type { StorePasswordStore } from './storePassword';
import { ContextKeys, walkthroughStepId } from '../shared/ids';

/** VS Code's command that marks a walkthrough step complete (and stores it). */
const WORKBENCH_MARK_STEP_COMPLETE = 'welcome.markStepComplete';
import { describeIndexProgress, indexPercent } from '../domain/indexProgress';

const WATCH_DEBOUNCE_MS = 800;

/** A notification shown while the embedding model downloads (once per machine). */
class DownloadNotice {
  private finish: (() => void) | undefined;
  private progress: vscode.Progress<{ message?: string; increment?: number }> | undefined;
  private readonly files = new Map<string, { loaded: number; total: number }>();
  private shown = 0;

  report(p: { file: string; loaded: number; total: number }): void {
    this.files.set(p.file, { loaded: p.loaded, total: p.total });
    if (!this.finish) {
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Evident: downloading the embedding model (once)' },
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

export class WorkspaceIndex implements vscode.Disposable {
  private enginePromise: Promise<Engine> | undefined;
  private view: IndexView;
  private queue: Promise<unknown> = Promise.resolve();
  private queuedRuns = 0;
  private running: AbortController | undefined;
  private readonly pendingPaths = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchers: vscode.Disposable[] = [];
  private readonly download = new DownloadNotice();
  private indexStepMarked = false;
  private readonly emitter = new vscode.EventEmitter<IndexView>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    /** The shared index's password (secret storage), when `evident.store.connection` is set. */
    readonly storePassword: StorePasswordStore,
  ) {
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
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  get status(): IndexView {
    return this.view;
  }

  /** Where the metrics log of this workspace is written. */
  get metricsLogPath(): string | undefined {
    return this.context.storageUri ? path.join(this.context.storageUri.fsPath, 'metrics.jsonl') : undefined;
  }

  /** The metrics and audit logs of this workspace (of the window, with no folder open). */
  get logPaths(): { metrics: string; audit: string } {
    const dir = this.context.storageUri?.fsPath ?? path.join(this.context.globalStorageUri.fsPath, 'no-folder');
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
    await this.queue.catch(() => undefined);
    if (!engine.status().indexed && isShared(engine)) {
      throw new Error(`The ${engine.storeLabel} has never been indexed: its indexer (usually the docs repository's CI) runs "evident index --docs DIR --store …".`);
    }
    if (!engine.status().indexed) {
      onIndexing?.();
      await this.reindex({ notify: true });
      if (!engine.status().indexed) throw new Error('The workspace is not indexed yet: run "Evident: Reindex Workspace Docs".');
    }
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
      if (!isAbortError(error)) this.log.error(`Could not open the index: ${errorMessage(error)}`);
    }
  }

  /** Queues an index run: all files, or only `paths` (docs-relative) from the watcher. */
  reindex(options: { notify: boolean; paths?: string[] }): Promise<IndexReport | undefined> {
    this.queuedRuns++;
    const run = this.queue.then(
      () => this.run(options),
      () => this.run(options),
    );
    this.queue = run.catch(() => undefined).finally(() => this.queuedRuns--);
    return run;
  }

  /** Stops a running index and deletes the index. */
  async clear(): Promise<void> {
    this.running?.abort();
    this.pendingPaths.clear();
    const engine = await this.engine();
    if (isShared(engine)) {
      void vscode.window.showInformationMessage(`Evident: the ${engine.storeLabel} is kept by its indexer (usually CI); Evident does not clear it from here.`);
      return;
    }
    await this.queue;
    await engine.clear();
    this.log.info('Index cleared.');
    this.update({ state: 'not-indexed', documents: 0, passages: 0, message: undefined, percent: undefined });
  }

  /** Settings changed: the next use opens a fresh engine; an existing index is brought up to date. */
  reset(): void {
    const wasOpen = this.enginePromise !== undefined;
    this.running?.abort();
    // A shared index holds connections: the old engine lets them go (after its running queries).
    void this.enginePromise?.then((old) => old.close()).catch(() => undefined);
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
    const first = this.folder;
    if (!first) return;
    const include = readIndexSettings(first.uri).include;
    for (const folder of this.localFolders) {
      for (const glob of include.length ? include : ['**/*.{md,markdown,mdx}']) {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
        const onChange = (uri: vscode.Uri) => this.changed(uri);
        this.watchers.push(watcher, watcher.onDidCreate(onChange), watcher.onDidChange(onChange), watcher.onDidDelete(onChange));
      }
    }
  }

  dispose(): void {
    this.running?.abort();
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers) w.dispose();
    this.download.done();
    this.emitter.dispose();
  }

  private changed(uri: vscode.Uri): void {
    const rel = loadEngineApi().toSourcePath(this.folders, uri.fsPath);
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
    const storage = this.context.storageUri;
    if (!folder || !storage) throw new Error('Open a folder to use Evident: it answers from the Markdown files of a workspace folder.');
    const api = loadEngineApi();
    const indexDir = path.join(storage.fsPath, 'index');
    const holder = api.docsFolderHoldingIndex(indexDir, this.folders.map((f) => f.root));
    if (holder !== undefined) {
      throw new Error(
        `The index would be written inside the workspace folder ${holder} (VS Code keeps this workspace's storage at ${storage.fsPath}), ` +
          'and Evident never writes inside your documents. Open a folder that does not contain VS Code\'s data folder.',
      );
    }
    const settings = readIndexSettings(folder.uri);
    for (const note of settingTrustNotes(folder.uri)) this.log.warn(note);
    const started = Date.now();
    const connection = readStoreConnection();
    const password = connection ? await this.storePassword.get() : undefined;
    const engine = await api.Engine.open({
      ...(connection ? { store: { connectionString: connection, ...(password ? { password } : {}) } } : {}),
      docs: api.workspaceDocSource(this.folders, {
        include: settings.include.length ? settings.include : undefined,
        exclude: settings.exclude.length ? settings.exclude : undefined,
      }),
      indexDir,
      embedding:
        settings.embeddingModel || settings.embeddingLocalPath
          ? {
              modelId: settings.embeddingModel || api.DEFAULT_EMBEDDING_MODEL,
              localModelPath: settings.embeddingLocalPath || undefined,
              cacheDir: path.join(this.context.globalStorageUri.fsPath, 'models'),
              allowRemote: !settings.embeddingLocalPath,
              backend: settings.embeddingBackend,
              onDownloadProgress: (p) => this.download.report(p),
            }
          : false,
      topK: settings.topK,
      verifier: { threshold: settings.supportThreshold },
      relevanceCheck: settings.relevanceCheck,
      metricsLog: path.join(storage.fsPath, 'metrics.jsonl'),
      auditLog: path.join(storage.fsPath, 'audit.jsonl'),
      logLimits: readLogLimits(),
      log: engineLogger(this.log),
    });
    this.log.info(`Engine opened for ${folder.uri.fsPath} in ${Date.now() - started} ms; answers come from the ${engine.storeLabel}.`);
    this.updateFrom(engine);
    return engine;
  }

  private async run(options: { notify: boolean; paths?: string[] }): Promise<IndexReport | undefined> {
    const engine = await this.engine();
    // A shared index is kept current by its own indexer (CI): nothing is indexed from here.
    if (isShared(engine)) {
      this.updateFrom(engine);
      return undefined;
    }
    const controller = new AbortController();
    this.running = controller;
    const before = engine.status();
    // The embedding model is loaded (or found unavailable) before the first progress report.
    let embedsKnown: boolean | undefined;
    const embeds = (): boolean => (embedsKnown ??= engine.embeddingReady);
    this.update({ state: 'indexing', percent: 0, phase: 'scanning', done: undefined, total: undefined, message: undefined });
    const index = (onProgress: (p: IndexProgress) => void) => engine.index({ signal: controller.signal, onProgress, paths: options.paths });
    try {
      const report = options.notify
        ? await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: 'Evident: indexing workspace docs', cancellable: true },
            async (progress, token) => {
              const cancel = token.onCancellationRequested(() => controller.abort());
              let shown = 0;
              try {
                return await index((p) => {
                  const percent = this.progressPercent(p, embeds());
                  progress.report({ message: describeIndexProgress(p), increment: Math.max(0, percent - shown) });
                  shown = Math.max(shown, percent);
                });
              } finally {
                cancel.dispose();
              }
            },
          )
        : await index((p) => this.progressPercent(p, embeds()));
      this.log.info(
        `Indexed ${report.documents} documents, ${report.passages} passages (${report.added} added, ${report.updated} updated, ` +
          `${report.removed} removed, ${report.unchanged} unchanged, ${report.skipped.length} skipped) in ${report.ms} ms · ${report.retrieval}.`,
      );
      this.updateFrom(engine, report.notices.find((n) => /lexical/i.test(n)));
      return report;
    } catch (error) {
      if (isAbortError(error)) {
        this.log.info('Indexing cancelled.');
        this.update({ state: before.indexed ? 'indexed' : 'not-indexed', percent: undefined, phase: undefined, done: undefined, total: undefined, message: 'Indexing was cancelled.' });
        return undefined;
      }
      this.log.error(`Indexing failed: ${errorMessage(error)}`);
      this.update({ state: 'error', percent: undefined, phase: undefined, done: undefined, total: undefined, message: `Indexing failed: ${errorMessage(error)}` });
      throw error;
    } finally {
      this.download.done();
      if (this.running === controller) this.running = undefined;
    }
  }

  /** Updates the "indexing N%" state (phase and counts for the chat view) and returns the percentage. */
  private progressPercent(p: IndexProgress, embeds: boolean): number {
    const percent = Math.max(this.view.percent ?? 0, indexPercent(p, embeds));
    const total = p.total > 0 ? p.total : undefined;
    const done = total !== undefined ? p.done : undefined;
    if (percent !== this.view.percent || p.phase !== this.view.phase || done !== this.view.done || total !== this.view.total) {
      this.update({ state: 'indexing', percent, phase: p.phase, done, total });
    }
    return percent;
  }


  private updateFrom(engine: Engine, message?: string): void {
    const s = engine.status();
    // The walkthrough's "Index your documents" step completes on this context key, but only if
    // VS Code's walkthrough service already exists when the key turns true: the service is created
    // on first use, and a step whose `onContext` condition already holds when it registers is never
    // ticked in that window. So the host also marks the step done directly, which VS Code stores.
    void vscode.commands.executeCommand('setContext', ContextKeys.indexed, s.indexed);
    if (s.indexed) this.markIndexStepDone();
    this.update({
      state: s.indexed ? 'indexed' : 'not-indexed',
      phase: undefined,
      done: undefined,
      total: undefined,
      documents: s.documents,
      passages: s.passages,
      retrieval: s.retrieval,
      percent: undefined,
      message: s.retrieval === 'lexical' ? message ?? this.view.message : undefined,
      store: isShared(engine) ? engine.storeLabel : undefined,
    });
  }

  /** Ticks the walkthrough step "Index your documents" (once a window; VS Code keeps it per profile). */
  private markIndexStepDone(): void {
    if (this.indexStepMarked) return;
    this.indexStepMarked = true;
    // An internal workbench command (other editors may lack it); a walkthrough not yet registered
    // makes it throw after it stored the progress. Neither is worth more than a log line.
    void Promise.resolve(vscode.commands.executeCommand(WORKBENCH_MARK_STEP_COMPLETE, walkthroughStepId('index'))).catch((error: unknown) => {
      this.log.info(`Walkthrough step not marked: ${errorMessage(error)}`);
    });
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
