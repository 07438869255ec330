// The verifier's three checks (cited, real in this turn, supporting), its reasons, the
// conservative exemption, the rewrite and the abstention.

import * as assert from 'node:assert/strict';
import { NOT_FOUND_UNSUPPORTED, verifyAnswer } from '../../../../src/core/verifier';
import { isAbstention } from '../../../../src/domain/abstention';
import { citationCoverage, turnMetrics } from '../../../../src/domain/coverage';
import { ledgerOf } from '../../../support/ledger';

const LEAVE =
  'Full-time employees accrue 30 days of paid vacation per calendar year. Unused vacation days may be carried over to the next year, up to 5 days.';
const REFUNDS = 'Annual plans are refundable pro rata within 90 days of purchase. Monthly plans are not refundable.';
const TRAVEL =
  'Employees must book economy class for flights under six hours. Business class requires approval from a director.';
const ledger = ledgerOf({ E1: LEAVE, E2: REFUNDS, E3: TRAVEL });

describe('verifyAnswer', () => {
  it('keeps a cited sentence that its passage supports, with the lexical tier and a score', async () => {
    const r = await verifyAnswer('Full-time employees accrue 30 days of paid vacation per year [E1].', ledger);
    assert.equal(r.abstained, false);
    assert.equal(r.sentences.length, 1);
    const [s] = r.sentences;
    assert.equal(s.verdict, 'kept');
    assert.equal(s.code, 'supported');
    assert.equal(s.reason, 'supported');
    assert.equal(s.tier, 'lexical');
    assert.deepEqual(s.citations, ['E1']);
    assert.ok(s.support >= 0.9, `support ${s.support}`);
    assert.equal(r.answer, 'Full-time employees accrue 30 days of paid vacation per year [E1].');
  });

  it('drops an uncited factual sentence (no-citation) and keeps the rest', async () => {
    const r = await verifyAnswer(
      'Annual plans are refundable within 90 days of purchase [E2]. Refunds are paid within 5 business days.',
      ledger,
    );
    assert.deepEqual(
      r.sentences.map((s) => s.code),
      ['supported', 'no-citation'],
    );
    assert.equal(r.sentences[1].verdict, 'dropped');
    assert.match(r.sentences[1].reason, /^no-citation: /);
    assert.equal(r.answer, 'Annual plans are refundable within 90 days of purchase [E2].');
  });

  it('drops a sentence citing an id not retrieved in this turn (unknown-id), even beside a real one', async () => {
    const r = await verifyAnswer('Employees accrue 30 days of paid vacation [E1][E9].', ledger);
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.equal(r.sentences[0].code, 'unknown-id');
    assert.equal(r.sentences[0].reason, 'unknown-id: E9 was not retrieved in this turn');
    assert.equal(r.answer, NOT_FOUND_UNSUPPORTED);
    assert.equal(r.abstained, true);
  });

  it('drops citation laundering: a real id on the same topic that says something else', async () => {
    const r = await verifyAnswer(
      'Business travellers may book first class tickets on any international route [E3].',
      ledger,
    );
    const [s] = r.sentences;
    assert.equal(s.verdict, 'dropped');
    assert.equal(s.code, 'low-support');
    assert.match(s.reason, /^low-support: the cited passage does not mention .*'first'/);
    assert.ok(s.support < 0.5);
  });

  it('names the missing words across all cited passages when several are cited', async () => {
    const r = await verifyAnswer('Contractors receive stock options after a probation period [E1, E3].', ledger);
    assert.equal(r.sentences[0].code, 'low-support');
    assert.match(r.sentences[0].reason, /^low-support: no cited passage mentions 'contractors receive stock options'/);
  });

  it('drops a number that contradicts the passage: 30 days where it says 90 (value-mismatch)', async () => {
    const r = await verifyAnswer('Annual plans are refundable pro rata within 30 days of purchase [E2].', ledger);
    const [s] = r.sentences;
    assert.equal(s.verdict, 'dropped');
    assert.equal(s.code, 'value-mismatch');
    assert.equal(s.reason, "value-mismatch: '30 days' — the passage says 90 days");
  });

  it('drops a sentence whose value the passage does not state at all', async () => {
    const r = await verifyAnswer(
      'Annual plans are refundable pro rata within 90 days of purchase, for a $25 fee [E2].',
      ledger,
    );
    assert.equal(r.sentences[0].code, 'low-support');
    assert.equal(r.sentences[0].reason, "low-support: the passage does not mention '$25'");
  });

  it('drops a sentence that drops the negation of its passage (negation-mismatch)', async () => {
    const r = await verifyAnswer('Monthly plans are refundable [E2].', ledger);
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.equal(r.sentences[0].code, 'negation-mismatch');
    assert.match(r.sentences[0].reason, /the passage negates 'refundable'/);
  });

  it('drops a sentence that negates what its passage affirms', async () => {
    const r = await verifyAnswer('Unused vacation days may not be carried over to the next year [E1].', ledger);
    assert.equal(r.sentences[0].code, 'negation-mismatch');
  });

  it('keeps a negated sentence whose passage says the same', async () => {
    const r = await verifyAnswer('Monthly plans are not refundable [E2].', ledger);
    assert.equal(r.sentences[0].verdict, 'kept');
  });

  it('matches inflections through stems', async () => {
    const r = await verifyAnswer('Business-class flights require a director’s approval [E3].', ledger);
    assert.equal(r.sentences[0].verdict, 'kept', r.sentences[0].reason);
  });

  it('exempts only greetings, hedges and meta sentences without content', async () => {
    const r = await verifyAnswer(
      'Here is what I found in the documents. Employees accrue 30 days of paid vacation [E1]. Hope this helps!',
      ledger,
    );
    assert.deepEqual(
      r.sentences.map((s) => [s.verdict, s.code]),
      [
        ['exempt', 'non-factual'],
        ['kept', 'supported'],
        ['exempt', 'non-factual'],
      ],
    );
    assert.match(r.answer, /Hope this helps!/);
  });

  it('does not exempt a factual sentence dressed as a hedge', async () => {
    for (const text of [
      'I think employees probably get 30 days of leave.',
      'I am not sure, but contractors may be eligible.',
      'Hope this helps: refunds take 5 days.',
      'Perhaps business class is allowed.',
      'As far as I know, the policy applies to everyone.',
    ]) {
      const r = await verifyAnswer(text, ledger);
      assert.equal(r.sentences[0].verdict, 'dropped', text);
      assert.equal(r.sentences[0].code, 'no-citation', text);
    }
  });

  it('abstains when no factual sentence is kept, even if exempt ones remain', async () => {
    const r = await verifyAnswer('Hello! Contractors get 40 days of leave [E1].', ledger);
    assert.equal(r.answer, NOT_FOUND_UNSUPPORTED);
    assert.equal(r.abstained, true);
    assert.equal(r.sentences.length, 2);
  });

  it('rewrites a list answer with only the kept items and no empty bullets, its lead-in shown as it is', async () => {
    const text =
      'Leave rules:\n\n- Employees accrue 30 days of paid vacation [E1].\n- Contractors get 40 days [E1].\n- Up to 5 unused days carry over to the next year [E1].';
    const r = await verifyAnswer(text, ledger);
    assert.deepEqual(
      r.sentences.map((s) => s.verdict),
      ['exempt', 'kept', 'dropped', 'kept'],
    );
    assert.equal(
      r.answer,
      'Leave rules:\n\n- Employees accrue 30 days of paid vacation [E1].\n- Up to 5 unused days carry over to the next year [E1].',
    );
  });

  it('keeps the sentence offsets of the original text', async () => {
    const text = 'Hi. Monthly plans are not refundable [E2].';
    const r = await verifyAnswer(text, ledger);
    for (const s of r.sentences) assert.equal(text.slice(s.start, s.end), s.text);
  });

  it('passes blank text and explicit abstentions through untouched', async () => {
    assert.deepEqual(await verifyAnswer('  ', ledger), { answer: '  ', abstained: false, sentences: [] });
    const nf = 'NOT_FOUND: the documents say nothing about parental leave in Japan.';
    assert.deepEqual(await verifyAnswer(nf, ledger), { answer: nf, abstained: true, sentences: [] });
    assert.equal(isAbstention('  NOT_FOUND: x'), true);
    assert.equal(isAbstention('The answer is NOT_FOUND: x'), false);
  });

  it('takes the threshold from the options: a partial match passes at 0.3 and fails at 0.9', async () => {
    const text = 'Employees accrue paid vacation and a yearly wellness bonus [E1].';
    const low = await verifyAnswer(text, ledger, { threshold: 0.3 });
    const high = await verifyAnswer(text, ledger, { threshold: 0.9 });
    assert.equal(low.sentences[0].verdict, 'kept');
    assert.equal(high.sentences[0].verdict, 'dropped');
    assert.equal(low.sentences[0].support, high.sentences[0].support);
    // An unset threshold keeps the default instead of becoming undefined.
    const unset = await verifyAnswer(text, ledger, { threshold: undefined });
    assert.equal(unset.sentences[0].support, low.sentences[0].support);
  });

  it('refuses a threshold outside 0..1 with a clear error', async () => {
    await assert.rejects(verifyAnswer('x [E1].', ledger, { threshold: 1.5 }), /threshold must be a number from 0 to 1/);
    await assert.rejects(
      verifyAnswer('x [E1].', ledger, { threshold: Number.NaN }),
      /threshold must be a number from 0 to 1/,
    );
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(verifyAnswer('Monthly plans are not refundable [E2].', ledger, {}, controller.signal), {
      name: 'AbortError',
    });
  });
});

describe('coverage of a verified answer', () => {
  it('computes coverage over factual sentences only, 1 when there are none', async () => {
    const r = await verifyAnswer(
      'Hi. Monthly plans are not refundable [E2]. Contractors get 40 days [E1]. Refunds take a week.',
      ledger,
    );
    assert.deepEqual(turnMetrics(3, r), { retrieved: 3, coverage: 1 / 3, dropped: 2, abstained: false });
    assert.equal(citationCoverage([], false), 1);
  });

  it('is 0 when every factual sentence is dropped (the verifier abstains)', async () => {
    const r = await verifyAnswer('Contractors get 40 days [E1]. Refunds take a week.', ledger);
    assert.equal(r.abstained, true);
    assert.deepEqual(turnMetrics(3, r), { retrieved: 3, coverage: 0, dropped: 2, abstained: true });
  });
});
