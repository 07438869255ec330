// Negation polarity (polarity.ts) on model-shaped sentences of session 5: a bound on a value is
// not a negation, and a passage negates a word through the shape of its clause (a negative
// determiner, "not" before a preposition, "un-"). Made-up sentences, each with the control that
// must still drop.

import * as assert from 'node:assert/strict';
import { boundAt } from '../../../../src/core/verifier/anchors';
import { CLAUSE_SHAPES_BEFORE, negatedInClause } from '../../../../src/core/verifier/polarity';
import { escapeRegExp } from '../../../../src/core/text/matches';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  refunds: 'Refunds\nRefunds are paid as soon as possible, and within 14 days after the request is received.',
  pay: 'Pay\nTotal pay including bonuses may not exceed $150,000 a year.',
  program:
    'Term appointments\nNo contractor hired under this program may work more than 6 years at the agency, and each renewal is approved by the director.',
  programAffirmed:
    'Term appointments\nContractors hired under this program may work more than 6 years at the agency, and no review is needed.',
  agreement:
    'Agreements\nThe agreement is signed between the two agencies, not between the employee and the host agency.',
  agreementOther: 'Agreements\nThe agreement is signed between the employee and the host agency, not the two agencies.',
  portal:
    'Outages\nGive the help desk all available details. If the portal is unavailable, call the help desk and describe the problem.',
  replica:
    'Replicas\nBuilding a replica of an existing storefront on Acme Sites as a study exercise is not prohibited. You must write the code yourself.',
  replicaBanned:
    'Replicas\nBuilding a replica of an existing storefront on Acme Sites as a study exercise is prohibited. You must write the code yourself.',
  vouchers:
    'Vouchers\nThe payment method for all Acme mileage vouchers is a bank transfer. Do not use your corporate card.',
  vouchersSwapped:
    'Vouchers\nThe payment method for all Acme mileage vouchers is your corporate card. Do not use a bank transfer.',
  boards: 'Old boards\nArchive old project boards rather than deleting them. This keeps the records.',
  boardsSwapped: 'Old boards\nDelete old project boards rather than archiving them. This keeps the list short.',
  mileage:
    'Mileage claims\nEnter the distance in the claim form. No further action in the portal is needed until the month ends.',
  mileageReceipt:
    'Mileage claims\nA fuel receipt in the portal is needed until the month ends. Enter the distance in the claim form.',
  logo: 'Sponsors\nOther than as needed for such posts, Acme shall acquire no rights to use or copy, or interest in, the sponsor logo.',
  logoAffirmed:
    'Sponsors\nOther than as needed for such posts, Acme shall acquire no rights to use or copy the sponsor logo, and an interest in it.',
  portalUp:
    'Outages\nGive the help desk all available details. If the portal is available, call the help desk and describe the problem.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('polarity: bounds and the shape of the passage’s clause', () => {
  it('reads "no more than 14 days" as a bound on the value, not as a negation of the passage', async () => {
    await expectKept(
      'Refunds are paid as soon as possible and no more than 14 days after the request [E1].',
      P.refunds,
    );
    await expectDropped(
      'Refunds are paid as soon as possible and no more than 10 days after the request [E1].',
      P.refunds,
      'value-mismatch',
    );
  });

  it('reads "can\'t go above $150,000" as an upper bound, and "can\'t go below" as a lower one', async () => {
    assert.equal(boundAt("pay can't go above $150,000", 19, 27), 'upper');
    assert.equal(boundAt('pay may not fall below $150,000', 23, 31), 'lower');
    await expectKept("Your total pay, bonuses included, can't go above $150,000 a year [E1].", P.pay);
    await expectDropped(
      "Your total pay, bonuses included, can't go below $150,000 a year [E1].",
      P.pay,
      'value-mismatch',
    );
  });

  it('meets "no one may work" in "No contractor hired … may work" (a negative determiner negates its clause)', async () => {
    await expectKept('Under this program, no one may work more than 6 years at the agency [E1].', P.program);
    await expectDropped(
      'Under this program, no one may work more than 6 years at the agency [E1].',
      P.programAffirmed,
      'negation-mismatch',
    );
  });

  it('meets "not between you and the host agency" in "not between the employee and the host agency"', async () => {
    await expectKept(
      'The agreement is signed between the agencies, not between you and the host agency [E1].',
      P.agreement,
    );
    await expectDropped(
      'The agreement is signed between the agencies, not between you and the host agency [E1].',
      P.agreementOther,
      'negation-mismatch',
    );
  });

  it('meets "isn\'t available" in "unavailable", and not in "available"', async () => {
    await expectKept("If the portal isn't available, call the help desk and describe the problem [E1].", P.portal);
    await expectDropped(
      "If the portal isn't available, call the help desk and describe the problem [E1].",
      P.portalUp,
      'negation-mismatch',
    );
  });

  it('negatedInClause stops at the clause: a comma ends the determiner’s reach', () => {
    assert.equal(negatedInClause('No contractor hired here may work more than 6 years', 'work'), true);
    assert.equal(negatedInClause('Contractors may work here, and no review is needed', 'work'), false);
    // Not the subject ("with no visible activity"): the phrase is negated, the clause's predicate is not.
    assert.equal(negatedInClause('Accounts with no visible activity may be in active use', 'activ'), true);
    assert.equal(negatedInClause('Accounts with no visible activity may be in active use', 'use'), false);
    assert.equal(
      negatedInClause('These are preferred if no govt. contract discounted fares are left', 'discount'),
      true,
    );
    assert.equal(negatedInClause('not between the employee and the host agency', 'host'), true);
    assert.equal(negatedInClause('not the two agencies; the host agency signs', 'host'), false);
    // A negated permission negates what it permits, and only that clause.
    assert.equal(negatedInClause("The tool doesn't let you report a message already in spam", 'report'), true);
    assert.equal(negatedInClause("The tool doesn't let you delete it, but you may report it", 'report'), false);
  });
});

describe('polarity: a negated forbidding word permits', () => {
  it('keeps "is allowed" against "is not prohibited", and still drops it against "is prohibited"', async () => {
    await expectKept(
      'Building a replica of an existing storefront on Acme Sites as a study exercise is allowed [E1].',
      P.replica,
    );
    await expectDropped(
      'Building a replica of an existing storefront on Acme Sites as a study exercise is allowed [E1].',
      P.replicaBanned,
      'negation-mismatch',
    );
  });
});

describe('polarity: a negated verb negates its object', () => {
  it('keeps "a bank transfer, not your corporate card" against "Do not use your corporate card"', async () => {
    await expectKept(
      'For Acme mileage vouchers the payment method is a bank transfer, not your corporate card [E1].',
      P.vouchers,
    );
    await expectDropped(
      'For Acme mileage vouchers the payment method is a bank transfer, not your corporate card [E1].',
      P.vouchersSwapped,
    );
  });
});

describe('polarity: a name reached past words the passage lacks is not what a cue denies', () => {
  const passages = {
    stayed:
      'Recruiting\nIn 2019 Initech offered Dana Whitfield a post in London. Whitfield turned down the offer and stayed with Globex, never tempted to move.',
    elsewhere:
      'Recruiting\nIn 2019 Initech offered Dana Whitfield a post in London. Whitfield turned down the offer and stayed with Globex. She had never planned to move abroad.',
    joined:
      'Recruiting\nIn 2019 Initech offered Dana Whitfield a post. Whitfield accepted the offer and joined Globex.',
  };
  const checks = lexicalChecks(passages);
  const sentence = 'Whitfield turned down the offer from Initech as she did not want to leave Globex [E1].';

  it('keeps "did not want to leave Globex" against "stayed with Globex, never tempted to move"', async () => {
    await checks.expectKept(sentence, passages.stayed);
  });

  it('still drops a negated predicate the passage affirms, a name the cue negates directly, and a negation the passage never backs', async () => {
    await checks.expectDropped('Whitfield did not join Globex [E1].', passages.joined, 'negation-mismatch');
    await checks.expectDropped('Whitfield accepted the offer and joined Initech, not Globex [E1].', passages.joined);
    // The passage's only negation is about another thing ("never planned to move abroad", a unit of its own).
    await checks.expectDropped(sentence, passages.elsewhere, 'negation-mismatch');
  });
});

describe('polarity: a contrast rejects what it names', () => {
  it('keeps "don\'t delete old boards" against "archive … rather than deleting them", and drops it against the reverse', async () => {
    await expectKept("Don't delete old project boards; archive them [E1].", P.boards);
    await expectDropped("Don't delete old project boards; archive them [E1].", P.boardsSwapped);
  });
});

describe('negatedInClause: the shapes asked where the stem stands', () => {
  // The definition: each whole shape as one pattern per stem (the stem, then any letters).
  const byPattern = (text: string, stem: string): boolean =>
    CLAUSE_SHAPES_BEFORE.some((before) =>
      new RegExp(`${before}${escapeRegExp(stem)}\\p{L}*(?![\\p{L}])`, 'iu').test(text),
    );

  it('gives what each shape as one pattern per stem gives, on tricky text', () => {
    const texts = [
      'No contractor hired here may work more than 6 years',
      'Contractors may work here, and no review is needed',
      'Accounts with no visible activity may be in active use',
      'not between the employee and the host agency; NOT FOR hosts',
      "The tool doesn't let you report a message, and it can’t let users to reporting",
      'Close boards rather than deleting them, instead of archiving. Rather than  Deleting',
      "Don't add them as members. Never add us as the Member",
      'They do not wish to pursue it; we don’t want to quickly pursue',
      'If the portal is unavailable or un-available or non-available, call. Unavailability',
      'neither the ſtatus nor the K-rating; No ſtatus here',
      'no 😀 emoji work, no work😀s, no works',
      'Worker works: a workwork, no\nwork at all; (no work)',
      '',
    ];
    const stems = [
      'work',
      'activ',
      'use',
      'host',
      'report',
      'delet',
      'archiv',
      'member',
      'pursu',
      'avail',
      'statu',
      'k',
      'ſtatu',
      'café',
      'w',
      'emoji',
    ];
    for (const text of texts) {
      for (const stem of stems) {
        assert.equal(negatedInClause(text, stem), byPattern(text, stem), `'${stem}' in '${text}'`);
      }
    }
  });
});

describe("polarity: a need whose subject is a negative determiner's phrase", () => {
  it('keeps "you don\'t need to do anything else in the portal" against "No further action in the portal is needed"', async () => {
    await expectKept("You don't need to do anything else in the portal until the month ends [E1].", P.mileage);
    await expectKept('Nothing else is needed in the portal until the month ends [E1].', P.mileage);
    await expectDropped(
      "You don't need to do anything else in the portal until the month ends [E1].",
      P.mileageReceipt,
    );
  });
});

describe('polarity: a date reached past words the passage lacks is not what a cue denies', () => {
  const passages = {
    dates:
      'Review calendar\nDate | Item\nOctober 3, 2025 | Internal due date to close out review plans (if not done during 1:1s)\nOctober 9, 2025 | Official due date to close out review plans',
  };
  const checks = lexicalChecks(passages);

  it('keeps "Don\'t mix it up with October 9, 2025, the official due date", and drops a date the cue denies directly', async () => {
    await checks.expectKept(
      "Don't mix it up with October 9, 2025, which is the official due date to close out review plans [E1].",
      passages.dates,
    );
    await checks.expectDropped(
      'The official due date to close out review plans is not October 9, 2025 [E1].',
      passages.dates,
      'negation-mismatch',
    );
  });
});

describe('polarity: "or" under a negation goes on negating', () => {
  it('keeps "no interest in the logo" against "no rights to use or copy, or interest in, the logo"', async () => {
    await expectKept('Acme acquires no interest in the sponsor logo [E1].', P.logo);
    await expectDropped('Acme acquires no interest in the sponsor logo [E1].', P.logoAffirmed, 'negation-mismatch');
  });
});
