// Frequency words (frequency.ts): a hedge ("usually") where the passage says "always … regardless"
// claims exceptions the passage rules out. Made-up passages and sentences.

import * as assert from 'node:assert/strict';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  stipend:
    'Stipend\nOn remote days the stipend is paid at a reduced rate. The reduced rate is always 40% of the full stipend, regardless of the hours worked.',
};
const { verdictOf } = lexicalChecks(P);

describe('frequency: a hedge where the passage says "always"', () => {
  it('drops "usually" where the passage says "always … regardless"; keeps the categorical claim and an answer particle', async () => {
    const v = await verdictOf('The reduced rate is usually 40% of the full stipend [E1].', P.stipend);
    assert.equal(v.verdict, 'dropped', `kept at ${v.support.toFixed(2)}`);
    assert.match(v.reason, /usually/);
    const ok = await verdictOf('The reduced rate is always 40% of the full stipend [E1].', P.stipend);
    assert.equal(ok.verdict, 'kept', ok.reason);
    const particle = await verdictOf(
      'Generally no — on remote days the stipend is paid at a reduced rate [E1].',
      P.stipend,
    );
    assert.equal(particle.verdict, 'kept', particle.reason);
  });
});
