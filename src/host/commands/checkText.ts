// Evident: Check Text Against the Docs — the selection, or the whole document when nothing is
// selected (an answer pasted from any assistant, a PR description, a draft policy), checked
// sentence by sentence with the verifier (src/core/tools/textCheck.ts), with progress and
// cancellation; the editor then shows what is backed and what is not (textCheckView.ts).

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import { loadEngineApi } from '../engineLoader';
import { isAbortError } from '../log';
import { readIndexSettings } from '../settings';
import { describeSummary, type TextCheckSummary } from '../textCheckView';
import type { EvidentCommand } from './command';

export const checkText: EvidentCommand = {
  id: Commands.checkText,
  async run(deps, uri?: unknown): Promise<TextCheckSummary | undefined> {
    const editor = editorFor(uri);
    if (!editor) {
      void vscode.window.showInformationMessage(
        'Evident: open the text to check in an editor (select part of it to check only that part), then run "Check Text Against the Docs" again.',
      );
      return undefined;
    }
    const { document, selection } = editor;
    const range = selection.isEmpty
      ? new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length))
      : selection;
    const text = document.getText(range);
    const api = loadEngineApi();
    if (!text.trim()) {
      void vscode.window.showInformationMessage(
        `Evident: the ${selection.isEmpty ? 'document' : 'selection'} is empty: there is nothing to check.`,
      );
      return undefined;
    }
    if (text.length > api.tools.MAX_TEXT_CHARS) {
      void vscode.window.showWarningMessage(
        `Evident: the ${selection.isEmpty ? 'document' : 'selection'} is ${text.length.toLocaleString('en-US')} characters long; at most ${api.tools.MAX_TEXT_CHARS.toLocaleString('en-US')} are checked at once. Select a part and check it.`,
      );
      return undefined;
    }
    // A document that is itself indexed (a draft in the workspace) must not back itself.
    const excludeSource =
      document.uri.scheme === 'file' && deps.index.folders.length
        ? api.toSourcePath(deps.index.folders, document.uri.fsPath)
        : undefined;
    const topK = readIndexSettings(deps.index.folder?.uri).topK ?? api.DEFAULT_TOP_K;
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Evident: checking text against the docs',
        cancellable: true,
      },
      async (progress, token) => {
        const controller = new AbortController();
        const cancel = token.onCancellationRequested(() => controller.abort());
        try {
          progress.report({ message: 'opening the index…' });
          const engine = await deps.index.ready(() =>
            progress.report({ message: 'indexing the workspace docs first…' }),
          );
          let shown = 0;
          return await api.tools.checkText(text, engine, {
            k: topK,
            excludeSource,
            signal: controller.signal,
            onProgress: ({ done, total }) => {
              const percent = Math.floor((done / total) * 100);
              progress.report({ message: `sentence ${done} of ${total}`, increment: percent - shown });
              shown = percent;
            },
          });
        } catch (error) {
          if (isAbortError(error) || controller.signal.aborted) return undefined;
          throw error;
        } finally {
          cancel.dispose();
        }
      },
    );
    if (!result) {
      void vscode.window.showInformationMessage('Evident: the check was cancelled; nothing is marked.');
      return undefined;
    }
    const summary = deps.textChecks.show(document, document.offsetAt(range.start), result);
    void announce(summary);
    return summary;
  },
};

/** The editor of `uri` (from the explorer or an editor's context menu), else the active one. */
function editorFor(uri: unknown): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (!(uri instanceof vscode.Uri) || active?.document.uri.toString() === uri.toString()) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
}

/** The summary line, as a notification (screen readers announce it), with the way to the unbacked sentences. */
async function announce(summary: TextCheckSummary): Promise<void> {
  const message = `Evident: ${describeSummary(summary)}${summary.exempt ? ` (${summary.exempt} stated nothing to check)` : ''}.`;
  if (summary.dropped === 0) {
    void vscode.window.showInformationMessage(message);
    return;
  }
  const choice = await vscode.window.showWarningMessage(message, 'Show Problems');
  if (choice) await vscode.commands.executeCommand('workbench.actions.view.problems');
}
