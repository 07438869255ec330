// Evident: Clear Gemini API Key — removes the key from secret storage.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearGeminiApiKey: EvidentCommand = {
  id: Commands.clearGeminiApiKey,
  async run({ keys, log }) {
    await keys.clear();
    log.info('Gemini API key removed from secret storage.');
    void vscode.window.showInformationMessage('Evident: Gemini API key removed.');
  },
};
