// Issue 9, item 7: the evaluation reports coverage, drop rate and abstention before and after the
// verifier, and says who made each abstention (the model, the verifier, the relevance check).

import * as assert from 'node:assert/strict';
import { scoreItem, summarizeEvaluation, type EvalQuestion } from '../../../../src/core/eval/evaluation';
import type { SentenceVerdict, TurnResult } from '../../../../src/domain/types';

function sentence(text: string, verdict: SentenceVerdict['verdict'], code: SentenceVerdict['code'], citations = ['E1']): SentenceVerdict {
  return { text, citations, verdict, code, reason: code, support: verdict === 'kept' ? 1 : 0, start: 0, end: text.length };
}

function turn(answer: string, abstained: boolean, sentences: SentenceVerdict[], abstainedBy?: TurnResult['abstainedBy']): TurnResult {
  const factual = sentences.filter((s) => s.verdict !== 'exempt');
  const kept = factual.filter((s) => s.verdict === 'kept').length;
  return {
    invocationId: 'i',
    question: 'q',
    answer,
    abstained,
    sentences,
    evidence: [{ id: 'E1', passageId: 'p', source: 'refunds.md', startLine: 1, endLine: 2, heading: 'Refunds', text: 't', version: 'v' }],
    metrics: { retrieved: 1, coverage: factual.length ? kept / factual.length : abstained ? 0 : 1, dropped: factual.length - kept, abstained },
    model: 'scripted',
    retrieval: 'lexical',
    notices: [],
    ...(abstainedBy ? { abstainedBy } : {}),
  };
}

const answerable = (id: string): EvalQuestion => ({ id, question: 'q', answerable: true, answer_keywords: ['90 days'], gold_files: ['refunds.md'] });
const unanswerable = (id: string): EvalQuestion => ({ id, question: 'q', answerable: false, answer_keywords: [], gold_files: [] });

describe('evaluation before and after the verifier', () => {
  const items = [
    // Answered and kept.
    scoreItem(answerable('a1'), turn('Refunds within 90 days [E1].', false, [sentence('Refunds within 90 days [E1].', 'kept', 'supported')])),
    // The verifier dropped the only (unsupported) sentence: an abstention the verifier forced.
    scoreItem(unanswerable('u1'), turn('NOT_FOUND: the documents I found do not support an answer.', true, [sentence('Refunds within 30 days [E1].', 'dropped', 'value-mismatch')], 'verifier')),
    // The model abstained itself.
    scoreItem(unanswerable('u2'), turn('NOT_FOUND: nothing about gift cards.', true, [], 'model')),
    // Backed but off the question: the relevance check forced it.
    scoreItem(unanswerable('u3'), turn('NOT_FOUND: the documents found mention "stock" but not "vesting".', true, [sentence('Take stock [E1].', 'dropped', 'off-topic')], 'relevance')),
    // An uncited sentence dropped beside a kept one.
    scoreItem(answerable('a2'), turn('Refunds within 90 days [E1].', false, [sentence('Refunds within 90 days [E1].', 'kept', 'supported'), sentence('Refunds are instant.', 'dropped', 'no-citation', [])])),
  ];
  const report = summarizeEvaluation(items, 6);

  it('splits abstentions by who made them', () => {
    assert.deepEqual(report.abstentionsBy, { model: 1, verifier: 1, relevance: 1 });
    assert.equal(report.items.find((i) => i.id === 'u3')?.abstainedBy, 'relevance');
  });

  it('gives abstention, coverage and drop rate with the checks off (as the model wrote) and on (as shown)', () => {
    // Off: only the model's own abstention counts; nothing is dropped; coverage = sentences carrying an id.
    assert.equal(report.verifierOff.abstentionRate, 1 / 5);
    assert.equal(report.verifierOff.abstentionRecall, 1 / 3);
    assert.equal(report.verifierOff.dropRate, 0);
    assert.equal(report.verifierOff.citationCoverage, (1 + 1 + 1 + 0.5) / 4);
    // On: three abstentions; drop rate counts support drops only (2 of 6 factual sentences), not off-topic ones.
    assert.equal(report.verifierOn.abstentionRate, 3 / 5);
    assert.equal(report.verifierOn.abstentionRecall, 1);
    assert.equal(report.verifierOn.dropRate, 2 / 5);
    assert.equal(report.dropRate, report.verifierOn.dropRate);
    assert.equal(report.verifierOn.falseAbstentionRate, 0);
    assert.equal(report.verifierOn.answerAccuracy, 1);
  });
});
