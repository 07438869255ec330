// Evident: Set Gemini API Key — stored in VS Code's secret storage, never in settings.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const setGeminiApiKey: EvidentCommand = {
  id: Commands.setGeminiApiKey,
  async run({ keys, log }) {
    const key = await vscode.window.showInputBox({
      title: 'Evident: Gemini API Key',
      prompt: "Stored in VS Code's secret storage on this machine, never in settings.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'Paste a key, or press Escape.'),
    });
    if (!key?.trim()) return;
    await keys.set(key);
    log.info('Gemini API key stored in secret storage.');
    void vscode.window.showInformationMessage('Evident: Gemini API key saved.');
  },
};
