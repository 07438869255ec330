// A negation (or an affirmation) read at the place of the passage that states the sentence's phrase
// (phrasePlace.ts, polarity.ts): the window is chosen for the whole sentence and may hold the word
// where the passage says something else of it. Found on answers-fresh-5 ("…may be implemented at any
// time and without notice to you" against "…without any notice to Developer", the window holding
// "within thirty days from the date of first notice"), the shape session 9 saw on the dev answers.

import * as assert from 'node:assert/strict';
import { heldNear, phraseAround, phraseBreaks } from '../../../../src/core/verifier/phrasePlace';
import { analyse } from '../../../../src/core/text/terms';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  modification:
    'Modification\nDeveloper agrees that Acme may modify this Agreement, the Acme API and the Acme Privacy Statement from time to time (a "Modification"). ' +
    'All Modifications shall be communicated through the Acme portal. ' +
    'Developer further agrees that such Modifications may be implemented at any time and without any notice to Developer. ' +
    'Developer shall, within thirty (30) days from the date of first notice of any Modification to this Agreement made from time to time, comply with it, whatever the effort, by implementing such changes in the most current version of the Acme API. ' +
    'A Modification may have an adverse effect on Developer products.',
  refunds:
    'Refunds\nAnnual plans are refundable within 30 days of purchase, and the refund goes to the card used for the plan. ' +
    'Monthly plans are not refundable. ' +
    'Refunds are processed by the billing team. ' +
    'Plans renew automatically unless cancelled. ' +
    'Taxes are never refunded.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('phrasePlace: the place that states the sentence phrase', () => {
  it('keeps a negation the passage states at the place that holds its phrase, outside the window', async () => {
    await expectKept(
      'Acme may modify the agreement from time to time, and such Modifications may be implemented at any time and without notice to you [E1].',
      P.modification,
    );
  });

  it('drops a negation that only a place about something else states (another subject)', async () => {
    await expectDropped('Annual plans are not refundable [E1].', P.refunds, 'negation-mismatch');
  });

  it('drops an affirmation the place of its phrase denies', async () => {
    await expectDropped('Monthly plans are refundable [E1].', P.refunds);
  });

  it('reads the phrase between commas and clause breaks', () => {
    const text = 'Acme may modify it, and such changes may apply without notice to you';
    const terms = analyse(text, { stemming: true }).terms;
    const stems = [...new Set(terms.map((t) => t.stem))];
    const index = new Map(stems.map((s, i) => [s, i] as const));
    const notice = terms.find((t) => t.word === 'notice');
    assert.ok(notice);
    const phrase = phraseAround(terms, index, phraseBreaks(text), notice.position, index.get(notice.stem) ?? -1);
    assert.deepEqual(
      phrase.map((i) => stems[i]),
      ['chang', 'appli'],
    );
  });

  it('counts the phrase words near the word, not anywhere in a long place', () => {
    const near = 'such changes may apply at any time and without any notice to you';
    const far =
      'within thirty days of the first notice of a contract, and long after every other step of the whole process, changes apply';
    assert.equal(heldNear(near, 'notic', ['chang', 'appli']), 2);
    assert.equal(heldNear(far, 'notic', ['chang', 'appli']), 0);
  });
});
