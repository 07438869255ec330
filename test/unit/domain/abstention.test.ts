// The NOT_FOUND rule, defined once: what counts as an abstention, and the line shown to a reader.

import { strict as assert } from 'node:assert';
import { ABSTENTION_PREFIX, NOT_FOUND_PREFIX, isAbstention, notFound } from '../../../src/domain/abstention';

describe('abstention rule', () => {
  it('is an answer that starts with NOT_FOUND:, leading blanks allowed', () => {
    assert.equal(isAbstention('NOT_FOUND: nothing about cars.'), true);
    assert.equal(isAbstention(' \n\tNOT_FOUND:x'), true);
    assert.equal(isAbstention('The answer is NOT_FOUND: x'), false);
    assert.equal(isAbstention('not_found: x'), false);
    assert.equal(isAbstention('NOT_FOUND x'), false);
    assert.equal(isAbstention(''), false);
  });

  it('builds an abstention that the rule recognises, and strips the prefix for display', () => {
    const line = notFound('the documents say nothing about sabbaticals.');
    assert.equal(line, 'NOT_FOUND: the documents say nothing about sabbaticals.');
    assert.ok(line.startsWith(NOT_FOUND_PREFIX));
    assert.equal(isAbstention(line), true);
    assert.equal(`  ${line}`.replace(ABSTENTION_PREFIX, ''), 'the documents say nothing about sabbaticals.');
  });
});
