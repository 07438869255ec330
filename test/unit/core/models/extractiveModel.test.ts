// The extractive model (offline backend) through a real engine: cited answers and abstentions.

import { strict as assert } from 'node:assert';
import type { Engine } from '../../../../src/core/engine';
import { indexedEngine, type EngineFixture } from '../../../support/engineFixture';

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
