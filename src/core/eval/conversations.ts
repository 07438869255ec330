// Questions asked as conversations: a line may name, with `"after"`, the id of an earlier line it
// follows (the CLI contract's follow-ups, for `evident ask --questions` and `evident eval`). Each
// line is asked after the turn it names, which it follows; a chain continues one conversation.

import type { TurnResult } from '../../domain/types';
import type { PreviousTurn } from '../agent/followUp';

export interface ConversationLine {
  id: string;
  question: string;
  /** The id of an earlier line of the same file this question follows. */
  after?: string;
}

/** What is wrong with a line's `after` given the ids before it; undefined when nothing. */
export function afterProblem(value: Record<string, unknown>, earlierIds: ReadonlySet<string>): string | undefined {
  if (value.after === undefined) return undefined;
  if (typeof value.after !== 'string' || !value.after) return '"after" must be the id of an earlier line';
  if (value.after === value.id) return `"after" names the line itself ("${value.after}")`;
  if (!earlierIds.has(value.after)) return `"after" names "${value.after}", which is not the id of an earlier line of this file`;
  return undefined;
}

/** A check of each line (by position) that also checks `after` against the ids of the lines before it. */
export function withAfterCheck<T extends Record<string, unknown>>(check: (value: T) => string | undefined): (value: T) => string | undefined {
  const ids = new Set<string>();
  return (value) => {
    const problem = check(value) ?? afterProblem(value, ids);
    if (typeof value.id === 'string') ids.add(value.id);
    return problem;
  };
}

/** The turn a follow-up follows, as the next turn needs it (its question and what it was answered as). */
export function previousTurn(result: Pick<TurnResult, 'question' | 'answeredAs'>): PreviousTurn {
  return { question: result.question, ...(result.answeredAs !== undefined ? { answeredAs: result.answeredAs } : {}) };
}

/**
 * Asks every line in order; a line with `after` is asked as a follow-up of that line's turn. Lines
 * are answered one at a time (a follow-up needs the turn it follows).
 */
export async function askConversations<Q extends ConversationLine>(
  lines: readonly Q[],
  ask: (line: Q, follows: PreviousTurn | undefined) => Promise<TurnResult>,
  onAnswer?: (line: Q, result: TurnResult) => void | Promise<void>,
): Promise<{ question: Q; result: TurnResult }[]> {
  const turns = new Map<string, TurnResult>();
  const out: { question: Q; result: TurnResult }[] = [];
  for (const line of lines) {
    const before = line.after !== undefined ? turns.get(line.after) : undefined;
    if (line.after !== undefined && !before) throw new Error(`"${line.id}" follows "${line.after}", which was not asked before it`);
    const result = await ask(line, before ? previousTurn(before) : undefined);
    turns.set(line.id, result);
    out.push({ question: line, result });
    await onAnswer?.(line, result);
  }
  return out;
}
