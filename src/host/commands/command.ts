// What every palette command receives, and the shape of one command: its id and what it runs.
// Each command lives in its own module of this folder; index.ts registers the list.

import type * as vscode from 'vscode';
import type { ChatSession } from '../chatSession';
import type { ChatViewProvider } from '../chatView';
import type { GeminiKeyStore } from '../geminiKey';
import type { SourceHighlighter } from '../sourceHighlight';
import type { StorePasswordStore } from '../storePassword';
import type { TextCheckView } from '../textCheckView';
import type { WorkspaceIndex } from '../workspaceIndex';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  index: WorkspaceIndex;
  session: ChatSession;
  chatView: ChatViewProvider;
  keys: GeminiKeyStore;
  storePassword: StorePasswordStore;
  sources: SourceHighlighter;
  answers: { open(turnId: string): Promise<void> };
  /** The metrics dashboard (metricsDashboard.ts). */
  dashboard: { show(): void };
  /** What "Check Text Against the Docs" shows in the editor. */
  textChecks: TextCheckView;
  log: vscode.LogOutputChannel;
}

/** One palette command. `run`'s value goes back to programmatic callers of `executeCommand`. */
export interface EvidentCommand {
  id: string;
  run(deps: CommandDeps, ...args: unknown[]): unknown;
}
