// Evident: Clear Shared Index Password — says so when none is stored, rather than "cleared".

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearStorePassword: EvidentCommand = {
  id: Commands.clearStorePassword,
  async run({ storePassword, log }) {
    if ((await storePassword.get()) === undefined) {
      void vscode.window.showInformationMessage('Evident: no shared index password is stored; nothing to clear.');
      return;
    }
    await storePassword.clear();
    log.info('Shared index password removed from secret storage.');
    void vscode.window.showInformationMessage('Evident: shared index password cleared.');
  },
};
