// Builders for chat-view test data: a TurnResult with evidence and sentence verdicts.

import type { Evidence, SentenceVerdict, TurnResult } from '../../src/domain/types';
import type { TurnView } from '../../src/shared/protocol';

export function evidence(id: string, overrides: Partial<Evidence> = {}): Evidence {
  return {
    id,
    passageId: `p-${id}`,
    source: 'policies/leave.md',
    startLine: 10,
    endLine: 14,
    heading: 'Leave > Annual leave',
    text: 'Employees receive 25 days of annual leave per year.',
    version: 'sha256:abc',
    ...overrides,
  };
}

/** Sentences laid out one after another with a single space between them. */
export function sentences(...parts: Array<Partial<SentenceVerdict> & { text: string }>): SentenceVerdict[] {
  let offset = 0;
  return parts.map((part) => {
    const start = part.start ?? offset;
    const end = part.end ?? start + part.text.length;
    offset = end + 1;
    return {
      citations: [],
      verdict: 'kept',
      reason: 'supported',
      code: 'supported',
      support: 1,
      ...part,
      start,
      end,
    };
  });
}

export function turnResult(overrides: Partial<TurnResult> = {}): TurnResult {
  return {
    invocationId: 'inv-1',
    question: 'How much annual leave do I get?',
    answer: 'Employees receive 25 days of annual leave [E1].',
    abstained: false,
    sentences: sentences({ text: 'Employees receive 25 days of annual leave [E1].', citations: ['E1'] }),
    evidence: [evidence('E1')],
    metrics: { retrieved: 1, coverage: 1, dropped: 0, abstained: false },
    model: 'extractive',
    retrieval: 'lexical',
    notices: [],
    ...overrides,
  };
}

/** A finished turn (its result is passed beside it, or set with `overrides`). */
export function doneTurn(id: string, overrides: Partial<TurnView> = {}): TurnView {
  return { id, question: 'How much annual leave do I get?', status: 'done', startedAt: 0, ...overrides };
}
