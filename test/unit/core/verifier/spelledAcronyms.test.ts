// An acronym of the sentence that the passage spells out in lower case (spelledAcronyms.ts): "your
// AO's approval" for "your authorizing official". Made-up passages and sentences.

import * as assert from 'node:assert/strict';
import { spelledOut } from '../../../../src/core/verifier/spelledAcronyms';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  travel:
    'Finalizing approvals\nSecure written approval from your authorizing official and send it to the travel team so they can approve your trip.',
  review:
    'Code review\nEvery pull request needs one approving review before it is merged. Requests under the freedom of information act go to the records office.',
  order: 'Purchases\nSend an order form to the finance team before you buy anything.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('spelledAcronyms: an acronym the passage spells out in lower case', () => {
  it('reads the initials of one phrase of content words, in order', () => {
    assert.equal(spelledOut('AO', P.travel), true);
    assert.equal(spelledOut('PR', P.review), true);
    assert.equal(spelledOut('FOIA', P.review), true, 'a link word ("of") may sit inside a longer name');
    assert.equal(spelledOut('OA', P.travel), false, 'the letters in another order');
    assert.equal(spelledOut('AO', 'Send it to your authorizing, official team.'), false, 'punctuation ends a phrase');
    assert.equal(spelledOut('AO', P.order), false, '"an order": a small word is no initial');
    assert.equal(spelledOut('AO', 'Ask an ox.'), false, 'a two-letter acronym needs words of three letters or more');
    assert.equal(spelledOut('OAR', 'a list of approved requests'), false, 'a run never starts with a link word');
    assert.equal(spelledOut('Ao', P.travel), false, 'only an acronym in capitals');
  });

  it('keeps "Send your AO\'s written approval to the travel team" against "your authorizing official"', async () => {
    await expectKept("Send your AO's written approval to the travel team [E1].", P.travel);
    await expectKept('A PR needs one approving review before it is merged [E1].', P.review);
  });

  it('drops an acronym whose letters the passage does not spell out', async () => {
    await expectDropped("Send your CO's written approval to the travel team [E1].", P.travel, 'low-support');
    await expectDropped("Send your OA's written approval to the travel team [E1].", P.travel, 'low-support');
    await expectDropped('Send an AO form to the finance team before you buy anything [E1].', P.order, 'low-support');
  });
});
