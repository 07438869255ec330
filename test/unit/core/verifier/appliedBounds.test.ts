// The asker's case inside the passage's bound (appliedBounds.ts): "members under 18, which would cover
// a 16-year-old" needs no "16" in the passage, and a case outside the bound still does. Made-up texts.

import * as assert from 'node:assert/strict';
import { withoutAppliedCases } from '../../../../src/core/verifier/appliedBounds';
import { extractValues } from '../../../../src/core/verifier/values';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  minors: 'Young members\nAcme does not sell the contact details of known members under 18 years of age.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

function kept(sentence: string, passage: string): string[] {
  return withoutAppliedCases(sentence, extractValues(sentence), extractValues(passage)).map((v) => v.text);
}

describe("appliedBounds: the asker's case inside a bound the sentence states", () => {
  it("leaves out a plain value inside the bound (in the bound's unit or converted), and keeps one outside it", () => {
    assert.deepEqual(kept('Members under 18, which would cover a 16-year-old.', P.minors), ['18']);
    assert.deepEqual(kept('Members under 18, which would cover a 19-year-old.', P.minors), ['18', '19-year']);
    assert.deepEqual(kept('Trips of 120 days or less; two months is within that.', 'Trips of 120 days or less.'), [
      '120 days',
    ]);
    assert.deepEqual(kept('Trips of 120 days or less; five months is within that.', 'Trips of 120 days or less.'), [
      '120 days',
      'five months',
    ]);
    // No bound in the sentence: every value must be given.
    assert.deepEqual(kept('Members aged 18 and a 16-year-old.', P.minors), ['18', '16-year']);
  });

  it('keeps "under 18, which would cover a 16-year-old", and drops "… a 19-year-old"', async () => {
    await expectKept(
      'Acme does not sell the contact details of known members under 18, which would cover a 16-year-old [E1].',
      P.minors,
    );
    await expectDropped(
      'Acme does not sell the contact details of known members under 18, which would cover a 19-year-old [E1].',
      P.minors,
    );
  });
});
