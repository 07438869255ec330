// "Answered as: …" under a follow-up's answer: the standalone question that was retrieved and
// answered when a follow-up ("and for part-time staff?") was rewritten with the turn before it, so
// the reader sees what the answer is an answer to. Absent when the question was answered as asked.

import type { TurnResult } from '../domain/types';
import { element, icon } from './dom';

export function renderAnsweredAs(doc: Document, result: TurnResult): HTMLElement | undefined {
  const rewritten = result.answeredAs;
  if (rewritten === undefined || rewritten === result.question) return undefined;
  const note = element(doc, 'div', { class: 'notice answered-as', 'data-testid': 'answered-as', role: 'note' });
  note.append(icon(doc, 'reply'), element(doc, 'span', {}, `Answered as: ${rewritten}`));
  return note;
}
