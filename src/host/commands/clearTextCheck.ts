// Evident: Clear Text Check — removes the marks of "Check Text Against the Docs" from the active
// document (or from every document when none of them is active).

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const clearTextCheck: EvidentCommand = {
  id: Commands.clearTextCheck,
  run(deps): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    deps.textChecks.clear(uri && deps.textChecks.checkOf(uri) ? uri : undefined);
  },
};
