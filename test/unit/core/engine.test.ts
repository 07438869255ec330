// The engine's verifier options inside a turn: the escalation tier decides what the lexical tier rejects.

import { strict as assert } from 'node:assert';
import { createEntailmentScorer } from '../../../src/core/verifier';
import { ScriptedModel, say, search } from '../../support/scriptedModel';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../support/engineFixture';
import { defaultModelCacheDir, makeTinyClassifierModel } from '../../support/tinyModels';

describe('verifier escalation inside a turn (entailment tier on a tiny generated classifier)', function () {
  this.timeout(60_000);
  let fixture: EngineFixture;

  before(async () => {
    const classifier = await makeTinyClassifierModel(defaultModelCacheDir());
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS, {
      verifier: {
        escalation: createEntailmentScorer({ model: classifier, localModelPath: classifier, allowRemote: false }),
      },
    });
  });

  after(() => fixture.dispose());

  it('keeps a paraphrase the lexical tier rejects when the entailment tier backs it, and records who decided', async () => {
    const sentence = 'Customers holding annual plans may claim pro rata refunds during the first 90 days [E1].';
    const result = await fixture.engine.ask('Annual refunds?', {
      model: new ScriptedModel([search('annual plans refundable'), say(sentence)]),
    });
    assert.equal(result.sentences[0].verdict, 'kept');
    assert.equal(result.sentences[0].tier, 'entailment');
    // Without the second tier the same sentence is dropped by the lexical check.
    const lexicalOnly = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
    try {
      const plain = await lexicalOnly.engine.ask('Annual refunds?', {
        model: new ScriptedModel([search('annual plans refundable'), say(sentence)]),
      });
      assert.equal(plain.sentences[0].verdict, 'dropped');
      assert.equal(plain.sentences[0].tier, 'lexical');
    } finally {
      await lexicalOnly.dispose();
    }
  });

  it('still drops what neither tier backs, with both explanations', async () => {
    const result = await fixture.engine.ask('Perks?', {
      model: new ScriptedModel([
        search('annual plans refundable'),
        say('Annual plans come with free lunches in the office [E1].'),
      ]),
    });
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].tier, 'entailment');
    assert.match(result.sentences[0].reason, /^low-support: .*'free lunches'.*; entailment: /);
  });
});
