// What a question may be before a turn starts: not blank, and not longer than the cap. One rule
// for every face (CLI, chat view, @evident), checked in the core so that none can skip it.

import { MAX_QUESTION_LENGTH } from '../../domain/question';

export { MAX_QUESTION_LENGTH };

/** A question over the cap: the message says how long it is and what to do. */
export class QuestionTooLongError extends Error {
  override name = 'QuestionTooLongError';
  constructor(readonly length: number) {
    super(
      `The question is ${length.toLocaleString('en-US')} characters long; at most ${MAX_QUESTION_LENGTH.toLocaleString('en-US')} are accepted. ` +
        'Shorten it to what you want to know (ask about a long text by quoting the part that matters).',
    );
  }
}

/** Throws when the question is blank or over the cap. */
export function checkQuestion(question: string): void {
  if (!question.trim()) throw new Error('The question is empty.');
  if (question.length > MAX_QUESTION_LENGTH) throw new QuestionTooLongError(question.length);
}

/** What is wrong with a question, for input checked before any work (a CLI flag, a batch line); undefined when nothing. */
export function questionProblem(question: string): string | undefined {
  try {
    checkQuestion(question);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
