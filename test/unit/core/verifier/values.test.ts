// Values (values.ts) and the fact or name a value is bound to (valueBinding.ts), on made-up
// sentences: a day of a month is one value with its month, and a value the passage gives for
// another named thing (a table row naming part of it) is a contradiction.

import * as assert from 'node:assert/strict';
import { extractValues } from '../../../../src/core/verifier/values';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  grace:
    'Grace period\nIf you incur expenses from January 1 through March 15, you have until April 30 to submit claims against the prior year.',
  releases:
    'Release dates\nProduct | Preview date | Release date\nAcme Sync | 3 October 2025 | 12 March 2026\nAcme Reports Dashboard | 3 October 2025 | 19 March 2026\nBeacon | 3 October 2025 | [TBD]',
  story: 'Launch\nAcme Sync was announced on 3 October 2025. It was released to everyone on 12 March 2026.',
  chapel:
    'History\nThe Acme chapel was built in the nineteenth century and celebrated its fiftieth anniversary with a twenty-first edition of its fair.',
  stadium: 'Stadium\nThe Acme stadium cost £1.2m to build and its footbridge is 3.5km long, the council said.',
  grant: 'Grants\nThe Acme foundation awarded the river clean-up project a grant of $1,500,000 last spring.',
  review:
    'Review phases\nThe optional pre-review by the Acme board takes up to 7 days. Filing with the Acme registry then takes 1-2 business days.',
  refund: 'Refunds\nA cancelled Acme plan is refunded within 30 calendar days of the request, less a 5% fee.',
  pilot: 'Pilot\nThe four-day week pilot runs over the 2025-2026 school year in every Acme office.',
  notice: 'Notice\nA tenant must give 48 hours of notice, and the deposit of $200 is returned within 25 days.',
  visitors: 'Visitors\nThe Acme museum has welcomed 500,000 visitors and holds 1,000 paintings.',
  helpdesk:
    'Help desk\nThe Acme help desk is staffed twenty-four (24) hours per day, five (5) days per week. Tickets are opened through the web portal.',
  licence: 'Licence\nThe Acme licence runs for an initial term of one year, and a one-year renewal may follow.',
};
const { verdictOf } = lexicalChecks(P);

describe('values: days of months and the named thing a value belongs to', () => {
  it('reads "April 15", "15 April" and "Apr. 15" as one date, not as the 15 of "March 15"', async () => {
    const keys = (t: string): string[] => extractValues(t).map((v) => v.key);
    assert.deepEqual(keys('until April 15'), ['april 15']);
    assert.deepEqual(keys('on 15 April 2026'), ['april 15', '2026']);
    assert.deepEqual(keys('on Apr. 15, 2026'), ['april 15', '2026']);
    // The month of a unit that starts after "Aug." (context), and "May" only as a capitalised month.
    assert.deepEqual(
      extractValues('10, 2014', 'ET Aug. ').map((v) => v.key),
      ['august 10', '2014'],
    );
    assert.deepEqual(keys('you may 5 times'), ['5']);
    const v = await verdictOf(
      'Expenses from January 1 through March 15 can still be claimed against the prior year until April 15 [E1].',
      P.grace,
    );
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.equal(v.code, 'value-mismatch');
    const ok = await verdictOf(
      'Expenses from January 1 through March 15 can still be claimed against the prior year until April 30 [E1].',
      P.grace,
    );
    assert.equal(ok.verdict, 'kept', ok.reason);
  });

  it('drops a date the passage gives for another named row ("Acme Reports Dashboard"), keeps the row’s own', async () => {
    const swapped = await verdictOf('By the release list, Acme Sync was released on 19 March 2026 [E1].', P.releases);
    assert.equal(swapped.verdict, 'dropped', `kept at ${swapped.support.toFixed(2)}`);
    assert.equal(swapped.code, 'value-mismatch', swapped.reason);
    assert.match(swapped.reason, /12 March/);
    const own = await verdictOf('By the release list, Acme Sync was released on 12 March 2026 [E1].', P.releases);
    assert.equal(own.verdict, 'kept', own.reason);
    // A place naming nothing ("It was released …") does not bind the date to another name.
    const told = await verdictOf('As announced, Acme Sync was released to everyone on 12 March 2026 [E1].', P.story);
    assert.equal(told.verdict, 'kept', told.reason);
  });

  it('reads a short range of years ("2025–26") as the two years, not as 26 of something', async () => {
    const keys = (t: string): string[] => extractValues(t).map((v) => v.key);
    assert.deepEqual(keys('over the 2025–26 school year'), ['2025', '2026']);
    assert.deepEqual(keys('the 1914-18 war and the 2011/12 season'), ['1914', '1918', '2011', '2012']);
    // Not a date's month and day, not a score, not a number glued to more digits.
    assert.deepEqual(keys('updated 2004-10-19'), ['2004', '10', '19']);
    assert.deepEqual(keys('a 10–7 lead'), ['10', '7']);
    assert.deepEqual(keys('from 2018-05 on'), ['2018', '5']);
    const kept = await verdictOf(
      'The four-day week pilot runs over the 2025–26 school year in every Acme office [E1].',
      P.pilot,
    );
    assert.equal(kept.verdict, 'kept', kept.reason);
    const other = await verdictOf(
      'The four-day week pilot runs over the 2025–27 school year in every Acme office [E1].',
      P.pilot,
    );
    assert.equal(other.verdict, 'dropped', `kept at ${other.support.toFixed(2)}`);
  });

  it('meets the numerals of a value found in the window in any form ("$1.5 million" / "$1,500,000")', async () => {
    const { expectKept: kept, expectDropped: dropped } = lexicalChecks(P);
    await kept('The river clean-up project was awarded a grant of $1.5 million [E1].', P.grant);
    await dropped('The river clean-up project was awarded a grant of $2.5 million [E1].', P.grant, 'value-mismatch');
  });

  it('reads number words that write one number together as that number ("forty-eight", "two hundred", "half a million")', async () => {
    const keys = (t: string): string[] => extractValues(t).map((v) => v.key);
    assert.deepEqual(keys('within twenty-five (25) days'), ['25', '25']);
    assert.deepEqual(keys('forty-eight hours'), ['48']);
    assert.deepEqual(keys('two hundred dollars'), ['200']);
    assert.deepEqual(keys('nine hundred thousand people'), ['900000']);
    assert.deepEqual(keys('a thousand paintings, one million visitors, half a million visitors'), [
      '1000',
      '1000000',
      '500000',
    ]);
    // A scale word with no count before it is not a number; "one" and "a" alone are not values.
    assert.deepEqual(keys('the million-dollar question is one of a kind'), []);
    const { expectKept: kept, expectDropped: dropped } = lexicalChecks(P);
    await kept('A tenant must give forty-eight hours of notice [E1].', P.notice);
    await kept('The deposit of two hundred dollars is returned within twenty-five (25) days [E1].', P.notice);
    await dropped('A tenant must give forty-two hours of notice [E1].', P.notice, 'value-mismatch');
    await kept('The Acme museum has welcomed half a million visitors [E1].', P.visitors);
    await kept('The Acme museum holds a thousand paintings [E1].', P.visitors);
    await dropped('The Acme museum has welcomed a million visitors [E1].', P.visitors, 'value-mismatch');
  });

  it('reads ordinal words as their numerals ("nineteenth century" is "19th century"), not first, second or third', async () => {
    const keys = (t: string): string[] => extractValues(t).map((v) => v.key);
    assert.deepEqual(keys('the nineteenth century'), ['19']);
    assert.deepEqual(keys('its fiftieth anniversary'), ['50']);
    assert.deepEqual(keys('the twenty-first edition'), ['21']);
    // A second is a unit of time, a third a share, a third party nobody's rank: words, not values.
    assert.deepEqual(keys('for a second time, a third of third-party apps'), []);
    const { expectKept: kept, expectDropped: dropped } = lexicalChecks(P);
    await kept('The Acme chapel was built in the 19th century [E1].', P.chapel);
    await kept('The Acme chapel celebrated its 50th anniversary [E1].', P.chapel);
    await kept('The Acme chapel held the 21st edition of its fair [E1].', P.chapel);
    await dropped('The Acme chapel was built in the 18th century [E1].', P.chapel, 'value-mismatch');
    await dropped('The Acme chapel was built in the eighteenth century [E1].', P.chapel, 'value-mismatch');
  });

  it('reads a numeral whole or not at all, and an amount with its scale glued on ("£1.2m") as that amount', async () => {
    const keys = (t: string): string[] => extractValues(t).map((v) => v.key);
    assert.deepEqual(keys('£1.2m, $2M, €3bn, $45k and 2.5bn people'), [
      '1200000',
      '2000000',
      '3000000000',
      '45000',
      '2500000000',
    ]);
    // Not £1, not 3: no part of a numeral; "k", "m", "b" without a currency may be metres, a resolution, a subsection.
    assert.deepEqual(keys('a 3.5km bridge, the 100m sprint, 4K video, section 2b, 1.2m users'), []);
    const { expectKept: kept, expectDropped: dropped } = lexicalChecks(P);
    await kept('The Acme stadium cost £1.2 million to build [E1].', P.stadium);
    await dropped('The Acme stadium cost £1.5 million to build [E1].', P.stadium, 'value-mismatch');
    // "3.5km" was read as 3: a footbridge of 3 km passed.
    await dropped('The footbridge of the Acme stadium is 3 km long [E1].', P.stadium);
  });
});

describe('values: the unit of time or money is part of the value', () => {
  it('reads "one" before a unit of time as a duration ("one business day"), and "one" elsewhere as a word', async () => {
    const keys = (t: string): string[][] => extractValues(t).map((v) => [v.key, v.unit]);
    assert.deepEqual(keys('within one business day'), [['1', 'busi']]);
    assert.deepEqual(keys('a one-year renewal'), [['1', 'year']]);
    assert.deepEqual(keys('one of the users picks one option'), []);
    assert.deepEqual(keys('twenty-one days'), [['21', 'dai']]);
    const { expectKept: kept, expectDropped: dropped } = lexicalChecks(P);
    // A response time the passage never gives (its figures are hours per day and days per week).
    await dropped('The Acme help desk answers every ticket within one business day [E1].', P.helpdesk);
    await kept('The Acme licence runs for an initial term of one year [E1].', P.licence);
    await kept('After the first year, the Acme licence may be renewed for one year [E1].', P.licence);
    await dropped('The Acme licence runs for an initial term of one month [E1].', P.licence);
  });

  it('drops "7 business days" for "7 days" and "7 weeks" for "7 days"; keeps "30 days" for "30 calendar days"', async () => {
    const { expectKept: kept, expectDropped: dropped } = lexicalChecks(P);
    await kept('The optional pre-review by the Acme board takes up to 7 days [E1].', P.review);
    await dropped(
      'The optional pre-review by the Acme board takes up to 7 business days [E1].',
      P.review,
      'value-mismatch',
    );
    await dropped('The optional pre-review by the Acme board takes up to 7 weeks [E1].', P.review);
    await kept('A cancelled Acme plan is refunded within 30 days of the request, less a 5% fee [E1].', P.refund);
    await dropped('A cancelled Acme plan is refunded within 30 days of the request, less a $5 fee [E1].', P.refund);
    assert.equal(extractValues('It takes 7 business days.')[0].text, '7 business days');
  });
});
