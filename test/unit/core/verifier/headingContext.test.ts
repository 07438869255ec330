// A passage's heading path gives its topic and states nothing (headingContext.ts, supportWindow.ts
// `windowBesideHeadings`): it never backs a sentence alone, never affirms and never negates. Found
// in a turn over the samples: "Monthly plans are refundable [E1]" was kept at 1.00 against "Monthly
// plans are not refundable", through the heading "Refunds and Cancellations > Monthly plans".

import * as assert from 'node:assert/strict';
import {
  contextKey,
  headingRange,
  inHeading,
  joinedWithHeadings,
  withHeading,
} from '../../../../src/core/verifier/headingContext';
import { createLexicalScorer, termStatsFromTexts, verifyAnswer } from '../../../../src/core/verifier';
import { ledgerOf } from '../../../support/ledger';
import { FILLER, lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  monthly:
    'Refunds and Cancellations > Monthly plans\nMonthly plans are not refundable. When a customer cancels a monthly plan, the subscription stays active until the end of the month already paid for. Partial months are never credited.',
  shuttle: 'Parking > Airport lots\nThe shuttle to the terminal runs every 20 minutes, day and night.',
  banned: 'Prohibited items > Drones\nStaff must register any device before the event starts.',
};
const { expectKept, expectDropped, verdictOf } = lexicalChecks(P);

describe('headingContext: the text the verifier reads and where its heading is', () => {
  it('puts the heading on the first line and finds it there, and only there', () => {
    const text = withHeading('Travel > Per diem', 'Rates are set by GSA.');
    assert.equal(text, 'Travel > Per diem\nRates are set by GSA.');
    assert.deepEqual(headingRange('Travel > Per diem', text), [0, 17]);
    assert.equal(withHeading(undefined, 'Rates are set by GSA.'), 'Rates are set by GSA.');
    assert.equal(headingRange('Travel', 'Travel costs are paid.'), undefined, 'no line break after it');
    assert.equal(headingRange('Per diem', 'Travel\nPer diem'), undefined, 'not at the start');
    assert.equal(headingRange(undefined, 'x\ny'), undefined);
  });

  it('keeps each heading’s range when passages are joined for a sentence citing several', () => {
    const a = withHeading('A > B', 'First text.');
    const b = withHeading('C', 'Second text.');
    const { text, context } = joinedWithHeadings([
      { text: a, heading: 'A > B' },
      { text: 'No heading here.', heading: 'Policy' },
      { text: b, heading: 'C' },
    ]);
    assert.equal(text, `${a}\nNo heading here.\n${b}`);
    assert.deepEqual(
      context.headings.map(([s, e]) => text.slice(s, e)),
      ['A > B', '\nC'],
    );
    assert.ok(inHeading(context, text.indexOf('C'), text.indexOf('C') + 1));
    assert.ok(!inHeading(context, text.indexOf('Second'), text.indexOf('Second') + 6));
    assert.notEqual(contextKey(context), '');
    assert.equal(contextKey(undefined), '');
  });
});

describe('a heading states nothing: it neither backs, affirms nor negates', () => {
  it('drops "Monthly plans are refundable" where the text says they are not, whatever the heading says', async () => {
    await expectDropped('Monthly plans are refundable [E1].', P.monthly, 'negation-mismatch');
    await expectDropped('Monthly plans can be refunded [E1].', P.monthly, 'negation-mismatch');
  });

  it('keeps the passage’s own sentence, and a paraphrase of it', async () => {
    await expectKept('Monthly plans are not refundable [E1].', P.monthly);
    await expectKept('A partial month is never credited [E1].', P.monthly);
  });

  it('does not back a sentence whose words only the heading holds', async () => {
    const v = await verdictOf('Airport lots offer parking [E1].', P.shuttle);
    assert.equal(v.verdict, 'dropped', `kept at ${v.support}`);
    assert.match(v.reason, /heading/);
    await expectDropped('Drones are prohibited items [E1].', P.banned);
  });

  it('still gives the topic: the heading’s words join a sentence the text backs', async () => {
    await expectKept('The shuttle from the airport lots to the terminal runs every 20 minutes [E1].', P.shuttle);
  });

  it('reads headings in the middle of passages joined for a sentence citing two', async () => {
    const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);
    const r = await verifyAnswer(
      'Monthly plans are refundable for customers who cancel, and the shuttle runs every 20 minutes [E1, E2].',
      ledgerOf({ E1: P.shuttle, E2: P.monthly }, { headings: true }),
      { scorer: createLexicalScorer({ termStats: stats }) },
    );
    assert.equal(r.sentences[0].verdict, 'dropped', r.sentences[0].reason);
  });
});
