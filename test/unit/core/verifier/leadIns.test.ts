// A list's lead-in says what its items are (leadIns.ts): under "… are prohibited from:" every item is
// forbidden, so a sentence that negates an item is backed there. Made-up passages and sentences.

import * as assert from 'node:assert/strict';
import { underNegatingLead } from '../../../../src/core/verifier/leadIns';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  forbidden:
    'Use of member data\nMember data belongs to the members. Plugins and their authors are prohibited from:\n- Selling, renting, or sharing member data without written member consent\n- Emailing members outside the forum',
  allowed:
    'Use of member data\nMember data belongs to the members. Plugins and their authors may do the following:\n- Selling, renting, or sharing member data without written member consent\n- Emailing members outside the forum',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('leadIns: a lead-in that forbids negates each item of its list', () => {
  it('finds the lead-in of an item, past earlier items, and only for list items under a negating line ending with ":"', () => {
    const t = P.forbidden;
    assert.equal(underNegatingLead(t, t.indexOf('Selling')), true);
    assert.equal(underNegatingLead(t, t.indexOf('Emailing')), true);
    assert.equal(underNegatingLead(t, t.indexOf('\n- Emailing')), true, 'a unit may start at the line break');
    assert.equal(underNegatingLead(t, t.indexOf('Member data')), false, 'not a list item');
    assert.equal(underNegatingLead(P.allowed, P.allowed.indexOf('Selling')), false);
  });

  it('keeps "can\'t sell member data without consent" under "prohibited from:", and drops it under a lead-in that permits', async () => {
    await expectKept("Plugins can't sell or share member data without written member consent [E1].", P.forbidden);
    await expectDropped(
      "Plugins can't sell or share member data without written member consent [E1].",
      P.allowed,
      'negation-mismatch',
    );
  });
});
