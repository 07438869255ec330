// Evident: Clear Shared Index Password.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearStorePassword: EvidentCommand = {
  id: Commands.clearStorePassword,
  async run({ storePassword, log }) {
    await storePassword.clear();
    log.info('Shared index password removed from secret storage.');
    void vscode.window.showInformationMessage('Evident: shared index password cleared.');
  },
};
