// An aside addressed to the reader ("Keep in mind that …", "Note that …") frames a claim and states
// nothing: the claim is checked without its words (readerAsides.ts, verifier.ts). Found on
// answers-fresh-5 ("If you do give the money back, keep in mind that amounts refunded … are
// deducted", dropped for 'keep', 'mind'); the same aside lowered faithful sentences on answers-fresh
// to -4 ("Keep in mind that everything in Google Drive can be FOIA'ed" at 0.60).

import * as assert from 'node:assert/strict';
import { withoutReaderAside } from '../../../../src/core/verifier/readerAsides';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  payments:
    'Payments\nThe monthly payment to a sponsored developer is the gross amount received, less any amounts refunded or charged back to a sponsor.',
  drive: 'Google Drive\nEverything stored in Google Drive can be requested under FOIA.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('readerAsides: an aside to the reader states nothing', () => {
  it('reads the claim without an opening aside', () => {
    assert.equal(withoutReaderAside('Keep in mind that refunds are deducted.'), 'refunds are deducted.');
    assert.equal(withoutReaderAside('Also note that refunds are deducted.'), 'refunds are deducted.');
    assert.equal(withoutReaderAside('Bear in mind these are 2016 figures.'), 'these are 2016 figures.');
    assert.equal(withoutReaderAside('Be aware that a request may be refused.'), 'a request may be refused.');
  });

  it('reads the claim without an aside after a leading clause', () => {
    assert.equal(
      withoutReaderAside('If you refund a sponsor, keep in mind that refunds are deducted.'),
      'If you refund a sponsor, refunds are deducted.',
    );
  });

  it('leaves an instruction and a sentence of only an aside as written', () => {
    assert.equal(withoutReaderAside('Note the deadline in your calendar.'), 'Note the deadline in your calendar.');
    assert.equal(withoutReaderAside('Remember to file the form.'), 'Remember to file the form.');
    assert.equal(withoutReaderAside('Keep in mind that.'), 'Keep in mind that.');
    assert.equal(withoutReaderAside('Keep your receipts in mind.'), 'Keep your receipts in mind.');
  });

  it('keeps a faithful claim behind an aside', async () => {
    // Without the aside read apart: 0.53, dropped for 'keep', 'mind' and one word said otherwise.
    await expectKept(
      'If you refund a sponsor, keep in mind that refunds are taken off your monthly payment [E1].',
      P.payments,
    );
    await expectKept('Keep in mind that refunded amounts come off the monthly payment [E1].', P.payments);
  });

  it('still checks the claim behind the aside', async () => {
    await expectDropped('Keep in mind that Google Drive files are deleted after 30 days [E1].', P.drive);
    await expectDropped('Note that nothing in Google Drive can be requested under FOIA [E1].', P.drive);
  });
});
