// A negated sentence whose negated words the passage does not hold (polarity.ts, the fallback when no
// negated word is found): a negation of the window stands for the sentence's only when it does not deny
// a word the sentence affirms. Found on answers-fresh-2: a planted "No — holding a clearance doesn't
// come with extra pay…" kept at 0.67 on the passage's "…a type of position, not a clearance level".

import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  clearance:
    'Clearances\nMost Acme staff hold moderate risk Public Trust positions. Public Trust is a type of position, not a clearance level.\nFor some projects, partners need staff to have a security clearance to view classified information.',
  business: 'Flights\nEconomy class is required for all flights. Business class is not reimbursed.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('polarity: a negated predicate the passage does not hold', () => {
  it('is not backed by a negation that denies a word the sentence affirms', async () => {
    await expectDropped(
      'No — holding a clearance doesn’t come with extra pay at Acme, where most staff hold Public Trust positions [E1].',
      P.clearance,
    );
  });

  it('is backed by a negation of the same subject in other words', async () => {
    await expectKept('Business class is not covered [E1].', P.business);
    await expectKept('Public Trust is not a clearance level [E1].', P.clearance);
  });
});
