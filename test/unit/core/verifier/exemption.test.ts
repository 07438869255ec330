// The exemption (exemption.ts): a reply that is only an answer particle, hedged or not.

import * as assert from 'node:assert/strict';
import { isNonFactual } from '../../../../src/core/verifier/exemption';

describe('exemption: answer particles', () => {
  it('exempts "Generally, yes.", "Usually not.", "Not by default." and no sentence that says more', () => {
    for (const s of ['Generally, yes.', 'Usually not.', 'Not by default.', 'Probably not.', 'Generally, no.']) {
      assert.equal(isNonFactual(s), true, s);
    }
    for (const s of ['Generally, yes, within 30 days.', 'Not by default: Legal must approve.', 'A manager.']) {
      assert.equal(isNonFactual(s), false, s);
    }
  });
});
