// The lexical support score: informative words weigh more, values are exact, windows, stems.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts } from '../../../../src/core/verifier';
import { extractValues } from '../../../../src/core/verifier/values';
import type { SupportResult } from '../../../../src/core/types';
import { verifyClaim } from '../../../../src/core/verifier/verifier';

const score = (scorer: ReturnType<typeof createLexicalScorer>, s: string, p: string): SupportResult =>
  scorer.score(s, p) as SupportResult;

describe('lexical scorer', () => {
  it('gives 1 when every content word is in the passage and 0 when none is', () => {
    const s = createLexicalScorer();
    assert.equal(score(s, 'Employees accrue vacation.', 'All employees accrue paid vacation monthly.').score, 1);
    assert.equal(score(s, 'Cats chase mice.', 'All employees accrue paid vacation monthly.').score, 0);
  });

  it('weighs a missing rare word more than a missing common one when term statistics are given', () => {
    const passages = [
      'travel policy for employees',
      'leave policy for employees',
      'security policy for employees',
      'business class flights need approval',
    ];
    const stats = termStatsFromTexts(passages);
    assert.ok(stats.idf('polici') < stats.idf('busi'));
    const passage = 'Employees flying economy need approval.';
    const weighted = createLexicalScorer({ termStats: stats });
    const uniform = createLexicalScorer();
    const sentence = 'Employees flying business class need approval.';
    assert.ok(score(weighted, sentence, passage).score < score(uniform, sentence, passage).score);
  });

  it('reads values exactly: equal forms match, a different value of the same unit conflicts', () => {
    const s = createLexicalScorer();
    assert.equal(score(s, 'The fee is $1500000.', 'The fee is $1,500,000.').code, 'supported');
    assert.deepEqual(
      extractValues('$1.5 million').map((v) => v.key),
      extractValues('$1,500,000').map((v) => v.key),
    );
    const conflict = score(s, 'Refunds within 30 days.', 'Refunds within 90 days.');
    assert.equal(conflict.code, 'value-mismatch');
    assert.equal(conflict.score, 0);
    assert.deepEqual(
      extractValues('a 30-day trial, 5% off, version 1.2.3, in 1991, twelve years').map((v) => [v.key, v.unit]),
      [
        ['30', 'dai'],
        ['5', '%'],
        ['1.2.3', ''],
        ['1991', ''],
        ['12', 'year'],
      ],
    );
  });

  it('scores against the best window of the passage, not words scattered over all of it', () => {
    const scattered = [
      'Employees travel.',
      'Weather is mild.',
      'Lunch is served.',
      'Offices are open.',
      'Parking is free.',
      'Approval comes later.',
    ].join(' ');
    const sentence = 'Employees travel with approval, lunch, parking and weather.';
    const windowed = createLexicalScorer({ features: { window: 2 } });
    const whole = createLexicalScorer({ features: { window: 0 } });
    assert.ok(score(windowed, sentence, scattered).score < score(whole, sentence, scattered).score);
  });

  it('matches inflections by stems only when stemming is on', () => {
    const p = 'The director approved the requests.';
    assert.equal(score(createLexicalScorer(), 'Directors approve requests.', p).score, 1);
    assert.ok(
      score(createLexicalScorer({ features: { stemming: false } }), 'Directors approve requests.', p).score < 1,
    );
  });

  it('does not read "not only" as a negation', () => {
    const s = createLexicalScorer();
    assert.equal(
      score(s, 'The plan covers dental care.', 'The plan covers not only dental care but also vision.').code,
      'supported',
    );
  });

  it('gives a pair checked again the result of its first check, as a copy the caller may change', () => {
    const passages = [
      'Employees may carry over up to 40 hours of vacation. Unused hours are forfeited at year end.',
      'Refunds are issued within 30 days by Globex. Business class is not reimbursed.',
    ];
    const stats = termStatsFromTexts([...passages, 'Cryptowallet payments are handled elsewhere.']);
    const sentences = [
      'Employees may carry over up to 40 hours of vacation.',
      'Employees may carry over up to 80 hours of vacation.',
      'Refunds are issued within 30 days via cryptowallet.',
      'Business class is reimbursed.',
      'Refunds are issued by Acme.',
    ];
    const scorer = createLexicalScorer({ termStats: stats });
    for (const passage of passages) {
      for (const sentence of sentences) {
        const fresh = createLexicalScorer({ termStats: stats }).score(sentence, passage) as SupportResult;
        const first = scorer.score(sentence, passage) as SupportResult;
        assert.deepEqual(first, fresh);
        // The caller changes what it got: the next answer is still the check's.
        first.score = -1;
        first.missing?.words.push('changed');
        const again = scorer.score(sentence, passage) as SupportResult;
        assert.deepEqual(again, fresh);
        assert.notEqual(again, first);
      }
    }
    assert.ok(
      passages.some((p) => (createLexicalScorer({ termStats: stats }).score(sentences[2], p) as SupportResult).missing),
      'a result with missing words is among the checks',
    );
  });
});

describe('lexical scorer: a rule that sinks a sentence, at every threshold', () => {
  // The threshold is the share of wording a paraphrase must keep; a rule's verdict does not move with it.
  const REFUNDS = 'Refunds are issued within 30 days by bank transfer.';
  const passages = [REFUNDS, 'Orders ship within 2 days.', 'Returns need a receipt.', 'Gift cards never expire.'];

  it('scores 0 a sentence whose distinctive word its passage lacks, and still says what meeting it would give', async () => {
    const scorer = createLexicalScorer({ termStats: termStatsFromTexts(passages) });
    const sentence = 'Refunds are issued within 30 days by bank transfer via cryptowallet.';
    const r = score(scorer, sentence, REFUNDS);
    assert.equal(r.score, 0);
    assert.match(r.explanation ?? '', /cryptowallet/);
    assert.ok((r.missing?.scoreIfMet ?? 0) > 0.5, 'the meaning check still knows what the word would bring');
    for (const threshold of [0.3, 0.5, 0.55]) {
      assert.equal((await verifyClaim(sentence, REFUNDS, { scorer, threshold })).supported, false, `at ${threshold}`);
    }
    assert.equal(
      (await verifyClaim('Refunds are issued within 30 days.', REFUNDS, { scorer, threshold: 0.5 })).supported,
      true,
    );
  });

  it('scores 0 a sentence with a clause under its floor, however much of the rest is backed', async () => {
    const scorer = createLexicalScorer();
    const annual = 'Annual plans may be refunded within 90 days of purchase.';
    const sentence = 'Annual plans may be refunded within 90 days of purchase, and so may monthly plans.';
    const r = score(scorer, sentence, annual);
    assert.equal(r.score, 0);
    assert.match(r.explanation ?? '', /clause 'and so may monthly plans'.*'monthly'/);
    for (const threshold of [0.3, 0.5, 0.55]) {
      assert.equal((await verifyClaim(sentence, annual, { scorer, threshold })).supported, false, `at ${threshold}`);
    }
  });
});
