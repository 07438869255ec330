// Evident: Stop Answering — cancels the turn in progress; says so when there is none.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const stop: EvidentCommand = {
  id: Commands.stop,
  /** Resolves to true when a turn was stopped. */
  run({ session }): boolean {
    if (session.busyTurnId === undefined) {
      void vscode.window.showInformationMessage('Evident: no question is being answered, so there is nothing to stop.');
      return false;
    }
    session.stop();
    return true;
  },
};
