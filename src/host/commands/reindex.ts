// Evident: Reindex Workspace Docs — an index run over every document, with a summary when done.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';
import { counted } from '../../domain/wording';

export const reindex: EvidentCommand = {
  id: Commands.reindex,
  async run({ index }) {
    if (!index.folder) {
      throw new Error('Open a folder first: Evident indexes the Markdown files of a workspace folder.');
    }
    const report = await index.reindex({ notify: true });
    if (report) {
      const skipped = report.skipped.length ? `, ${report.skipped.length} skipped (see logs)` : '';
      void vscode.window.showInformationMessage(
        `Evident: indexed ${counted(report.documents, 'document')}, ${counted(report.passages, 'passage')} (${report.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'})${skipped}.`,
      );
    }
    return report;
  },
};
