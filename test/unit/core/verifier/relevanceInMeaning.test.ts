// Issue 21, item 4: relevance reads the answer in meaning when the embedding model is loaded. The
// check stays a pure function: the closeness of each part of the question to the kept sentences
// comes in its input (the agent loop measures it; test/unit/core/agent/turnRelevance.test.ts).
// Made-up sentences and made-up closeness figures.

import * as assert from 'node:assert/strict';
import {
  checkRelevance,
  CLOSE_IN_MEANING,
  questionParts,
  type RelevanceInput,
} from '../../../../src/core/verifier/relevance';

/** A question whose words the answer leaves out: the words rule alone calls it off-topic. */
const PARAPHRASED: RelevanceInput = {
  question: 'What do municipal investigators pay to obtain archived records?',
  kept: [{ text: 'Each request beyond the fifth costs $20 per account [E1].', heading: 'Fees' }],
};

const closeness = (input: RelevanceInput, figure: number): ReadonlyMap<string, number> =>
  new Map(questionParts(input.question).map((part) => [part, figure]));

describe('relevance check in meaning (closeness of the question to the kept sentences)', () => {
  it('without a closeness figure, the words rule decides (the lexical path)', () => {
    const r = checkRelevance(PARAPHRASED);
    assert.equal(r.verdict, 'off-topic');
    assert.match(r.reason, /not .*"municipal"/);
  });

  it('close in meaning: the words of the question missing from the answer no longer abstain the turn', () => {
    const r = checkRelevance({ ...PARAPHRASED, closeness: closeness(PARAPHRASED, CLOSE_IN_MEANING + 0.1) });
    assert.equal(r.verdict, 'answers', r.reason);
  });

  it('far in meaning: the missing words abstain the turn as before', () => {
    const r = checkRelevance({ ...PARAPHRASED, closeness: closeness(PARAPHRASED, CLOSE_IN_MEANING - 0.1) });
    assert.equal(r.verdict, 'off-topic');
    assert.deepEqual(r, checkRelevance(PARAPHRASED));
  });

  it('closeness never replaces the asked kind of value: close but no duration stays off-topic', () => {
    const input: RelevanceInput = {
      question: 'How long do refunds of annual plans take?',
      kept: [{ text: 'Refunds of annual plans go back to the card used to pay [E1].' }],
    };
    const r = checkRelevance({ ...input, closeness: closeness(input, 0.9) });
    assert.equal(r.verdict, 'off-topic');
    assert.match(r.reason, /a duration/);
  });

  it('closeness never replaces a distinctive name the answer lacks', () => {
    const input: RelevanceInput = {
      question: 'Does the Zephyrine office reimburse taxis?',
      kept: [{ text: 'Taxis to the airport are reimbursed with a receipt [E1].' }],
    };
    const r = checkRelevance({ ...input, closeness: closeness(input, 0.9) });
    assert.notEqual(r.verdict, 'answers');
    assert.match(r.reason, /"Zephyrine"/);
  });

  it('reads each part on its own figure: a close part is answered, a far part is named as missing', () => {
    const input: RelevanceInput = {
      question: 'Are annual plans refundable, and who signs off on exceptions?',
      kept: [{ text: 'Annual plans are refundable pro rata within 90 days of purchase [E1].' }],
    };
    const [plans, exceptions] = questionParts(input.question);
    const r = checkRelevance({
      ...input,
      closeness: new Map([
        [plans, 0.8],
        [exceptions, CLOSE_IN_MEANING - 0.2],
      ]),
    });
    assert.equal(r.verdict, 'partial');
    assert.match(r.reason, /"who signs off on exceptions"/);
  });
});
