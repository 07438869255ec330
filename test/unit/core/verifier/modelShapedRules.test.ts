// Rules of issue 21 found on the dev split of the model-shaped answers (session 4): each with a
// sentence written for this test in the style of the failure, not a dev sentence.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts, verifyAnswer } from '../../../../src/core/verifier';
import { ledgerOf } from '../../../support/ledger';
import { analyse } from '../../../../src/core/text/terms';
import { clauseBreaks, polarityConflict } from '../../../../src/core/verifier/polarity';
import type { SupportUnit } from '../../../../src/core/verifier/supportWindow';
import { FILLER } from '../../../support/lexicalChecks';

const P = {
  domain:
    'Signing in\nOpen the portal and choose Sign in with SSO. Enter agency.portalgov.net. If the address ends in .example.org, choose Other and type your agency email.',
  hours: 'Help desk\nThe help desk is staffed Monday through Friday, 9:00 AM to 5:00 PM Eastern.',
  review:
    'Appeals\nWe review every appeal by hand. If the first reviewer still agrees with the decision, a different member of our staff looks at it again. All legitimate appeals get a final answer.',
  remote:
    'Working while travelling\nYou can keep working remotely while you travel, as long as your supervisor agrees.',
  printers:
    'Lab printers\nInterns may use the lab printers without the need to ask for a badge. Printing in colour is limited.',
  kickoff: 'Kickoff\nContractors are not required to attend the kickoff meeting.',
  calendar:
    'Booking a room\nSend the title, the host, and the start and end time (include timezone) to the front desk.',
  notice:
    'Changes to these terms\nWe may update these terms from time to time. If we make significant changes, we will email account owners at least 14 days before they take effect.',
  forms:
    "Forms\n'Covered Form' means the travel request form, the expense report form or the leave request form, each as published by the finance office.",
  extensions:
    "Browser extensions\nBrowser extensions are fine to use and don't require approval if they stay inside the browser. Otherwise, each extension must pass a security review by the IT office.",
  lab: 'Our history\nThe lab opened in Boulder in 2016. The lab moved to Denver in 2019. The new wing opened in 2021.',
  mirrors:
    'Mirrors\nWe will not automatically remove mirrors when we remove the original project. Mirrors belong to other people.',
  signals:
    'Which signals count\nLocation is taken from sign-in records and billing details. Age and gender are not used to decide who is blocked.',
  banked:
    'Banked hours\n"Bank or Burn" is the number of banked hours you lose at the end of the year if you do not bank them in time.',
};
const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);

const ledger = ledgerOf;

async function verdictOf(sentence: string, passage: string) {
  const r = await verifyAnswer(sentence, ledger({ E1: passage }), {
    scorer: createLexicalScorer({ termStats: stats }),
  });
  return r.sentences[0];
}

async function expectKept(sentence: string, passage: string): Promise<void> {
  const v = await verdictOf(sentence, passage);
  assert.equal(v.verdict, 'kept', v.reason);
}

async function expectDropped(sentence: string, passage: string, code?: string): Promise<void> {
  const v = await verdictOf(sentence, passage);
  assert.equal(v.verdict, 'dropped', `${v.text} was kept (${v.support.toFixed(2)})`);
  if (code) assert.equal(v.code, code);
}

describe('issue 21 rules (session 4): model-shaped sentences', () => {
  it('reads a domain written after a space (".example.org") as the passage writes it, not glued to the word before', async () => {
    await expectKept('If the address ends in .example.org, choose "Other" and type your agency email [E1].', P.domain);
  });

  it('meets "9 AM–5 PM" in "9:00 AM to 5:00 PM" (a time on the hour), and tells a morning from an evening', async () => {
    await expectKept('The help desk is staffed Monday through Friday, 9 AM–5 PM Eastern [E1].', P.hours);
    await expectDropped(
      'The help desk is staffed Monday through Friday, 9 PM–5 AM Eastern [E1].',
      P.hours,
      'value-mismatch',
    );
  });

  it('does not let a synonym of a capitalised common word ("legitimate" for the "Legal" team) name it', async () => {
    const v = await verdictOf(
      'If the first reviewer still agrees with the decision, a member of our Legal team looks at it again [E1].',
      P.review,
    );
    assert.equal(v.verdict, 'dropped', `${v.text} was kept (${v.support.toFixed(2)})`);
    assert.match(v.reason, /never names 'Legal'/);
  });

  it('reads "Not necessarily —" / "Usually not:" as the answer to the question, not as a negation of the passage', async () => {
    await expectKept(
      'Not necessarily — you can keep working remotely while you travel, as long as your supervisor agrees [E1].',
      P.remote,
    );
    await expectKept(
      'Usually not: you can keep working remotely while you travel if your supervisor agrees [E1].',
      P.remote,
    );
  });

  it('meets "without asking" in "without the need to ask", and still tells "must not attend" from "not required to attend"', async () => {
    await expectKept('Interns may use the lab printers without asking for a badge [E1].', P.printers);
    await expectDropped('Contractors must not attend the kickoff meeting [E1].', P.kickoff, 'negation-mismatch');
  });

  it('meets two words the passage writes as one ("time zone" / "timezone"), and only those', async () => {
    const scorer = createLexicalScorer({ termStats: stats });
    const joined = await scorer.score('Send the title to the front desk, and include the timezone.', P.calendar);
    const apart = await scorer.score('Send the title to the front desk, and include the time zone.', P.calendar);
    assert.equal(apart.score, joined.score, apart.explanation);
    await expectKept('Send the title to the front desk, and include the time zone [E1].', P.calendar);
    await expectDropped('Send the title to the front desk, and include the zone manager [E1].', P.calendar);
  });

  it('drops an emphatic universal ("any update at all") where the passage limits the scope ("significant changes")', async () => {
    const wide = await verdictOf(
      'We will email account owners at least 14 days before any update at all to these terms takes effect [E1].',
      P.notice,
    );
    assert.equal(wide.verdict, 'dropped', `${wide.text} was kept (${wide.support.toFixed(2)})`);
    assert.match(wide.reason, /at all/);
    await expectKept(
      'We will email account owners at least 14 days before significant changes to these terms take effect [E1].',
      P.notice,
    );
  });

  it('ends a negation at a colon ("aren\'t automatic: they need consent"), and finds its negated word outside the window', () => {
    const sentence = "Renewals aren't automatic: they need written consent";
    const analysed = analyse(sentence, { stemming: true });
    const stems = [...new Set(analysed.terms.map((t) => t.stem))];
    const unit = (index: number, held: string[], negated: string[], hasNegation: boolean): SupportUnit => ({
      index,
      start: 0,
      end: 0,
      has: Uint8Array.from(stems.map((s) => (held.includes(s) ? 1 : 0))),
      negated: Uint8Array.from(stems.map((s) => (negated.includes(s) ? 1 : 0))),
      hasNegation,
      via: new Uint8Array(stems.length),
      negativeWords: new Set(),
      antonym: new Uint8Array(stems.length),
      antonymWords: new Map(),
    });
    // The window: "Renewals need the written consent of both sides." The place outside it: "Renewals are not automatic."
    const window = [unit(1, ['renew', 'need', 'written', 'consent'], [], false)];
    const outside = unit(0, ['renew', 'automat'], ['automat'], true);
    const covered = stems.map((s) => s !== 'automat');
    const claim = { terms: analysed.terms, stems, negations: analysed.negations, breaks: clauseBreaks(sentence) };
    const none = stems.map(() => false);
    const place = { withoutOnly: false, textOf: () => '', units: [outside, ...window] };
    assert.equal(polarityConflict(claim, window, covered, none, undefined, place), undefined);
    // Nowhere negated: still a conflict.
    const affirmed = unit(0, ['renew', 'automat'], [], false);
    assert.match(
      polarityConflict(claim, window, covered, none, undefined, { ...place, units: [affirmed, ...window] }) ?? '',
      /negates/,
    );
  });

  it('reads a lead-in\'s count ("three forms:") as backed by the list it introduces when the list has that many items, and only then', async () => {
    const answer = (n: string, items: string[]) =>
      `The policy names ${n} "Covered Forms," each as published by the finance office [E1]:\n${items.map((i) => `- ${i} [E1]`).join('\n')}`;
    const items = ['the travel request form', 'the expense report form', 'the leave request form'];
    const right = await verifyAnswer(answer('three', items), ledger({ E1: P.forms }), {
      scorer: createLexicalScorer({ termStats: stats }),
    });
    assert.deepEqual(
      right.sentences.map((v) => v.verdict),
      ['kept', 'kept', 'kept', 'kept'],
      right.sentences.map((v) => v.reason).join('; '),
    );
    const wrong = await verifyAnswer(answer('four', items), ledger({ E1: P.forms }), {
      scorer: createLexicalScorer({ termStats: stats }),
    });
    assert.equal(wrong.sentences[0].verdict, 'dropped', wrong.sentences[0].reason);
  });

  it('reads "don\'t need a security review" as about the review: the passage must say that of it, not of approval', async () => {
    await expectDropped(
      "Browser extensions that reach outside the browser don't need a security review by the IT office either [E1].",
      P.extensions,
      'negation-mismatch',
    );
    await expectKept(
      "Browser extensions that stay inside the browser don't need approval, and they are fine to use [E1].",
      P.extensions,
    );
  });

  it('drops a value the passage gives for another fact ("moved … in 2021" where it moved in 2019 and the wing opened in 2021)', async () => {
    await expectDropped(
      'The lab moved to Denver in 2021, the same year the new wing opened [E1].',
      P.lab,
      'value-mismatch',
    );
    await expectKept('The lab moved to Denver in 2019, and the new wing opened in 2021 [E1].', P.lab);
  });

  it('reads a negation through an adverb in the passage ("will not automatically remove mirrors" negates "remove")', async () => {
    await expectKept('We do not remove mirrors when we remove the original project [E1].', P.mirrors);
    await expectDropped('We remove mirrors automatically when we remove the original project [E1].', P.mirrors);
  });

  it('meets "not age or gender" in "Age and gender are not used" (the cue after its subject), and only for a word so negated', async () => {
    await expectKept('Location is taken from sign-in records and billing details, not age or gender [E1].', P.signals);
    await expectDropped(
      'Location is taken from sign-in records, not billing details [E1].',
      P.signals,
      'negation-mismatch',
    );
  });

  it('does not read the words of a quoted title ("Bank or Burn") as affirmed where the passage negates them', async () => {
    await expectKept(
      'Banked hours left at the end of the year are "Bank or Burn": you lose those hours [E1].',
      P.banked,
    );
  });
});
