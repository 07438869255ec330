// How a drop's explanation names the words its passage lacks: adjacent missing words as one
// phrase, separate ones apart, at most `limit` phrases with the rest counted, long tokens cut.

import { strict as assert } from 'node:assert';
import { missingPhrases } from '../../../../src/core/verifier/missingPhrases';
import { analyse } from '../../../../src/core/text/terms';

function explain(sentence: string, missingWords: string[], limit = 3): string {
  const terms = analyse(sentence, { stemming: true }).terms;
  const missing = new Set(terms.filter((t) => missingWords.includes(t.word)).map((t) => t.stem));
  return missingPhrases(terms, missing, limit);
}

describe('missingPhrases', () => {
  it('joins adjacent missing words into one phrase and keeps separate ones apart', () => {
    assert.equal(
      explain('Staff fly business class on trips over ten hours', ['business', 'class', 'hours']),
      "'business class', 'hours'",
    );
  });

  it('names at most `limit` phrases and counts the rest', () => {
    assert.equal(
      explain(
        'Contractors approve receipts before payroll closes monthly',
        ['contractors', 'receipts', 'payroll', 'monthly'],
        2,
      ),
      "'contractors', 'receipts' and 2 more",
    );
  });

  it('cuts a long token', () => {
    const token = 'x'.repeat(60);
    assert.equal(explain(`Send it via ${token} today`, [token]), `'${'x'.repeat(24)}…'`);
  });
});
