// Evident: Set Shared Index Password — stored in VS Code's secret storage, never in settings. With
// no shared index configured there is nothing to log in to: it says so and offers the setting.

import * as vscode from 'vscode';
import { Commands, Settings } from '../../shared/ids';
import { openSettingsById } from '../openSetting';
import { readStoreConnection } from '../settings';
import type { EvidentCommand } from './command';

export const setStorePassword: EvidentCommand = {
  id: Commands.setStorePassword,
  async run({ storePassword, log }) {
    if (!readStoreConnection()) {
      const choice = await vscode.window.showInformationMessage(
        `Evident: no shared index is configured, so no password is needed. To use a team index, set "${Settings.storeConnection}" in your user settings first.`,
        'Open Setting',
      );
      if (choice) await openSettingsById([Settings.storeConnection]);
      return;
    }
    const password = await vscode.window.showInputBox({
      title: 'Evident: Shared Index Password',
      prompt:
        "The password of the user in evident.store.connection. Stored in VS Code's secret storage on this machine, never in settings.",
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
