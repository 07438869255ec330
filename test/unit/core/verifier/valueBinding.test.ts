// A value is bound to the words of its phrase (valueBinding.ts): a value the passage gives only
// about something else does not back a sentence that says it of another thing. Sentences written
// for this test in the style of the failures (issue 21), not taken from an answer set.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts, verifyAnswer } from '../../../../src/core/verifier';
import { ledgerOf } from '../../../support/ledger';
import { FILLER } from '../../../support/lexicalChecks';

const P = {
  withdrawal:
    'Withdrawing a plugin\nWith ninety (90) days written notice to the marketplace, you may withdraw your plugin from the catalogue. Withdrawing it does not affect the licences of customers who bought or downloaded it before.',
  refunds:
    'Refunds\nA customer may ask for a refund within 14 days of buying a plugin. Refunds are paid to the original card.',
  invoices:
    'Paying\nCustomer must pay the fees within thirty (30) days of the invoice date. Payments are made in euros.',
  expenses:
    'Simple expenses\nThe following expenses can be entered as-is without receipts or written reasons, provided that each expense is under $60:\n- Fees for one checked bag per flight\n- Train tickets',
  retention:
    'Keeping data\n4.1 Partner shall delete match records within 30 days after closing the case.\n4.2 Section 4.1 does not apply to the customer token itself, which the customer keeps.',
  cookies:
    'Cookies we set\n| Name | Purpose | Expiration |\n| --- | --- | --- |\n| device_key | Recognises devices for sign-in checks | One year |\n| colour_choice | Your chosen colour scheme | Session |',
  offices:
    'Where to write\nLetters go to one of these addresses:\nShop Ltd. Harbour Quay 7, Dublin\nShop Inc. 40 Colin P. Kelly Jr. St. Boston, MA 02110',
};
const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);

async function verdictOf(sentence: string, passage: string) {
  const r = await verifyAnswer(sentence, ledgerOf({ E1: passage }), {
    scorer: createLexicalScorer({ termStats: stats }),
  });
  return r.sentences[0];
}

describe('a value the passage gives only about something else (valueBinding.ts)', () => {
  it('drops a value set beside words its place never uses ("bought … within the last 90 days keep their licences" where 90 days is the notice)', async () => {
    const v = await verdictOf(
      'Customers who bought or downloaded it within the last 90 days keep their licences [E1].',
      P.withdrawal,
    );
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.equal(v.code, 'value-mismatch');
    assert.match(v.reason, /gives it only for 'With ninety \(90\) days written notice/);
  });

  it('keeps the value where its place shares one word of its clause ("notice", "withdraw")', async () => {
    for (const sentence of [
      'You have to give the marketplace 90 days of written notice before you withdraw the plugin [E1].',
      'Withdrawing the plugin takes ninety days of notice [E1].',
      'Customers who bought the plugin before you withdraw it keep their licences [E1].',
    ]) {
      const v = await verdictOf(sentence, P.withdrawal);
      assert.equal(v.verdict, 'kept', `${sentence}: ${v.reason}`);
    }
  });

  it('reads a value\'s clause with what parentheses hold ("within thirty (30) days of the invoice date")', async () => {
    const v = await verdictOf(
      'Full payment in euros is due within thirty (30) days of the invoice date [E1].',
      P.invoices,
    );
    assert.equal(v.verdict, 'kept', v.reason);
  });

  it('drops a table row that gives another row\'s value ("| colour_choice | … | One year |")', async () => {
    const v = await verdictOf('| `colour_choice` | Your chosen colour scheme | One year [E1] |', P.cookies);
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.equal(v.code, 'value-mismatch');
  });

  it('keeps a row that gives its own value ("| device_key | … | One year |")', async () => {
    const v = await verdictOf('| `device_key` | Recognises devices for sign-in checks | One year [E1] |', P.cookies);
    assert.equal(v.verdict, 'kept', v.reason);
  });

  it('reads a value\'s clause across commas: the words before them are said of it ("entered as-is, …, as long as the fee is under $60")', async () => {
    const v = await verdictOf(
      'Your first checked bag can be entered as-is, with no receipt or written reason, as long as the fee is under $60 [E1].',
      P.expenses,
    );
    assert.equal(v.verdict, 'kept', v.reason);
  });

  it('ends a value\'s clause at a semicolon ("… within the last 90 days keep their licences; withdrawing does not affect them")', async () => {
    const v = await verdictOf(
      'Customers who bought or downloaded it within the last 90 days keep their licences; withdrawing it does not affect them [E1].',
      P.withdrawal,
    );
    assert.equal(v.code, 'value-mismatch', v.reason);
  });

  it('does not read a value written as a modifier: "the 30-day rule" names a period set elsewhere', async () => {
    const v = await verdictOf(
      'No, the token is not on that clock: the 30-day rule does not apply to the customer token itself [E1].',
      P.retention,
    );
    assert.doesNotMatch(v.reason ?? '', /gives it only for/);
  });

  it('reads only durations and amounts: a street number is a name, not a measure ("40 Colin P. Kelly Jr. St.")', async () => {
    // The passage's place of "40" ends at "P." (a unit of its own): read as a measure, it would hold no word of the clause.
    const v = await verdictOf('Write to Shop Inc., 40 Colin P. Kelly Jr. St., Boston, MA 02110 [E1].', P.offices);
    assert.equal(v.verdict, 'kept', v.reason);
  });

  it('leaves a value with fewer than two words of its own to the other checks ("The window is 14 days.")', async () => {
    const v = await verdictOf('Refunds: 14 days [E1].', P.refunds);
    assert.equal(v.verdict, 'kept', v.reason);
  });
});
