// How the offline model reads a follow-up: joined to the question before it, the follow-up's
// own names replacing the earlier ones; a new question stays as it is.

import { strict as assert } from 'node:assert';
import { inContext, isFollowUp } from '../../../src/core/models/extractiveModel';

describe('extractive model: follow-up questions', () => {
  it('tells a follow-up from a new question', () => {
    assert.equal(isFollowUp('and for monthly plans?'), true);
    assert.equal(isFollowUp('What about contractors?'), true);
    assert.equal(isFollowUp('How many days of annual leave do employees get in their first year?'), false);
  });

  it('joins a follow-up to the previous question, and leaves a new question alone', () => {
    assert.equal(inContext('and for monthly plans?', 'How much does the annual plan cost?'), 'How much does the annual plan cost? and for monthly plans?');
    const fresh = 'How many days of annual leave do employees get in their first year?';
    assert.equal(inContext(fresh, 'How much does the annual plan cost?'), fresh);
    assert.equal(inContext('and for monthly plans?', undefined), 'and for monthly plans?');
  });

  it('drops the names of the previous question when the follow-up names its own', () => {
    const read = inContext('And GitHub Sponsors?', 'What is the minimum age to use GitHub Marketplace?');
    assert.doesNotMatch(read, /Marketplace/);
    assert.match(read, /minimum age to use/);
    assert.match(read, /GitHub Sponsors\?$/);
  });
});
