// The "Evident" log output channel, and the engine's logger on top of it. Secrets never go
// through here: callers log what happened, not the key.

import * as vscode from 'vscode';
import type { EngineLogger } from '../core/engine';

export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const log = vscode.window.createOutputChannel('Evident', { log: true });
  context.subscriptions.push(log);
  return log;
}

export function engineLogger(log: vscode.LogOutputChannel): EngineLogger {
  return {
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
  };
}

/** A message for the user from anything thrown. */
export { errorMessage } from './errorMessage';

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error instanceof vscode.CancellationError);
}
