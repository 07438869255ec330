// An obligation where the passage gives a permission (modality.ts): sentences written for this test.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts } from '../../../../src/core/verifier';
import type { SupportResult } from '../../../../src/core/types';
import { obligationNotGiven, obligedVerbs, onlyPermitted } from '../../../../src/core/verifier/modality';
import { FILLER } from '../../../support/lexicalChecks';

const P = {
  closing:
    'Closing accounts\nThe bank may close an account that has been dormant for more than 12 months. Either party may end this agreement with notice.',
  duty: 'Reports\nThe vendor must send a report every quarter. The vendor may also send a monthly summary.',
  mixed: 'Badges\nVisitors may enter the lobby. Visitors enter the lab only with an escort.',
};
const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);
const scoreOf = (sentence: string, passage: string): SupportResult =>
  createLexicalScorer({ termStats: stats }).score(sentence, passage) as SupportResult;

describe('modality: an obligation is more than a permission', () => {
  it('drops "is required to" / "must" / "has to" where the passage only says "may"', () => {
    for (const s of [
      'The bank is required to close an account that has been dormant for more than 12 months.',
      'The bank must close an account dormant for more than 12 months.',
      'The bank has to close any account dormant for more than 12 months.',
    ]) {
      const r = scoreOf(s, P.closing);
      assert.equal(r.score, 0, s);
      assert.match(r.explanation ?? '', /may close/);
    }
  });

  it('keeps the permission, a duty the passage states, and a weaker claim than the passage', () => {
    assert.equal(
      scoreOf('The bank may close an account dormant for more than 12 months.', P.closing).code,
      'supported',
    );
    assert.equal(scoreOf('The vendor must send a report every quarter.', P.duty).code, 'supported');
    assert.notEqual(
      obligationNotGiven('The vendor may send a report every quarter.', () => P.duty),
      '',
    );
    assert.equal(
      obligationNotGiven('The vendor may send a report every quarter.', () => P.duty),
      undefined,
    );
  });

  it('reads a verb written bare elsewhere, a negated duty and "only" as no leave', () => {
    assert.equal(onlyPermitted(P.mixed, 'enter'), undefined, 'the bare "enter" may state the rule');
    assert.deepEqual(obligedVerbs("You don't have to close it. You are not required to close it."), []);
    assert.equal(onlyPermitted('You may only renew it after 90 days.', 'renew'), undefined);
    assert.deepEqual(
      obligedVerbs('GitHub shall promptly notify you.').map((v) => v.stem),
      ['notifi'],
    );
  });
});
