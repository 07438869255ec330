// The palette commands (category "Evident"): reindex, clear index, ask (also about the
// selection), set or clear the Gemini key, open an answer in the editor, open metrics, run an
// evaluation set through the CLI, show logs, stop, clear history, and the internal openEvidence.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../shared/ids';
import { isEvidenceId, isTurnId, MAX_QUESTION_LENGTH, type TurnView } from '../shared/protocol';
import type { ChatSession } from './chatSession';
import { EXAMPLE_QUESTION, type ChatViewProvider } from './chatView';
import type { GeminiKeyStore } from './geminiKey';
import { errorMessage } from './log';
import type { SourceHighlighter } from './sourceHighlight';
import type { WorkspaceIndex } from './workspaceIndex';

const SELECTION_LIMIT = 600;

export interface CommandDeps {
  index: WorkspaceIndex;
  session: ChatSession;
  chatView: ChatViewProvider;
  keys: GeminiKeyStore;
  sources: SourceHighlighter;
  answers: { open(turnId: string): Promise<void> };
  log: vscode.LogOutputChannel;
}

function validateQuestion(value: string): string | undefined {
  if (!value.trim()) return 'Type a question.';
  return value.length > MAX_QUESTION_LENGTH ? `At most ${MAX_QUESTION_LENGTH} characters.` : undefined;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const { index, session, chatView, keys, log } = deps;

  const ask = async (question: string): Promise<TurnView> => {
    await chatView.reveal();
    return session.ask(question);
  };

  // A handler's value goes back to programmatic callers (`executeCommand` resolves to it). A
  // failure is logged and shown with "Open Logs" (not awaited: the caller does not wait for the
  // user), and the command resolves to undefined: rethrowing would make the palette add a modal
  // "Command … resulted in an error" dialog on top of the notification.
  const register = <T>(id: string, run: (...args: unknown[]) => T | Promise<T>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]): Promise<T | undefined> => {
        try {
          return await run(...args);
        } catch (error) {
          log.error(`${id}: ${errorMessage(error)}`);
          void vscode.window.showErrorMessage(`Evident: ${errorMessage(error)}`, 'Open Logs').then((choice) => {
            if (choice) log.show();
          });
          return undefined;
        }
      }),
    );

  register(Commands.reindex, async () => {
    if (!index.folder) throw new Error('Open a folder first: Evident indexes the Markdown files of a workspace folder.');
    const report = await index.reindex({ notify: true });
    if (report) {
      const skipped = report.skipped.length ? `, ${report.skipped.length} skipped (see logs)` : '';
      void vscode.window.showInformationMessage(
        `Evident: indexed ${report.documents} documents, ${report.passages} passages (${report.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'})${skipped}.`,
      );
    }
    return report;
  });

  register(Commands.clearIndex, async () => {
    await index.clear();
    void vscode.window.showInformationMessage('Evident: index cleared. Run "Evident: Reindex Workspace Docs" to build it again.');
  });

  /** Resolves to the finished turn (done, failed or cancelled), or undefined when no question was asked. */
  register(Commands.ask, async (arg?: unknown): Promise<TurnView | undefined> => {
    const preset = typeof arg === 'string' ? arg : undefined;
    const question =
      preset && !validateQuestion(preset)
        ? preset
        : await vscode.window.showInputBox({ title: 'Evident: Ask', prompt: 'Ask about the Markdown documents in this workspace', placeHolder: EXAMPLE_QUESTION, validateInput: validateQuestion, ignoreFocusOut: true });
    return question?.trim() ? ask(question.trim()) : undefined;
  });

  register(Commands.askSelection, async (): Promise<TurnView | undefined> => {
    const editor = vscode.window.activeTextEditor;
    const selected = editor ? editor.document.getText(editor.selection).replace(/\s+/g, ' ').trim().slice(0, SELECTION_LIMIT) : '';
    if (!selected) return vscode.commands.executeCommand<TurnView | undefined>(Commands.ask);
    const question = await vscode.window.showInputBox({
      title: 'Evident: Ask About Selection',
      prompt: `About: “${selected.length > 80 ? `${selected.slice(0, 80)}…` : selected}”`,
      value: `What do our documents say about “${selected}”?`,
      validateInput: validateQuestion,
      ignoreFocusOut: true,
    });
    return question?.trim() ? ask(question.trim()) : undefined;
  });

  register(Commands.setGeminiApiKey, async () => {
    const key = await vscode.window.showInputBox({
      title: 'Evident: Gemini API Key',
      prompt: 'Stored in VS Code\'s secret storage on this machine, never in settings.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'Paste a key, or press Escape.'),
    });
    if (!key?.trim()) return;
    await keys.set(key);
    log.info('Gemini API key stored in secret storage.');
    void vscode.window.showInformationMessage('Evident: Gemini API key saved.');
  });

  register(Commands.clearGeminiApiKey, async () => {
    await keys.clear();
    log.info('Gemini API key removed from secret storage.');
    void vscode.window.showInformationMessage('Evident: Gemini API key removed.');
  });

  register(Commands.openAnswerInEditor, async (turnId?: unknown) => {
    const id = isTurnId(turnId) ? turnId : session.current?.id;
    if (!id || !session.find(id)?.result) throw new Error('There is no answer to open yet: ask a question first.');
    await deps.answers.open(id);
  });

  register(Commands.openEvidence, async (turnId?: unknown, evidenceId?: unknown) => {
    return isTurnId(turnId) && isEvidenceId(evidenceId) ? deps.sources.open(turnId, evidenceId) : undefined;
  });

  register(Commands.openMetrics, async () => {
    const file = index.metricsLogPath;
    if (!file || !fs.existsSync(file)) {
      void vscode.window.showInformationMessage('Evident: no metrics yet. Each answer adds a line to the metrics log.');
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  });

  register(Commands.runEvaluation, async () => {
    const folder = index.folder;
    if (!folder) throw new Error('Open a folder first.');
    const picked = await vscode.window.showOpenDialog({
      title: 'Evident: pick an evaluation set (JSONL)',
      canSelectMany: false,
      defaultUri: folder.uri,
      filters: { 'Evaluation set': ['jsonl'] },
    });
    if (!picked?.[0]) return;
    // The CLI prints the report; run with this editor's own Node runtime.
    const terminal = vscode.window.createTerminal({
      name: 'Evident evaluation',
      shellPath: process.execPath,
      shellArgs: [path.join(context.extensionPath, 'dist', 'cli.js'), 'eval', '--docs', folder.uri.fsPath, '--set', picked[0].fsPath],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    context.subscriptions.push(terminal);
    terminal.show();
  });

  register(Commands.showLogs, () => log.show());
  register(Commands.stop, () => session.stop());
  register(Commands.clearHistory, () => session.clear());
}
