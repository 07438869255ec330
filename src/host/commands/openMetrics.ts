// Evident: Open Raw Metrics Log — the JSONL log with one line of numbers per answer (the
// dashboard, showMetrics.ts, is the readable view; its "Open Raw Log" button comes here).

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const openMetrics: EvidentCommand = {
  id: Commands.openMetrics,
  async run({ index }) {
    const file = index.metricsLogPath;
    if (!file || !fs.existsSync(file)) {
      void vscode.window.showInformationMessage('Evident: no metrics yet. Each answer adds a line to the metrics log.');
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
  },
};
