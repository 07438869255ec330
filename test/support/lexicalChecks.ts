// Made-up sentences checked against made-up passages as the verifier checks them in a real index:
// the test's passages among filler passages, so that common words are common and a passage's own
// words rare (their term weights); each sentence cites its passage as E1.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts, verifyAnswer } from '../../src/core/verifier';
import type { SentenceVerdict } from '../../src/domain/types';
import { ledgerOf } from './ledger';

/** Ordinary policy sentences about no test's topic. */
export const FILLER: readonly string[] = Array.from(
  { length: 40 },
  (_, i) =>
    [
      'Users may contact support about their account, repository or organization settings.',
      'The team reviews each request and answers within a few business days.',
      'Staff may use the handbook to find how to request approval for training and travel.',
      'We may share legal notices with the account owner when the law allows it.',
    ][i % 4],
);

export interface LexicalChecks {
  /** The verdict of `sentence` citing `passage`. */
  verdictOf(sentence: string, passage: string): Promise<SentenceVerdict>;
  expectKept(sentence: string, passage: string): Promise<void>;
  /** Dropped, and for `code` when given. */
  expectDropped(sentence: string, passage: string, code?: string): Promise<void>;
}

/** Checks with the term weights of `passages` (each test's own) among the filler. */
export function lexicalChecks(passages: Record<string, string>): LexicalChecks {
  const stats = termStatsFromTexts([...Object.values(passages), ...FILLER]);
  const verdictOf = async (sentence: string, passage: string): Promise<SentenceVerdict> => {
    const r = await verifyAnswer(sentence, ledgerOf({ E1: passage }, { headings: true }), {
      scorer: createLexicalScorer({ termStats: stats }),
    });
    return r.sentences[0];
  };
  return {
    verdictOf,
    async expectKept(sentence, passage) {
      const v = await verdictOf(sentence, passage);
      assert.equal(v.verdict, 'kept', `${v.text}: ${v.reason}`);
    },
    async expectDropped(sentence, passage, code) {
      const v = await verdictOf(sentence, passage);
      assert.equal(v.verdict, 'dropped', `${v.text} was kept (${v.support.toFixed(2)})`);
      if (code) assert.equal(v.code, code, v.reason);
    },
  };
}
