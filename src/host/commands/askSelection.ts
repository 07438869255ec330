// Evident: Ask About Selection… — a question about the selected text, proposed for editing first.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { TurnView } from '../../shared/protocol';
import { askInChat, validateQuestion } from './ask';
import type { EvidentCommand } from './command';

const SELECTION_LIMIT = 600;

export const askSelection: EvidentCommand = {
  id: Commands.askSelection,
  async run(deps): Promise<TurnView | undefined> {
    const editor = vscode.window.activeTextEditor;
    const selected = editor
      ? editor.document.getText(editor.selection).replace(/\s+/g, ' ').trim().slice(0, SELECTION_LIMIT)
      : '';
    if (!selected) return vscode.commands.executeCommand<TurnView | undefined>(Commands.ask);
    const question = await vscode.window.showInputBox({
      title: 'Evident: Ask About Selection',
      prompt: `About: “${selected.length > 80 ? `${selected.slice(0, 80)}…` : selected}”`,
      value: `What do our documents say about “${selected}”?`,
      validateInput: validateQuestion,
      ignoreFocusOut: true,
    });
    return question?.trim() ? askInChat(deps, question.trim()) : undefined;
  },
};
