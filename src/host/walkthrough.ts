// Ticks a step of the getting-started walkthrough from the host. A step's `onContext` or
// `onCommand` completion event misses what happens elsewhere (a question asked in the chat, not
// through the Ask command) or before VS Code's walkthrough service exists (it is created on first
// use, and never ticks an `onContext` step whose condition already held when it registered), so
// the host marks the step done itself; VS Code stores it per profile.

import * as vscode from 'vscode';
import { walkthroughStepId, type Walkthrough } from '../shared/ids';
import { errorMessage } from './log';

/** VS Code's command that marks a walkthrough step complete (and stores it). */
const WORKBENCH_MARK_STEP_COMPLETE = 'welcome.markStepComplete';

const marked = new Set<string>();

/** Marks `step` done, once a window. */
export function markWalkthroughStep(step: keyof typeof Walkthrough.steps, log: vscode.LogOutputChannel): void {
  if (marked.has(step)) return;
  marked.add(step);
  // An internal workbench command (other editors may lack it); a walkthrough not yet registered
  // makes it throw after it stored the progress. Neither is worth more than a log line.
  void Promise.resolve(vscode.commands.executeCommand(WORKBENCH_MARK_STEP_COMPLETE, walkthroughStepId(step))).catch(
    (error: unknown) => {
      log.info(`Walkthrough step "${step}" not marked: ${errorMessage(error)}`);
    },
  );
}
