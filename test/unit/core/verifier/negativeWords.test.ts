// A passage's negative word ("declined", "refused") stands for a negated sentence's negation only where
// it governs the negated word: not when the word sits in another predicate coordinated with it in the
// same sentence (polarity.ts `negativeWordGoverns`). Tried in session 7 and reverted, because it dropped
// the exact quote "Monthly plans are not refundable" in a samples turn: that turn's window was the
// passage's heading (session 8: a heading states nothing), so the rule stands now.

import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  declined:
    'Recruiting\nIn 2019 Initech offered Dana Whitfield a post in London. Whitfield declined the offer and joined Globex.',
  parking: 'Travel costs\nParking at the airport is reimbursed and Wi-Fi on the plane is free.',
  refused: 'Requests\nThe board refused the request to extend the deadline.',
  monthly:
    'Refunds and Cancellations > Monthly plans\nMonthly plans are not refundable. When a customer cancels a monthly plan, the subscription stays active until the end of the month already paid for.',
};
const { expectKept, expectDropped } = lexicalChecks(P);

describe('polarity: a negative word of the passage and the predicate it governs', () => {
  it('does not let "declined the offer" deny "joined Globex" in the next predicate', async () => {
    await expectDropped('Whitfield did not join Globex [E1].', P.declined, 'negation-mismatch');
    await expectDropped('Whitfield never joined Globex [E1].', P.declined, 'negation-mismatch');
  });

  it('does not let a negation-free passage back a negated predicate coordinated with another', async () => {
    await expectDropped('Parking at the airport is not reimbursed [E1].', P.parking, 'negation-mismatch');
  });

  it('still reads a negative word for the predicate it governs', async () => {
    await expectKept('The board did not grant the request to extend the deadline [E1].', P.refused);
  });

  it('keeps the exact quote under a heading that holds a negative word ("Cancellations")', async () => {
    await expectKept('Monthly plans are not refundable [E1].', P.monthly);
  });
});
