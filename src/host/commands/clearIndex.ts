// Evident: Clear Index — removes the index of this workspace (the documents are untouched), after
// a confirmation that says what it costs.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const CLEAR_INDEX_CONFIRM = 'Clear Index';

export const clearIndex: EvidentCommand = {
  id: Commands.clearIndex,
  /** Resolves to true when the index was cleared. */
  async run({ index }): Promise<boolean> {
    // A shared index is not cleared from here: clear() says so, no confirmation needed.
    if (!index.status.store) {
      const documents = index.status.documents;
      const choice = await vscode.window.showWarningMessage(
        'Evident: delete the index of this workspace?',
        {
          modal: true,
          detail: `Your documents are not touched. ${documents ? `The ${documents} indexed documents must be read again` : 'The workspace must be indexed again'} (Evident: Reindex Workspace Docs) before questions are answered.`,
        },
        CLEAR_INDEX_CONFIRM,
      );
      if (choice !== CLEAR_INDEX_CONFIRM) return false;
    }
    await index.clear();
    if (index.status.store) return false;
    void vscode.window
      .showInformationMessage(
        'Evident: index cleared. Run "Evident: Reindex Workspace Docs" to build it again.',
        'Reindex',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand(Commands.reindex);
      });
    return true;
  },
};
