// Evident: Run Evaluation Set… — runs `evident eval` on a picked JSONL set in a terminal.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const runEvaluation: EvidentCommand = {
  id: Commands.runEvaluation,
  async run({ context, index }) {
    const folder = index.folder;
    if (!folder) throw new Error('Open a folder first.');
    const picked = await vscode.window.showOpenDialog({
      title: 'Evident: pick an evaluation set (JSONL)',
      canSelectMany: false,
      defaultUri: folder.uri,
      filters: { 'Evaluation set': ['jsonl'] },
    });
    if (!picked?.[0]) return;
    // The CLI prints the report; run with this editor's own Node runtime.
    const terminal = vscode.window.createTerminal({
      name: 'Evident evaluation',
      shellPath: process.execPath,
      shellArgs: [
        path.join(context.extensionPath, 'dist', 'cli.js'),
        'eval',
        '--docs',
        folder.uri.fsPath,
        '--set',
        picked[0].fsPath,
      ],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    context.subscriptions.push(terminal);
    terminal.show();
  },
};
