// What the workspace index (workspaceIndex.ts) needs of the editor: the local workspace folders
// and storage, the engine opened with this workspace's settings (the shared index's password from
// secret storage), file watchers, progress notifications, the `evident.indexed` context key.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { ContextKeys } from '../shared/ids';
import { indexWorkerScript, loadEngineApi } from './engineLoader';
import { engineLogger, isAbortError } from './log';
import { readIndexSettings, readLogLimits, readStoreConnection, settingTrustNotes } from './settings';
import type { StorePasswordStore } from './storePassword';
import { markWalkthroughStep } from './walkthrough';
import type { EngineRequest, IndexHost } from './workspaceIndex';

export function editorIndexHost(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  storePassword: StorePasswordStore,
): IndexHost {
  return {
    localFolders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file'),
    get storageDir() {
      return context.storageUri?.fsPath;
    },
    get globalStorageDir() {
      return context.globalStorageUri.fsPath;
    },
    docsFolderHoldingIndex: (indexDir, roots) => loadEngineApi().docsFolderHoldingIndex(indexDir, roots),
    openEngine: (request) => openEngine(request, context, log, storePassword),
    toSourcePath: (folders, fsPath) => loadEngineApi().toSourcePath(folders, fsPath),
    watch: (folders, onChange) => {
      const first = folders[0];
      if (!first) return [];
      const include = readIndexSettings(first.uri).include;
      const watchers: vscode.Disposable[] = [];
      for (const folder of folders) {
        for (const glob of include.length ? include : ['**/*.{md,markdown,mdx}']) {
          const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
          const changed = (uri: vscode.Uri) => onChange(uri.fsPath);
          watchers.push(
            watcher,
            watcher.onDidCreate(changed),
            watcher.onDidChange(changed),
            watcher.onDidDelete(changed),
          );
        }
      }
      return watchers;
    },
    showProgress: (options, task) =>
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: options.title, cancellable: options.cancellable },
        (progress, token) =>
          task(progress, (listener, thisArgs, disposables) =>
            token.onCancellationRequested(listener, thisArgs, disposables),
          ),
      ),
    inform: (message) => void vscode.window.showInformationMessage(message),
    setIndexed: (indexed) => void vscode.commands.executeCommand('setContext', ContextKeys.indexed, indexed),
    markIndexedStep: () => markWalkthroughStep('index', log),
    isCancellation: isAbortError,
  };
}

async function openEngine(
  request: EngineRequest,
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  storePassword: StorePasswordStore,
) {
  const { folder, folders, indexDir, storageDir } = request;
  const api = loadEngineApi();
  const settings = readIndexSettings(folder.uri);
  for (const note of settingTrustNotes(folder.uri)) log.warn(note);
  const connection = readStoreConnection();
  const password = connection ? await storePassword.get() : undefined;
  const docOptions = {
    include: settings.include.length ? settings.include : undefined,
    exclude: settings.exclude.length ? settings.exclude : undefined,
  };
  return api.Engine.open({
    ...(connection ? { store: { connectionString: connection, ...(password ? { password } : {}) } } : {}),
    docs: api.workspaceDocSource(folders, docOptions),
    indexDir,
    // The local index lives in the index worker, which reads the same folders itself.
    worker: { script: indexWorkerScript(), docs: { folders, ...docOptions } },
    embedding:
      settings.embeddingModel || settings.embeddingLocalPath
        ? {
            modelId: settings.embeddingModel || api.DEFAULT_EMBEDDING_MODEL,
            localModelPath: settings.embeddingLocalPath || undefined,
            cacheDir: path.join(context.globalStorageUri.fsPath, 'models'),
            allowRemote: !settings.embeddingLocalPath,
            backend: settings.embeddingBackend,
            onDownloadProgress: request.onDownloadProgress,
          }
        : false,
    topK: settings.topK,
    verifier: { threshold: settings.supportThreshold },
    relevanceCheck: settings.relevanceCheck,
    metricsLog: path.join(storageDir, 'metrics.jsonl'),
    auditLog: path.join(storageDir, 'audit.jsonl'),
    logLimits: readLogLimits(),
    log: engineLogger(log),
  });
}
