// The lexicon (lexicon.ts): what a passage may say instead of a word of the sentence.

import * as assert from 'node:assert/strict';
import { alternativesOf } from '../../../../src/core/verifier/lexicon';
import { stem } from '../../../../src/core/text/terms';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  farewell:
    'Farewell\nThe outgoing director thanked the staff with great respect and handed the keys to her successor on her last day.',
  seats:
    'Seats\nA partner school may add seats to its campus plan no more frequently than quarterly, through the order form.',
  licences:
    'Licences\nSeat licences bought by a partner school are personal to the school and are not transferrable to any other campus.',
  archive: 'Archive\nThe Acme archive keeps the 15th-century charters of the abbey in a vault below the reading room.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('lexicon: adverbs the stemmer leaves whole', () => {
  it('meets "respectfully" by "respect" and "carelessly" by "careless", and nothing else', async () => {
    assert.deepEqual(alternativesOf(stem('respectfully')), [[stem('respect')]]);
    assert.deepEqual(alternativesOf(stem('carelessly')), [[stem('careless')]]);
    // Other "-ly" stems get no alternative from it ("apply", "early", "rally", "ugly").
    for (const w of ['apply', 'early', 'rally', 'ugly']) assert.deepEqual(alternativesOf(stem(w)), [], w);
    await expectKept('The outgoing director respectfully thanked the staff on her last day [E1].', P.farewell);
    // A rare word the passage lacks still sinks the sentence.
    await expectDropped('The outgoing director tearfully thanked the staff on her last day [E1].', P.farewell);
  });
});

describe('lexicon: a consonant doubled before "-able"', () => {
  it('meets "transferred" by "transferrable" and the reverse, but not "ad" by "add"', async () => {
    assert.ok(alternativesOf(stem('transferred')).some((a) => a.join() === stem('transferrable')));
    assert.ok(alternativesOf(stem('transferrable')).some((a) => a.join() === stem('transferred')));
    assert.ok(!alternativesOf(stem('ad')).some((a) => a.join() === 'add'));
    await expectKept("Seat licences can't be transferred to another campus [E1].", P.licences);
    await expectDropped('Seat licences can be transferred to another campus [E1].', P.licences);
  });
});

describe('lexicon: ordinals', () => {
  it('meets "fifteenth" by "15th" (read as "15" and "th"), and not by another ordinal', async () => {
    await expectKept('The Acme archive keeps the fifteenth-century charters of the abbey in a vault [E1].', P.archive);
    await expectDropped(
      'The Acme archive keeps the sixteenth-century charters of the abbey in a vault [E1].',
      P.archive,
    );
  });
});

describe('lexicon: a frequency word and its unit of time', () => {
  it('meets "once a quarter" by "quarterly" (and "month" by "monthly", "year" by "annually")', async () => {
    await expectKept('No more than once a quarter [E1].', P.seats);
    await expectKept('A partner school may add seats no more than once a quarter [E1].', P.seats);
    assert.ok(alternativesOf(stem('monthly')).some((a) => a.join(' ') === stem('month')));
    assert.ok(alternativesOf(stem('year')).some((a) => a.join(' ') === stem('annually')));
  });
});
