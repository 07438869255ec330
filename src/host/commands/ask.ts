// Evident: Ask… — a question typed in an input box (or passed by a caller), answered in the chat view.

import * as vscode from 'vscode';
import { Commands } from '../../shared/ids';
import { MAX_QUESTION_LENGTH, type TurnView } from '../../shared/protocol';
import { EXAMPLE_QUESTION } from '../chatView';
import type { CommandDeps, EvidentCommand } from './command';

export function validateQuestion(value: string): string | undefined {
  if (!value.trim()) return 'Type a question.';
  return value.length > MAX_QUESTION_LENGTH ? `At most ${MAX_QUESTION_LENGTH} characters.` : undefined;
}

/** Shows the chat view and asks there; resolves to the finished turn. */
export async function askInChat({ chatView, session }: CommandDeps, question: string): Promise<TurnView> {
  await chatView.reveal();
  return session.ask(question);
}

export const ask: EvidentCommand = {
  id: Commands.ask,
  /** Resolves to the finished turn (done, failed or cancelled), or undefined when no question was asked. */
  async run(deps, arg?: unknown): Promise<TurnView | undefined> {
    const preset = typeof arg === 'string' ? arg : undefined;
    const question =
      preset && !validateQuestion(preset)
        ? preset
        : await vscode.window.showInputBox({
            title: 'Evident: Ask',
            prompt: 'Ask about the Markdown documents in this workspace',
            placeHolder: EXAMPLE_QUESTION,
            validateInput: validateQuestion,
            ignoreFocusOut: true,
          });
    return question?.trim() ? askInChat(deps, question.trim()) : undefined;
  },
};
