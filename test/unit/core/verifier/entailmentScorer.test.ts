// The entailment tier behind the SupportScorer port: the cross-encoder run for real by
// transformers.js on a tiny generated classifier (no weights can be downloaded here), alone and
// as the verifier's escalation.

import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupportScorer } from '../../../../src/core/types';
import { createEntailmentScorer, verifyAnswer } from '../../../../src/core/verifier';
import { defaultModelCacheDir, makeTinyClassifierModel } from '../../../support/tinyModels';
import { ledgerOf } from '../../../support/ledger';

const PASSAGE = 'Employees must submit travel expense receipts within thirty days of the trip to the finance team.';
const ledger = ledgerOf({ E1: PASSAGE, E2: 'Annual plans are refundable within 90 days of purchase.' });

/** Counts calls, so a test can see when the escalation tier was (not) consulted. */
function counting(scorer: SupportScorer): SupportScorer & { calls: number } {
  const wrapped = {
    tier: scorer.tier,
    calls: 0,
    score(sentence: string, passage: string, signal?: AbortSignal) {
      wrapped.calls++;
      return scorer.score(sentence, passage, signal);
    },
  };
  return wrapped;
}

describe('entailment tier (transformers.js on a tiny generated classifier)', function () {
  this.timeout(60_000);
  let folder: string;

  before(async () => {
    folder = await makeTinyClassifierModel(defaultModelCacheDir());
  });

  it('scores a related pair above an unrelated one', async () => {
    const scorer = createEntailmentScorer({ model: 'unused', localModelPath: folder });
    const related = await scorer.score(
      'Employees submit travel expense receipts to the finance team within days of the trip.',
      PASSAGE,
    );
    const unrelated = await scorer.score('The cafeteria serves vegetarian lunch on Fridays.', PASSAGE);
    assert.ok(related.score > unrelated.score, `${related.score} vs ${unrelated.score}`);
    assert.ok(related.score >= 0 && related.score <= 1);
  });

  it('is asked only for sentences the lexical tier rejects, and records that it decided', async () => {
    const entailment = counting(createEntailmentScorer({ model: 'unused', localModelPath: folder }));
    // Threshold 0.99: the lexical tier rejects the paraphrase, the entailment tier keeps it.
    const r = await verifyAnswer(
      'Colleagues hand in travel expense receipts to the finance team after the trip [E1]. Employees must submit travel expense receipts within thirty days of the trip to the finance team [E1].',
      ledger,
      { threshold: 0.99, escalation: entailment },
    );
    assert.equal(r.sentences[0].verdict, 'kept');
    assert.equal(r.sentences[0].tier, 'entailment');
    assert.equal(r.sentences[1].tier, 'lexical');
    assert.equal(entailment.calls, 1);
  });

  it('drops an unrelated sentence with the entailment tier named as the decider', async () => {
    const r = await verifyAnswer('The cafeteria serves vegetarian lunch on Fridays [E1].', ledger, {
      escalation: createEntailmentScorer({ model: 'unused', localModelPath: folder }),
    });
    assert.equal(r.sentences[0].verdict, 'dropped');
    assert.equal(r.sentences[0].tier, 'entailment');
    assert.match(r.sentences[0].reason, /^low-support: the (?:cited )?passage does not mention .*; entailment: /);
  });

  it('never overrules a value mismatch', async () => {
    const entailment = counting(createEntailmentScorer({ model: 'unused', localModelPath: folder }));
    const r = await verifyAnswer('Annual plans are refundable within 30 days of purchase [E2].', ledger, {
      escalation: entailment,
    });
    assert.equal(r.sentences[0].code, 'value-mismatch');
    assert.equal(r.sentences[0].tier, 'lexical');
    assert.equal(entailment.calls, 0);
  });

  it('fails fast with a clear message when the model is not on this machine and downloads are off', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'evident-nli-'));
    try {
      const scorer = createEntailmentScorer({ model: 'evident-test/not-a-model', cacheDir: cache, allowRemote: false });
      const t0 = Date.now();
      await assert.rejects(
        Promise.resolve(scorer.score('a', 'b')),
        /entailment model "evident-test\/not-a-model" could not be loaded offline/,
      );
      assert.ok(Date.now() - t0 < 5000);
      // The failure is kept: the next sentence fails the same way, at once.
      await assert.rejects(Promise.resolve(scorer.score('c', 'd')), /could not be loaded offline/);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});
