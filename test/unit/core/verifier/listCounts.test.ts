// A passage's list counts its items (listCounts.ts): "Crews:" and three items back "three crews".

import * as assert from 'node:assert/strict';
import { listCounts } from '../../../../src/core/verifier/listCounts';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  crews: 'Acme rescue service (ARS)\nCrews:\n- Mountain Rescue Crew (MRC)\n- Lake Rescue Crew (LRC)\n- Dog Handlers',
  prose: 'Acme rescue service (ARS)\nThe mountain rescue crew and the lake rescue crew answer calls at night.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('list counts: a list in the passage gives the number of its items', () => {
  it('reads a lead-in and its items as a count of the lead-in noun', () => {
    assert.deepEqual(
      listCounts(P.crews).map((v) => [v.key, v.unit]),
      [['3', 'crew']],
    );
    assert.deepEqual(listCounts(P.prose), []);
    assert.deepEqual(listCounts('Steps:\n1. Open the form.\n2) Sign it.\nThen wait.'), [
      { key: '2', unit: 'step', text: '2 Steps' },
    ]);
  });

  it('keeps "has three crews" against a list of three crews, drops "four crews" and a count prose never gives', async () => {
    await expectKept('The Acme rescue service (ARS) has three crews [E1].', P.crews);
    await expectKept(
      'The Acme rescue service (ARS) is made up of three crews: the MRC, the LRC and the Dog Handlers [E1].',
      P.crews,
    );
    await expectDropped('The Acme rescue service (ARS) has four crews [E1].', P.crews, 'value-mismatch');
    await expectDropped('The Acme rescue service (ARS) has two rescue crews [E1].', P.prose);
  });
});
