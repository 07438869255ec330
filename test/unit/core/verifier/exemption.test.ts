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

  it('exempts an elliptical reply after the particle ("Yes, it could.", "Yes, possibly.") and no reply that names a thing', () => {
    for (const s of [
      'Yes, it could.',
      'Yes, possibly.',
      "No, you don't.",
      'No, it can’t.',
      'Yes — they do.',
      'No, probably not.',
    ]) {
      assert.equal(isNonFactual(s), true, s);
    }
    for (const s of [
      'Yes, it could cost $50.',
      'Yes, the manager could.',
      'Yes, you can take 10 days.',
      'Maybe not, depending on the date.',
    ]) {
      assert.equal(isNonFactual(s), false, s);
    }
  });
});
