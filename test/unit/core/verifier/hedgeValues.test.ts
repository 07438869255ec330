// A hedge that names a value the documents found give (hedgeValues.ts, anchors.ts splitHedge,
// verifier.ts): "The passages don't say how GitHub deletes them once the 12 months are up" says what
// is missing about a term of the passage, and is shown as a partial abstention; a hedge whose value no
// document gives ("they don't mention the $500 fee") presupposes a fact and stays a claim. Found on
// answers-fresh-3, -4 and -5 (five hedges: "12 months", "W-2", "before 2016", "in 2024", "GS-13").

import * as assert from 'node:assert/strict';
import { hedgeValues, valuesGiven } from '../../../../src/core/verifier/hedgeValues';
import { splitHedge } from '../../../../src/core/verifier/anchors';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  retention: 'Retention\nAcme keeps research data for 12 months after the study ends, then deletes it.',
};
const { verdictOf } = lexicalChecks(P);
const evidence = [{ id: 'E1', text: P.retention, source: 'retention.md' }] as never[];

describe('hedgeValues: a hedge naming a value the documents give', () => {
  it('reads a bare number with its unit word, and a word holding a digit as written', () => {
    assert.deepEqual(hedgeValues('they don’t say what happens once the 12 months are up'), ['12 months']);
    assert.deepEqual(hedgeValues('the requirements for the GS-13 role before 2016 or later'), ['GS-13', '2016']);
  });

  it('finds the values only as whole phrases of the evidence', () => {
    assert.equal(valuesGiven('once the 12 months are up', evidence), true);
    assert.equal(valuesGiven('once the 2 months are up', evidence), false);
    assert.equal(valuesGiven('the $500 fee', evidence), false);
  });

  it('splits the hedge off when its values are given, and keeps a claim otherwise', () => {
    const sentence = 'The passages don’t say how Acme deletes the data once the 12 months are up.';
    assert.ok(splitHedge(sentence, (h) => valuesGiven(h, evidence)).hedge);
    assert.equal(splitHedge(sentence).hedge, undefined);
    const invented = 'The passages don’t mention the $500 fee for early deletion.';
    assert.equal(splitHedge(invented, (h) => valuesGiven(h, evidence)).hedge, undefined);
  });

  it('shows the hedge as a partial abstention in an answer', async () => {
    const v = await verdictOf(
      'The passages don’t say how Acme deletes the data once the 12 months are up.',
      P.retention,
    );
    assert.equal(v.verdict, 'exempt', v.reason);
    assert.equal(v.code, 'partial-abstention');
  });

  it('drops an uncited hedge whose value no document gives', async () => {
    const v = await verdictOf(
      'The passages don’t say how Acme deletes the data once the 24 months are up.',
      P.retention,
    );
    assert.equal(v.verdict, 'dropped', v.reason);
  });
});
