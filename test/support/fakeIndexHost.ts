// The editor side of the workspace index (src/host/workspaceIndex.ts's IndexHost) for running it
// under mocha: outside an editor there are no workspace folders, notifications or file watchers,
// so those are faked (a mock only where no real part can exist). The engine is real: it opens on
// a temporary docs folder with a real index on disk (lexical unless the options say otherwise).

import * as path from 'node:path';
import type * as vscode from 'vscode';
import {
  docsFolderHoldingIndex,
  Engine,
  toSourcePath,
  workspaceDocSource,
  type EngineOptions,
} from '../../src/core/engine';
import type { Event } from '../../src/host/emitter';
import type { EngineRequest, IndexHost } from '../../src/host/workspaceIndex';

export interface FakeIndexHost extends IndexHost {
  /** The titles of the progress notifications shown, in order. */
  readonly notifications: string[];
  /** Every value given to the `evident.indexed` context key. */
  readonly indexedKey: boolean[];
  readonly informed: string[];
  readonly indexedStepMarked: boolean;
  /** The engines opened (a reset opens a new one). */
  readonly engines: Engine[];
  /** The file watcher's change callback, as the index registered it last (undefined before). */
  changed?: (fsPath: string) => void;
  /** Presses Cancel on the next progress notification as soon as it shows. */
  cancelNextNotification(): void;
}

/**
 * A host whose one workspace folder is `docs` (none when undefined), with its storage under
 * `storage`. `engine` adds engine options (e.g. an embedding model) or wraps the engine opened.
 */
export function fakeIndexHost(options: {
  docs: string | undefined;
  storage: string;
  engine?: Partial<EngineOptions>;
  wrap?(engine: Engine): Engine;
}): FakeIndexHost {
  let cancelNext = false;
  const folders = options.docs
    ? [
        {
          name: path.basename(options.docs),
          index: 0,
          uri: { scheme: 'file', fsPath: options.docs },
        } as unknown as vscode.WorkspaceFolder,
      ]
    : [];
  const host: FakeIndexHost = {
    notifications: [],
    indexedKey: [],
    informed: [],
    indexedStepMarked: false,
    engines: [],
    localFolders: () => folders,
    storageDir: options.docs ? path.join(options.storage, 'workspace') : undefined,
    globalStorageDir: path.join(options.storage, 'global'),
    docsFolderHoldingIndex,
    toSourcePath,
    async openEngine(request: EngineRequest) {
      const opened = await Engine.open({
        docs: workspaceDocSource(request.folders),
        indexDir: request.indexDir,
        embedding: false,
        metricsLog: path.join(request.storageDir, 'metrics.jsonl'),
        auditLog: path.join(request.storageDir, 'audit.jsonl'),
        ...options.engine,
      });
      const engine = options.wrap ? options.wrap(opened) : opened;
      host.engines.push(engine);
      return engine;
    },
    watch(_folders, onChange) {
      host.changed = onChange;
      return [{ dispose: () => (host.changed = undefined) }];
    },
    showProgress(progressOptions, task) {
      host.notifications.push(progressOptions.title);
      const cancelAtOnce = cancelNext && progressOptions.cancellable === true;
      if (cancelAtOnce) cancelNext = false;
      const cancelled: Event<void> = (listener) => {
        if (cancelAtOnce) listener(undefined);
        return { dispose: () => undefined };
      };
      return task({ report: () => undefined }, cancelled);
    },
    inform: (message) => void host.informed.push(message),
    setIndexed: (indexed) => void host.indexedKey.push(indexed),
    markIndexedStep: () => void ((host as { indexedStepMarked: boolean }).indexedStepMarked = true),
    isCancellation: (error) => error instanceof Error && error.name === 'AbortError',
    cancelNextNotification: () => void (cancelNext = true),
  };
  return host;
}

/** A log that keeps its lines (the host's is the editor's output channel). */
export function memoryLog(): { lines: string[]; info(m: string): void; warn(m: string): void; error(m: string): void } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => void lines.push(`info: ${m}`),
    warn: (m) => void lines.push(`warn: ${m}`),
    error: (m) => void lines.push(`error: ${m}`),
  };
}
