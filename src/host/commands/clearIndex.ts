// Evident: Clear Index — removes the index of this workspace (the documents are untouched).

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearIndex: EvidentCommand = {
  id: Commands.clearIndex,
  async run({ index }) {
    await index.clear();
    void vscode.window.showInformationMessage('Evident: index cleared. Run "Evident: Reindex Workspace Docs" to build it again.');
  },
};
