// The model-shaped answers of eval/answers/ (tuning data) as the verifier meets them in a turn:
// each answer's text, the passages its question retrieved (the captured evidence, E1…), and the
// ones it cites. For the benches that time a whole answer's check (`bench:verifier`,
// `bench:verifier-compare`): n sentences over k cited passages, as the product checks them.

import * as path from 'node:path';
import type { Evidence, EvidenceLookup } from '../../src/domain/types';
import { citedIds } from '../../src/core/verifier/citations';
import { splitSentences } from '../../src/core/verifier/sentenceSplitter';
import { loadAnswerSet } from '../answers/answerSet';

export interface AnswerCheck {
  id: string;
  answer: string;
  /** Every passage of the turn (the ledger), and the ones the answer cites. */
  evidence: EvidenceLookup;
  cited: Evidence[];
  /** Sentences of the answer (as the verifier splits it). */
  sentences: number;
}

export async function loadAnswerChecks(split: 'dev' | 'test' | 'all' = 'dev'): Promise<AnswerCheck[]> {
  const { answers, captured } = await loadAnswerSet(path.join(__dirname, '../../eval/answers'));
  return answers
    .filter((a) => split === 'all' || a.split === split)
    .map((a) => {
      const question = captured.get(a.questionId);
      const all: Evidence[] = (question?.evidence ?? []).map((e) => ({
        ...e,
        passageId: `${e.source}:${e.startLine}`,
        version: '',
      }));
      const byId = new Map(all.map((e) => [e.id, e]));
      const spans = splitSentences(a.answer);
      const ids = new Set(spans.flatMap((s) => citedIds(s.text)));
      return {
        id: a.id,
        answer: a.answer,
        evidence: { get: (id: string) => byId.get(id), all: () => all },
        cited: [...ids].flatMap((id) => byId.get(id) ?? []),
        sentences: spans.length,
      };
    });
}

/** Every passage text of the answers' turns, for term weights (as the product takes them from its index). */
export function evidenceTexts(checks: readonly AnswerCheck[]): string[] {
  return [...new Set(checks.flatMap((c) => c.evidence.all().map((e) => e.text)))];
}
