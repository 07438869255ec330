// Evident: Clear Chat History — forgets the turns of this workspace's chat, with "Undo" in the
// notification that says so (the turns come back, before any asked since).

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearHistory: EvidentCommand = {
  id: Commands.clearHistory,
  /** Resolves to the number of turns cleared (the Undo offer is not awaited). */
  async run({ session, log }): Promise<number> {
    if (session.history.length === 0) {
      void vscode.window.showInformationMessage('Evident: the chat history is already empty.');
      return 0;
    }
    const removed = await session.clear();
    log.info(`Chat history cleared (${removed.length} turns); offered Undo.`);
    const questions = `${removed.length} question${removed.length === 1 ? '' : 's'}`;
    void vscode.window
      .showInformationMessage(`Evident: chat history cleared (${questions}).`, 'Undo')
      .then(async (choice) => {
        if (choice !== 'Undo') return;
        await session.restore(removed);
        log.info(`Chat history restored (${removed.length} turns).`);
      });
    return removed.length;
  },
};
