// Issue 9, item 6: each clause of a compound sentence must be backed, proper names are matched
// like values, NOT_FOUND is one line, and a lower-case start after a full stop is a sentence.

import * as assert from 'node:assert/strict';
import { splitSentences, verifyAnswer, verifyClaim } from '../../../../src/core/verifier';
import { splitClauses } from '../../../../src/core/verifier/clauses';
import { extractNames } from '../../../../src/core/verifier/names';
import { ledgerOf } from '../../../support/ledger';

// Our own small fictional policies (not corpus text).
const ANNUAL = 'Refunds > Annual plans\nAnnual plans may be refunded pro rata within 90 days of purchase.';
const OUTAGES = 'Support > Outages\nOutages are acknowledged within one hour by email.';
const VENDOR = 'Vendors\nPayments to Acme Inc are approved by the finance team within 10 business days.';
const ledger = ledgerOf({ E1: ANNUAL, E2: OUTAGES, E3: VENDOR });

describe('clause-level support', () => {
  it('splits compound sentences at the joining words, not plain lists', () => {
    assert.deepEqual(splitClauses('Annual plans may be refunded within 90 days, and so may monthly plans').map((c) => c.text), [
      'Annual plans may be refunded within 90 days',
      'and so may monthly plans',
    ]);
    assert.deepEqual(splitClauses('Outages are acknowledged within one hour, including by phone').map((c) => c.text), [
      'Outages are acknowledged within one hour',
      'including by phone',
    ]);
    assert.equal(splitClauses('Claims must be approved by a manager and filed within 30 days').length, 2);
    assert.equal(splitClauses('Visitors get coffee and also a parking pass').length, 2);
    assert.equal(splitClauses('Employees take annual, sick and family leave').length, 1);
  });

  it('drops "…, and so may monthly plans [E1]." (the issue example) naming the unbacked clause', async () => {
    const r = await verifyAnswer('Annual plans may be refunded pro rata within 90 days of purchase, and so may monthly plans [E1].', ledger);
    const [s] = r.sentences;
    assert.equal(s.verdict, 'dropped');
    assert.equal(s.code, 'low-support');
    assert.match(s.reason, /the clause 'and so may monthly plans' is not backed: the cited passage does not mention 'monthly'/);
    assert.ok(s.support < 0.6);
    assert.equal(r.abstained, true);
  });

  it('drops "…within one hour, including by phone [E2]." and keeps the backed sentence beside it', async () => {
    const r = await verifyAnswer('Outages are acknowledged within one hour by email [E2]. Outages are acknowledged within one hour, including by phone [E2].', ledger);
    assert.deepEqual(r.sentences.map((s) => s.verdict), ['kept', 'dropped']);
    assert.match(r.sentences[1].reason, /clause 'including by phone'.*'phone'/);
    assert.equal(r.answer, 'Outages are acknowledged within one hour by email [E2].');
  });

  it('drops a coordinated predicate the passage does not back', async () => {
    const v = await verifyClaim('Annual plans may be refunded pro rata within 90 days and transferred to another customer', ANNUAL);
    assert.equal(v.supported, false);
  });

  it('keeps a compound sentence whose every clause is backed', async () => {
    const v = await verifyClaim('Payments to Acme Inc are approved by the finance team, and they are approved within 10 business days', VENDOR);
    assert.equal(v.supported, true);
  });
});

describe('proper names are matched like values', () => {
  it('reads capitalised words after the first, mixed letters and digits, and acronyms as names', () => {
    assert.deepEqual(extractNames('Refunds at Globex go through Acme Corp and the W2 desk in Ohio').map((n) => n.text), ['Globex', 'Acme', 'Corp', 'W2', 'Ohio']);
    assert.deepEqual(extractNames('Employees may take leave on Fridays in May').map((n) => n.text), []);
  });

  it('does not back a sentence naming an organisation the passage never mentions, whatever its overlap', async () => {
    const r = await verifyAnswer('Payments to Globex Inc are approved by the finance team within 10 business days [E3].', ledger);
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.match(r.sentences[0].reason, /never names 'Globex'/);
  });

  it('does not back a near-miss name ("Acme Corp" for "Acme Inc")', async () => {
    const v = await verifyClaim('Payments to Acme Corp are approved by the finance team within 10 business days', VENDOR);
    assert.deepEqual(v, { supported: false, score: 0 });
  });

  it('keeps the name the passage gives, whatever its case', async () => {
    const v = await verifyClaim('The Finance Team approves payments to Acme Inc within 10 business days', VENDOR);
    assert.equal(v.supported, true);
  });
});

describe('NOT_FOUND is one line', () => {
  it('shows the text after the NOT_FOUND line as dropped and unverified, never as the reason', async () => {
    const text = 'NOT_FOUND: nothing about monthly plans.\n\nAnnual plans are refundable within 30 days [E1].';
    const r = await verifyAnswer(text, ledger);
    assert.equal(r.abstained, true);
    assert.equal(r.answer, 'NOT_FOUND: nothing about monthly plans.');
    assert.equal(r.sentences.length, 1);
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.equal(r.sentences[0].code, 'after-abstention');
    assert.equal(r.sentences[0].text, 'Annual plans are refundable within 30 days [E1].');
    assert.equal(text.slice(r.sentences[0].start, r.sentences[0].end), r.sentences[0].text);
  });

  it('a one-line abstention has no sentences', async () => {
    const r = await verifyAnswer('  NOT_FOUND: nothing about parental leave.  ', ledger);
    assert.deepEqual([r.answer, r.abstained, r.sentences.length], ['NOT_FOUND: nothing about parental leave.', true, 0]);
  });
});

describe('a lower-case start after a full stop', () => {
  it('starts a new sentence, so the second claim is checked on its own', async () => {
    assert.deepEqual(splitSentences('Annual plans are refundable [E1]. monthly plans are refundable too.').map((s) => s.text), [
      'Annual plans are refundable [E1].',
      'monthly plans are refundable too.',
    ]);
    assert.deepEqual(splitSentences('Annual plans may be refunded within 90 days. monthly plans too [E1].').length, 2);
    const r = await verifyAnswer('Annual plans may be refunded pro rata within 90 days of purchase. monthly plans may be refunded too [E1].', ledger);
    assert.equal(r.sentences.length, 2);
    assert.equal(r.sentences[0].code, 'no-citation');
  });

  it('keeps abbreviations and an ellipsis inside one sentence', () => {
    assert.equal(splitSentences('Bring an ID, e.g. a passport, to the desk.').length, 1);
    assert.equal(splitSentences('The plan... and then the refund.').length, 1);
  });
});
