// A contrast written in the sentence ("A, not B") and a negation the passage carries through a verb's
// role or will (contrast.ts, polarity.ts). Made-up sentences, each with the control that must still drop.

import * as assert from 'node:assert/strict';
import { contrastCues } from '../../../../src/core/verifier/contrast';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  form: 'Kiosk form\nOn the kiosk form, the answer for "Which room?" is Annex, even though you might think Atrium is right.',
  formOther: 'Kiosk form\nOn the kiosk form, the answer for "Which room?" is Atrium. Annex rooms are listed too.',
  badge: 'Badges\nVisitor | lobby_pass | This badge opens the lobby doors. | One day',
  boards: 'Boards\nContractors join boards as viewers; don’t add them as editors of the Workspace.',
  boardsOther: 'Boards\nContractors join boards as editors of the Workspace, and as viewers of the archive.',
  supplier:
    'Suppliers\nIf the supplier does not wish to pursue certification, the tool will no longer be approved for use within the bureau.',
  supplierOther:
    'Suppliers\nIf the supplier wishes to pursue certification, the tool will no longer be approved for use within the bureau.',
  orders:
    'Orders\nNote: For Non-Central (Central Buying Office) orders, when the plan is final, send an email to buying@example.gov.',
  ordersOther:
    'Orders\nNote: For Central (Central Buying Office) orders, when the plan is final, send an email to buying@example.gov.',
  lists:
    'Mailing lists\nTo bring outside members into your list, use add instead of invite. You manage their settings.',
  listsOther:
    'Mailing lists\nTo bring outside members into your list, use invite instead of add. You manage their settings.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('contrast: "A, not B" claims A and excludes B', () => {
  it('finds a "not" after a comma or dash, up to the end of its phrase', () => {
    assert.deepEqual(contrastCues('Pick Annex — not Atrium, even though you might expect it'), [{ cue: 2, end: 3 }]);
    assert.deepEqual(contrastCues('It is a badge cookie, not a third-party one.'), [{ cue: 5, end: 9 }]);
    assert.deepEqual(contrastCues('It is not a badge.'), []);
    assert.deepEqual(contrastCues('Bring it, not only the form.'), []);
  });

  it('keeps "Annex — not Atrium" where the passage rejects Atrium by a concession, and drops the swapped pair', async () => {
    await expectKept('For the room field of the kiosk form, pick Annex — not Atrium [E1].', P.form);
    await expectDropped('For the room field of the kiosk form, pick Atrium — not Annex [E1].', P.form);
    // The passage affirms Atrium for that answer.
    await expectDropped('For the room field of the kiosk form, pick Annex — not Atrium [E1].', P.formOther);
  });

  it('keeps "A, not B" where the passage never mentions B', async () => {
    await expectKept('The lobby_pass badge is a Visitor badge, not a third-party one [E1].', P.badge);
  });

  it('keeps "as viewers, not as editors" against "don’t add them as editors", and drops it where editors is affirmed', async () => {
    await expectKept('Contractors join boards as viewers, not as editors of the Workspace [E1].', P.boards);
    await expectDropped('Contractors join boards as viewers, not as editors of the Workspace [E1].', P.boardsOther);
    await expectDropped('Contractors join boards as editors, not as viewers of the Workspace [E1].', P.boards);
  });
});

describe('polarity: a negated condition met by a negated will, a negated light verb', () => {
  it('meets "won’t pursue" in "does not wish to pursue", and not in "wishes to pursue"', async () => {
    await expectKept(
      "If the supplier won't pursue certification, the tool stops being approved for use within the bureau [E1].",
      P.supplier,
    );
    await expectDropped(
      "If the supplier won't pursue certification, the tool stops being approved for use within the bureau [E1].",
      P.supplierOther,
      'negation-mismatch',
    );
  });

  it('reads "Don’t use invite" as denying the invite: kept against "use add instead of invite", dropped against the reverse', async () => {
    await expectKept("Don't use invite to bring outside members into your list [E1].", P.lists);
    // Not past a phrase: "don't use by the end" does not deny the end.
    await expectDropped("Don't use invite to bring outside members into your list [E1].", P.listsOther);
  });

  it('meets "orders that don\'t go through Central" in "Non-Central orders", and not in "Central orders"', async () => {
    const sentence = "For orders that don't go through Central, email buying@example.gov once the plan is final [E1].";
    await expectKept(sentence, P.orders);
    await expectDropped(sentence, P.ordersOther, 'negation-mismatch');
  });
});
