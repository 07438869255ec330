// Rules of issue 21 found on the dev split of the model-shaped answers (session 4): each with a
// sentence written for this test in the style of the failure, not a dev sentence.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts, verifyAnswer } from '../../../../src/core/verifier';
import type { Evidence, EvidenceLookup } from '../../../../src/domain/types';

const P = {
  domain:
    'Signing in\nOpen the portal and choose Sign in with SSO. Enter agency.portalgov.net. If the address ends in .example.org, choose Other and type your agency email.',
  hours: 'Help desk\nThe help desk is staffed Monday through Friday, 9:00 AM to 5:00 PM Eastern.',
  review:
    'Appeals\nWe review every appeal by hand. If the first reviewer still agrees with the decision, a different member of our staff looks at it again. All legitimate appeals get a final answer.',
};
const FILLER = Array.from(
  { length: 40 },
  (_, i) =>
    [
      'Users may contact support about their account, repository or organization settings.',
      'The team reviews each request and answers within a few business days.',
      'Staff may use the handbook to find how to request approval for training and travel.',
      'We may share legal notices with the account owner when the law allows it.',
    ][i % 4],
);
const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);

function ledger(passages: Record<string, string>): EvidenceLookup {
  const items: Evidence[] = Object.entries(passages).map(([id, text], i) => ({
    id,
    passageId: `p${i}`,
    source: `doc-${i}.md`,
    startLine: 1,
    endLine: 4,
    heading: '',
    text,
    version: 'v1',
  }));
  return { get: (id) => items.find((e) => e.id === id), all: () => items };
}

async function verdictOf(sentence: string, passage: string) {
  const r = await verifyAnswer(sentence, ledger({ E1: passage }), {
    scorer: createLexicalScorer({ termStats: stats }),
  });
  return r.sentences[0];
}

describe('issue 21 rules (session 4): model-shaped sentences', () => {
  it('reads a domain written after a space (".example.org") as the passage writes it, not glued to the word before', async () => {
    const v = await verdictOf(
      'If the address ends in .example.org, choose "Other" and type your agency email [E1].',
      P.domain,
    );
    assert.equal(v.verdict, 'kept', v.reason);
  });

  it('meets "9 AM–5 PM" in "9:00 AM to 5:00 PM" (a time on the hour), and tells a morning from an evening', async () => {
    const same = await verdictOf('The help desk is staffed Monday through Friday, 9 AM–5 PM Eastern [E1].', P.hours);
    assert.equal(same.verdict, 'kept', same.reason);
    const swapped = await verdictOf('The help desk is staffed Monday through Friday, 9 PM–5 AM Eastern [E1].', P.hours);
    assert.equal(swapped.verdict, 'dropped', `${swapped.text} was kept (${swapped.support.toFixed(2)})`);
    assert.equal(swapped.code, 'value-mismatch');
  });

  it('does not let a synonym of a capitalised common word ("legitimate" for the "Legal" team) name it', async () => {
    const v = await verdictOf(
      'If the first reviewer still agrees with the decision, a member of our Legal team looks at it again [E1].',
      P.review,
    );
    assert.equal(v.verdict, 'dropped', `${v.text} was kept (${v.support.toFixed(2)})`);
    assert.match(v.reason, /never names 'Legal'/);
  });
});
