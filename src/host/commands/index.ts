// The palette commands (category "Evident"), one module each, registered from one list. A
// command's failure is logged and shown with "Open Logs", never thrown back at the palette.

import * as vscode from 'vscode';
import { errorMessage } from '../log';
import { ask } from './ask';
import { askSelection } from './askSelection';
import { chooseModel } from './chooseModel';
import { clearGeminiApiKey } from './clearGeminiApiKey';
import { clearHistory } from './clearHistory';
import { clearIndex } from './clearIndex';
import type { CommandDeps, EvidentCommand } from './command';
import { openAnswerInEditor } from './openAnswerInEditor';
import { openEvidence } from './openEvidence';
import { openMetrics } from './openMetrics';
import { showMetrics } from './showMetrics';
import { reindex } from './reindex';
import { runEvaluation } from './runEvaluation';
import { setGeminiApiKey } from './setGeminiApiKey';
import { setStorePassword } from './setStorePassword';
import { clearStorePassword } from './clearStorePassword';
import { showLogs } from './showLogs';
import { stop } from './stop';
import { checkText } from './checkText';
import { clearTextCheck } from './clearTextCheck';

export type { CommandDeps } from './command';

export const COMMANDS: readonly EvidentCommand[] = [
  reindex,
  clearIndex,
  ask,
  askSelection,
  chooseModel,
  setGeminiApiKey,
  clearGeminiApiKey,
  setStorePassword,
  clearStorePassword,
  openAnswerInEditor,
  openEvidence,
  showMetrics,
  openMetrics,
  runEvaluation,
  showLogs,
  stop,
  clearHistory,
  checkText,
  clearTextCheck,
];

export function registerCommands(context: vscode.ExtensionContext, deps: Omit<CommandDeps, 'context'>): void {
  const all: CommandDeps = { ...deps, context };
  for (const command of COMMANDS) context.subscriptions.push(register(command, all));
}

/**
 * A handler's value goes back to programmatic callers (`executeCommand` resolves to it). A
 * failure is logged and shown with "Open Logs" (not awaited: the caller does not wait for the
 * user), and the command resolves to undefined: rethrowing would make the palette add a modal
 * "Command … resulted in an error" dialog on top of the notification.
 */
function register(command: EvidentCommand, deps: CommandDeps): vscode.Disposable {
  const { log } = deps;
  return vscode.commands.registerCommand(command.id, async (...args: unknown[]): Promise<unknown> => {
    try {
      return await command.run(deps, ...args);
    } catch (error) {
      log.error(`${command.id}: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`Evident: ${errorMessage(error)}`, 'Open Logs').then((choice) => {
        if (choice) log.show();
      });
      return undefined;
    }
  });
}
