// "Both A and B" where the passage says "A or B" (coordination.ts): made-up passages and sentences.

import * as assert from 'node:assert/strict';
import { bothWhereEither } from '../../../../src/core/verifier/coordination';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  either:
    'Joining\nTo join the pilot you need at least one seat on Acme Cloud or Acme Desk, and one licensed Acme Server.',
  together: 'Joining\nTo join the pilot you need a seat on Acme Cloud and Acme Desk, and one licensed Acme Server.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('coordination: "both … and" where the passage says "or"', () => {
  it('drops "seats on both Acme Cloud and Acme Desk" against "Acme Cloud or Acme Desk"', async () => {
    await expectDropped('To join the pilot you need seats on both Acme Cloud and Acme Desk [E1].', P.either);
    await expectKept('To join the pilot you need a seat on Acme Cloud or Acme Desk [E1].', P.either);
  });

  it('keeps it where the passage joins them with "and", and reads nothing without "both"', async () => {
    await expectKept('To join the pilot you need seats on both Acme Cloud and Acme Desk [E1].', P.together);
    assert.equal(bothWhereEither('You need Acme Cloud and Acme Desk.', P.either), undefined);
  });
});
