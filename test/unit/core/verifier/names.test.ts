// Proper names (names.ts) on model-shaped sentences: a possessive names what its word names.

import * as assert from 'node:assert/strict';
import { verifyAnswer } from '../../../../src/core/verifier';
import { extractNames } from '../../../../src/core/verifier/names';
import { ledgerOf } from '../../../support/ledger';

describe('names: possessives', () => {
  it('reads "the AO\'s approval" as naming the AO, and still drops a name the passage lacks', async () => {
    assert.deepEqual(
      extractNames("Send the AO's approval to the Agencies' desk").map((n) => n.text),
      ['AO', 'Agencies'],
    );
    const ledger = ledgerOf({ E1: 'Travel approval\nThe AO sends a written approval to the travel desk by 3:30 PM.' });
    const kept = await verifyAnswer("The AO's written approval goes to the travel desk by 3:30 PM [E1].", ledger);
    assert.equal(kept.sentences[0].verdict, 'kept', kept.sentences[0].reason);
    const other = await verifyAnswer("The COR's written approval goes to the travel desk by 3:30 PM [E1].", ledger);
    assert.equal(other.sentences[0].verdict, 'dropped');
    assert.match(other.sentences[0].reason, /never names 'COR'/);
  });
});
