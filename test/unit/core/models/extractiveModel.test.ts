// The extractive model (offline backend) through a real engine: cited answers and abstentions.

import { strict as assert } from 'node:assert';
import type { Engine } from '../../../../src/core/engine';
import { indexedEngine, type EngineFixture } from '../../../support/engineFixture';
import { inContext, isFollowUp } from '../../../../src/core/models/extractiveModel';

describe('extractive model (offline backend)', () => {
  let fixture: EngineFixture;
  let engine: Engine;

  before(async () => {
    fixture = await indexedEngine({
      'marketplace.md': '# Marketplace\n\nYou must be at least 13 years of age to use GitHub Marketplace.\n\nSellers are paid monthly.\n',
      'leave.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n',
    });
    engine = fixture.engine;
  });

  after(() => fixture.dispose());

  it('answers with the passage sentence that covers the question, cited, and the verifier keeps it', async () => {
    const result = await engine.ask('How old must you be to use GitHub Marketplace?', { model: engine.createExtractiveModel() });
    assert.equal(result.abstained, false, result.answer);
    assert.match(result.answer, /^You must be at least 13 years of age to use GitHub Marketplace \[E\d+\]\.$/);
    assert.ok(result.sentences.every((s) => s.verdict === 'kept'));
  });

  it('abstains, naming what is missing, when the question names something the documents never mention', async () => {
    const result = await engine.ask('How many days of annual leave do employees in Japan receive?', { model: engine.createExtractiveModel() });
    assert.equal(result.abstained, true);
    assert.match(result.answer, /^NOT_FOUND: .*"Japan"/);
  });

  it('is deterministic', async () => {
    const a = await engine.ask('How much annual leave do employees receive?', { model: engine.createExtractiveModel() });
    const b = await engine.ask('How much annual leave do employees receive?', { model: engine.createExtractiveModel() });
    assert.equal(a.answer, b.answer);
    assert.match(a.answer, /25 days/);
  });
});

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
