// Issue 9, item 6: each clause of a compound sentence must be backed, proper names are matched
// like values, NOT_FOUND is one line, and a lower-case start after a full stop is a sentence.

import * as assert from 'node:assert/strict';
import { splitSentences, verifyAnswer, verifyClaim } from '../../../../src/core/verifier';
import { splitClauses } from '../../../../src/core/verifier/clauses';
import { extractNames, missingNames, passageStems } from '../../../../src/core/verifier/names';
import { ledgerOf } from '../../../support/ledger';

// Our own small fictional policies (not corpus text).
const ANNUAL = 'Refunds > Annual plans\nAnnual plans may be refunded pro rata within 90 days of purchase.';
const OUTAGES = 'Support > Outages\nOutages are acknowledged within one hour by email.';
const VENDOR = 'Vendors\nPayments to Acme Inc are approved by the finance team within 10 business days.';
const ledger = ledgerOf({ E1: ANNUAL, E2: OUTAGES, E3: VENDOR });

describe('clause-level support', () => {
  it('reads a short tail after the last comma as an appended claim ("…, guaranteed"), not a predicate after a parenthesis', async () => {
    assert.deepEqual(
      splitClauses('Outages are acknowledged within one hour by email, guaranteed').map((c) => c.text),
      ['Outages are acknowledged within one hour by email', 'guaranteed'],
    );
    assert.equal(splitClauses('Refunds cover 1 and 3 months, respectively').length, 1);
    assert.equal(splitClauses('The cookie, which lets browsers check a request, lasts two weeks').length, 1);
    const appended = await verifyAnswer('Outages are acknowledged within one hour by email, guaranteed [E2].', ledger);
    assert.equal(appended.sentences[0].verdict, 'dropped', appended.sentences[0].reason);
    assert.match(appended.sentences[0].reason, /clause 'guaranteed'/);
    const plain = await verifyAnswer('Outages are acknowledged within one hour, by email [E2].', ledger);
    assert.equal(plain.sentences[0].verdict, 'kept', plain.sentences[0].reason);
  });

  it('splits compound sentences at the joining words, not plain lists', () => {
    assert.deepEqual(
      splitClauses('Annual plans may be refunded within 90 days, and so may monthly plans').map((c) => c.text),
      ['Annual plans may be refunded within 90 days', 'and so may monthly plans'],
    );
    assert.deepEqual(
      splitClauses('Outages are acknowledged within one hour, including by phone').map((c) => c.text),
      ['Outages are acknowledged within one hour', 'including by phone'],
    );
    assert.equal(splitClauses('Claims must be approved by a manager and filed within 30 days').length, 2);
    assert.equal(splitClauses('Visitors get coffee and also a parking pass').length, 2);
    assert.equal(splitClauses('Employees take annual, sick and family leave').length, 1);
  });

  it('reads ", and" closing an enumeration of three or more items as one list, not a second clause', () => {
    assert.equal(splitClauses('Refunds go to Ana Ruiz, Bo Lind, Cy Moss, and Di Park').length, 1);
    assert.equal(splitClauses('Receipts may be scanned, photographed, or mailed').length, 1);
    // A subject or a verb after the conjunction opens a clause, list before it or not.
    assert.equal(splitClauses('The desk opens at 9, closes at 5, and it answers by email').length, 2);
    assert.equal(splitClauses('Claims were filed on May 5, 2024, and were approved a week later').length, 2);
    assert.equal(splitClauses('Annual plans may be refunded within 90 days, and so may monthly plans').length, 2);
    assert.deepEqual(
      splitClauses('Annual plans may be refunded by email, by phone, and so may monthly plans').map((c) => c.text),
      ['Annual plans may be refunded by email, by phone', 'and so may monthly plans'],
    );
  });

  it('drops "…, and so may monthly plans [E1]." (the issue example) naming the unbacked clause', async () => {
    const r = await verifyAnswer(
      'Annual plans may be refunded pro rata within 90 days of purchase, and so may monthly plans [E1].',
      ledger,
    );
    const [s] = r.sentences;
    assert.equal(s.verdict, 'dropped');
    assert.equal(s.code, 'low-support');
    assert.match(
      s.reason,
      /the clause 'and so may monthly plans' is not backed: the cited passage does not mention 'monthly'/,
    );
    assert.ok(s.support < 0.6);
    assert.equal(r.abstained, true);
  });

  it('drops "…within one hour, including by phone [E2]." and keeps the backed sentence beside it', async () => {
    const r = await verifyAnswer(
      'Outages are acknowledged within one hour by email [E2]. Outages are acknowledged within one hour, including by phone [E2].',
      ledger,
    );
    assert.deepEqual(
      r.sentences.map((s) => s.verdict),
      ['kept', 'dropped'],
    );
    assert.match(r.sentences[1].reason, /clause 'including by phone'.*'phone'/);
    assert.equal(r.answer, 'Outages are acknowledged within one hour by email [E2].');
  });

  it('drops a coordinated predicate the passage does not back', async () => {
    const v = await verifyClaim(
      'Annual plans may be refunded pro rata within 90 days and transferred to another customer',
      ANNUAL,
    );
    assert.equal(v.supported, false);
  });

  it('keeps a compound sentence whose every clause is backed', async () => {
    const v = await verifyClaim(
      'Payments to Acme Inc are approved by the finance team, and they are approved within 10 business days',
      VENDOR,
    );
    assert.equal(v.supported, true);
  });
});

describe('proper names are matched like values', () => {
  it('reads capitalised words after the first, mixed letters and digits, and acronyms as names', () => {
    assert.deepEqual(
      extractNames('Refunds at Globex go through Acme Corp and the W2 desk in Ohio').map((n) => n.text),
      ['Globex', 'Acme', 'Corp', 'W2', 'Ohio'],
    );
    assert.deepEqual(
      extractNames('Employees may take leave on Fridays in May').map((n) => n.text),
      [],
    );
  });

  it('does not back a sentence naming an organisation the passage never mentions, whatever its overlap', async () => {
    const r = await verifyAnswer(
      'Payments to Globex Inc are approved by the finance team within 10 business days [E3].',
      ledger,
    );
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.match(r.sentences[0].reason, /never names 'Globex'/);
  });

  it('does not back a near-miss name ("Acme Corp" for "Acme Inc")', async () => {
    const v = await verifyClaim(
      'Payments to Acme Corp are approved by the finance team within 10 business days',
      VENDOR,
    );
    assert.deepEqual(v, { supported: false, score: 0 });
  });

  it('finds a name the passage writes in another form: diacritics, stops in an acronym, words run together', async () => {
    const passage = 'Offices\nThe U.S. office of Zoë Müller opens at 9. Contacts: MainDeskNorthgate';
    const missing = (sentence: string): string[] =>
      missingNames(extractNames(sentence), passageStems(passage)).map((n) => n.text);
    assert.deepEqual(missing('The US office of Zoe Muller opens at 9'), []);
    assert.deepEqual(missing('Write to the Northgate desk'), []);
    assert.equal((await verifyClaim('The US office opens at 9', passage)).supported, true);
    // Another name is still missing, whatever the form.
    assert.deepEqual(missing('The UK office of Zoe Miller opens at 9'), ['UK', 'Miller']);
    assert.deepEqual(await verifyClaim('The UK office opens at 9', passage), { supported: false, score: 0 });
  });

  it('finds an acronym the passage spells out and a name the passage gives as an acronym, never by two-letter initials', () => {
    const passage =
      'Stores\nThe store in Rapid City sells to the Corn Growers Union (CGU), to the U.S. Navy and to the AC desk of Acme Inc. It opened in Canada.';
    const missing = (sentence: string): string[] =>
      missingNames(extractNames(sentence), passageStems(passage)).map((n) => n.text);
    assert.deepEqual(missing('The store in RC sells to the CGU'), ['RC']);
    assert.deepEqual(
      missingNames(extractNames('Fees go to the NFL'), passageStems('Fees go to the National Football League')),
      [],
    );
    assert.deepEqual(missing('It sells to the Corn Growers Union and the United States Navy'), []);
    // Initials that are another acronym, two-letter initials the passage writes without stops, a nationality: still missing.
    assert.deepEqual(missing('The store sells to the NCGU and to Acme Corp'), ['NCGU', 'Corp']);
    assert.deepEqual(missing('It opened as a Canadian store'), ['Canadian']);
    assert.deepEqual(missing('It sells to the Corn Growers Guild'), ['Guild']);
  });

  it('keeps the name the passage gives, whatever its case', async () => {
    const v = await verifyClaim('The Finance Team approves payments to Acme Inc within 10 business days', VENDOR);
    assert.equal(v.supported, true);
  });
});

describe('NOT_FOUND is one line', () => {
  it('verifies the text after the NOT_FOUND line like any other sentence, never shows it as the reason', async () => {
    const text = 'NOT_FOUND: nothing about monthly plans.\n\nAnnual plans are refundable within 30 days [E1].';
    const r = await verifyAnswer(text, ledger);
    assert.equal(r.abstained, true);
    assert.equal(r.answer, 'NOT_FOUND: nothing about monthly plans.');
    assert.equal(r.sentences.length, 1);
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.equal(r.sentences[0].code, 'value-mismatch');
    assert.equal(r.sentences[0].text, 'Annual plans are refundable within 30 days [E1].');
    assert.equal(text.slice(r.sentences[0].start, r.sentences[0].end), r.sentences[0].text);
  });

  it('a one-line abstention has no sentences', async () => {
    const r = await verifyAnswer('  NOT_FOUND: nothing about parental leave.  ', ledger);
    assert.deepEqual(
      [r.answer, r.abstained, r.sentences.length],
      ['NOT_FOUND: nothing about parental leave.', true, 0],
    );
  });
});

describe('a lower-case start after a full stop', () => {
  it('starts a new sentence, so the second claim is checked on its own', async () => {
    assert.deepEqual(
      splitSentences('Annual plans are refundable [E1]. monthly plans are refundable too.').map((s) => s.text),
      ['Annual plans are refundable [E1].', 'monthly plans are refundable too.'],
    );
    assert.deepEqual(splitSentences('Annual plans may be refunded within 90 days. monthly plans too [E1].').length, 2);
    const r = await verifyAnswer(
      'Annual plans may be refunded pro rata within 90 days of purchase. monthly plans may be refunded too [E1].',
      ledger,
    );
    assert.equal(r.sentences.length, 2);
    assert.equal(r.sentences[0].code, 'no-citation');
  });

  it('keeps abbreviations and an ellipsis inside one sentence', () => {
    assert.equal(splitSentences('Bring an ID, e.g. a passport, to the desk.').length, 1);
    assert.equal(splitSentences('The plan... and then the refund.').length, 1);
  });
});
