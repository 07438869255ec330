// Evident: Set Shared Index Password — stored in VS Code's secret storage, never in settings.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const setStorePassword: EvidentCommand = {
  id: Commands.setStorePassword,
  async run({ storePassword, log }) {
    const password = await vscode.window.showInputBox({
      title: 'Evident: Shared Index Password',
      prompt: 'The password of the user in evident.store.connection. Stored in VS Code\'s secret storage on this machine, never in settings.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v ? undefined : 'Type the password, or press Escape.'),
    });
    if (!password) return;
    await storePassword.set(password);
    log.info('Shared index password stored in secret storage.');
    void vscode.window.showInformationMessage('Evident: shared index password saved.');
  },
};
