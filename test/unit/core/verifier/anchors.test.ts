// Anchors (anchors.ts) on made-up model-shaped sentences of session 5: the quantifier of a noun
// is part of the claim, and a hedge may name its source and the missing thing in its own words.

import * as assert from 'node:assert/strict';
import {
  dateWords,
  emphaticOf,
  isHedge,
  looseText,
  missingIdentifier,
  quantifiedNounConflict,
} from '../../../../src/core/verifier/anchors';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  laptops: 'Laptops\nPersonal laptops cannot be plugged into the office network at any regional office.',
  meals: 'Client meals\nFor any meals costing over $80, you need written approval from Finance first.',
  meals2: 'Client meals\nAll client meals should be reimbursed by the team budget.',
  meals3: 'Client meals\nAll client meals are reimbursed by the team budget, without exception.',
  outages:
    'Outages\nIf the vendor misses the response deadline on four or more days in a quarter, we notify the vendor.',
  escort:
    'Late arrivals\nIf you arrive after 6 p.m. without a badge, ask an Acme team member who has night access to escort you in.',
  updates:
    'Updates\nYou may turn off automatic updates for Acme agents, but Acme reserves the right to override your choice for critical fixes.',
  purge: 'Deleted files\nDeleted files are purged permanently from the Acme archive after 30 days.',
  locks: 'Locks\nAcme owners can place a temporary or permanent lock on a discussion thread.',
  resale:
    'Resale\nIn the preceding twelve (12) months, Acme has not sold the personal data of applicants to any third party.',
  contact:
    'Contacting members\nYou must get permission through a separate opt-in process to contact members outside the forum.',
  notice: 'Office move\nPosted Nov 14, 2025. The Acme design team moves to the fourth floor next week.',
};
const { verdictOf } = lexicalChecks(P);

describe('anchors: quantified nouns and hedges', () => {
  it('drops "at most regional offices" where the passage says "at any regional office", keeps "at any"', async () => {
    const v = await verdictOf(
      'Personal laptops cannot be plugged into the office network at most regional offices [E1].',
      P.laptops,
    );
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.match(v.reason, /most regional offices/);
    const ok = await verdictOf(
      'Personal laptops cannot be plugged into the office network at any regional office [E1].',
      P.laptops,
    );
    assert.equal(ok.verdict, 'kept', ok.reason);
  });

  it('reads "at all" in a purpose or a condition as "even once", not as a scope the passage must set', async () => {
    assert.equal(emphaticOf('To contact members outside the forum at all, you need permission.'), null);
    assert.equal(emphaticOf('If you contact members at all, get permission first.'), null);
    assert.equal(emphaticOf('Any change at all is announced.'), 'at all');
    const v = await verdictOf(
      'To contact members outside the forum at all, you must get permission through a separate opt-in process [E1].',
      P.contact,
    );
    assert.equal(v.verdict, 'kept', v.reason);
  });

  it('drops "every such meal" where the passage narrows the meals by a value, keeps the narrowed claim', async () => {
    const v = await verdictOf('Every such meal needs written approval from Finance first [E1].', P.meals);
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    const ok = await verdictOf('Any meal over $80 needs written approval from Finance first [E1].', P.meals);
    assert.equal(ok.verdict, 'kept', ok.reason);
  });

  it('drops "on any day" where the passage counts "four or more days"', async () => {
    const v = await verdictOf(
      'If the vendor misses the response deadline on any day in a quarter, we notify the vendor [E1].',
      P.outages,
    );
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.equal(
      quantifiedNounConflict('They get paid on most days', 'They get paid on most days of the month.'),
      undefined,
    );
    assert.equal(
      quantifiedNounConflict('You can renew it at most 3 times', 'You may renew it at most 3 times.'),
      undefined,
    );
  });

  it('drops "without exception" / "whichever team hosts" where the passage does not rule exceptions out', async () => {
    const v = await verdictOf('Every client meal is reimbursed by the team budget, without exception [E1].', P.meals2);
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    const w = await verdictOf(
      'All client meals are reimbursed by the team budget, whichever team hosts [E1].',
      P.meals2,
    );
    assert.equal(w.verdict, 'dropped', `kept at ${w.support.toFixed(2)}`);
    assert.match(w.reason, /whichever team/);
    const ok = await verdictOf('Every client meal is reimbursed by the team budget, without exception [E1].', P.meals3);
    assert.equal(ok.verdict, 'kept', ok.reason);
  });

  it('reads a hedge that names its source or the missing thing in its own words', () => {
    assert.equal(isHedge("The handbook doesn't list an hourly rate for sign language interpreters."), true);
    assert.equal(isHedge("The Travel passages shown don't list a phone number for the desk."), true);
    assert.equal(isHedge('No yearly cap is given in these passages.'), true);
    assert.equal(isHedge("The handbook doesn't give a review time for the form."), true);
    // A claim about the policy is not a hedge.
    assert.equal(isHedge("The handbook doesn't give employees a laptop."), false);
    assert.equal(isHedge('No employee is given a laptop by the agency.'), false);
  });
});

describe('anchors: months written short', () => {
  it('reads "Nov 14" (no stop, before a number) as November, and "mar" or "dec" as words', async () => {
    const words = (t: string): string[] => dateWords(t).map((d) => d.word);
    assert.deepEqual(words('Posted Nov 14, 2025'), ['november']);
    assert.deepEqual(words('from SEPT 2019 on'), ['september']);
    assert.deepEqual(words('Nov. and Dec. only'), ['november', 'december']);
    assert.deepEqual(words('scratches may mar 3 panels; dec 4 is a code'), []);
    assert.deepEqual(words('the Nov issue'), []);
    const kept = await verdictOf(
      'In November, the Acme design team announced a move to the fourth floor [E1].',
      P.notice,
    );
    assert.equal(kept.verdict, 'kept', kept.reason);
    const other = await verdictOf(
      'In December, the Acme design team announced a move to the fourth floor [E1].',
      P.notice,
    );
    assert.equal(other.verdict, 'dropped', `kept at ${other.support.toFixed(2)}`);
    assert.equal(other.code, 'value-mismatch', other.reason);
  });
});

describe('anchors: a "not" that repeats the answer particle', () => {
  it('reads "No — not in the last twelve months, … has not sold" as the passage\'s negated clause', async () => {
    const { expectKept, expectDropped } = lexicalChecks(P);
    await expectKept(
      'No — not in the preceding twelve (12) months, according to Acme, which says it has not sold the personal data of applicants [E1].',
      P.resale,
    );
    // The clause after the comma must still carry the negation the passage gives.
    await expectDropped(
      'No — not in the preceding twelve (12) months, according to Acme, which says it has sold the personal data of applicants [E1].',
      P.resale,
    );
    // Without a negated clause after it, "not" still negates its phrase.
    await expectDropped('No, not in the preceding twelve (12) months [E1].', P.resale);
  });
});

describe('anchors: a universal where the passage narrows the noun by a relative clause', () => {
  it('drops "any team member can escort you" against "a team member who has night access"', async () => {
    const { verdictOf, expectKept } = lexicalChecks(P);
    const v = await verdictOf(
      'If you arrive after 6 p.m. without a badge, any Acme team member can escort you in [E1].',
      P.escort,
    );
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.match(v.reason, /who has night/);
    await expectKept(
      'If you arrive after 6 p.m. without a badge, any Acme team member who has night access can escort you in [E1].',
      P.escort,
    );
    await expectKept(
      'If you arrive after 6 p.m. without a badge, ask an Acme team member who has night access to escort you in [E1].',
      P.escort,
    );
  });
});

describe('anchors: adverbs that change the claim', () => {
  it('drops an appended "immediately" the passage never says; keeps a form of an adverb it does say', async () => {
    const { verdictOf, expectKept } = lexicalChecks(P);
    const v = await verdictOf(
      'You may turn off automatic updates for Acme agents, but Acme reserves the right to override your choice for critical fixes immediately [E1].',
      P.updates,
    );
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.match(v.reason, /immediately/);
    // "automatically" meets "automatic"; "permanent" meets "permanently".
    await expectKept('Acme agents update automatically unless you turn it off [E1].', P.updates);
    await expectKept(
      'Deleted files are purged from the Acme archive for good: the purge is permanent after 30 days [E1].',
      P.purge,
    );
    // Another form of the word ("temporary" / "temporarily").
    await expectKept('Acme owners can lock a discussion thread, either temporarily or permanently [E1].', P.locks);
  });
});

describe('anchors: more ways to say what the documents do not state', () => {
  it('reads "None of the passages gives…", "… say nothing about…", "The terms don\'t say…", "No start time … is given in the handbook" as hedges', () => {
    for (const s of [
      'None of the passages gives a fax number for these requests.',
      'The excerpts say nothing about later years.',
      "The terms don't say whether Acme charges for it.",
      "The description doesn't say which crew handles night calls.",
      'No start time for the picnic is given in the handbook.',
    ]) {
      assert.ok(isHedge(s), s);
    }
    // Claims about the world stay claims.
    assert.ok(!isHedge('The terms cover dental and vision plans.'));
    assert.ok(!isHedge("The agreement doesn't cover dental plans."));
    assert.ok(!isHedge('No start time was set for the picnic.'));
  });
});

describe('anchors: a scientific name with its genus as an initial', () => {
  const missing = (id: string, passage: string): string | undefined =>
    missingIdentifier([id], passage.toLowerCase(), () => looseText(passage));

  it('meets "Antechinus swainsonii mimetes" in "A. swainsonii mimetes" and "A swainsonii mimetes"', () => {
    assert.equal(
      missing('Antechinus swainsonii mimetes', 'a subspecies, A. swainsonii mimetes, of the south'),
      undefined,
    );
    assert.equal(missing('Escherichia coli', 'strains of E coli were found'), undefined);
  });

  it('still needs the epithets as written, the same initial, and a name of that shape', () => {
    assert.equal(missing('Antechinus swainsonii mimetes', 'A. swainsonii swainsonii'), 'Antechinus swainsonii mimetes');
    assert.equal(missing('Escherichia coli', 'strains of S. coli were found'), 'Escherichia coli');
    // Not a scientific name's shape: a title of capitalised words is not shortened.
    assert.equal(missing('Maiden Heaven', 'the M. Heaven album'), 'Maiden Heaven');
  });
});
