// The relevance check inside a turn with the embedding model's meaning (issue 21, item 4): after
// the support check the agent loop measures how close each part of the question is to the kept
// sentences (TurnDeps.similarity) and hands the figure to the check. Here the similarity is a fake
// TextSimilarity with made-up figures; the index, ledger, verifier and check are the real ones.
// test/unit/core/verifier/relevanceRealModel.test.ts runs the same path with the real model.

import { strict as assert } from 'node:assert';
import { runTurn, type TurnDeps } from '../../../../src/core/agent/agentLoop';
import { EvidenceLedger } from '../../../../src/core/agent/ledger';
import { verifyAnswer } from '../../../../src/core/verifier/verifier';
import { checkRelevance, CLOSE_IN_MEANING } from '../../../../src/core/verifier/relevance';
import type { TextSimilarity } from '../../../../src/core/types';
import type { Passage } from '../../../../src/domain/types';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';

const FEES: Passage = {
  id: 'p-fees',
  source: 'fees.md',
  headingPath: ['Fees'],
  heading: 'Fees',
  startLine: 1,
  endLine: 3,
  text: 'Each request beyond the fifth costs $20 per account.',
  version: 'v1',
};
/** The words rule alone calls this turn off-topic: the answer says none of "municipal investigators … archived records". */
const QUESTION = 'What do municipal investigators pay to obtain archived records?';
const ANSWER = 'Each request beyond the fifth costs $20 per account [E1].';

/** A fake TextSimilarity: one made-up figure for every comparison, and what it was asked. */
class FakeSimilarity implements TextSimilarity {
  readonly modelId = 'fake-similarity';
  calls: { query: string; texts: readonly string[]; signal?: AbortSignal }[] = [];
  constructor(private readonly answer: (signal?: AbortSignal) => Promise<number>) {}
  async similarity(query: string, texts: readonly string[], signal?: AbortSignal): Promise<number[]> {
    this.calls.push({ query, texts, signal });
    const figure = await this.answer(signal);
    return texts.map(() => figure);
  }
}

function deps(similarity?: TextSimilarity): TurnDeps {
  return {
    ledger: new EvidenceLedger(),
    retrieval: 'hybrid',
    search: async () => [{ passage: FEES, score: 1 }],
    verify: (text, evidence, signal) => verifyAnswer(text, evidence, {}, signal),
    relevance: checkRelevance,
    ...(similarity ? { similarity } : {}),
  };
}

const ask = (d: TurnDeps, signal?: AbortSignal) =>
  runTurn(QUESTION, new ScriptedModel([search('fees'), say(ANSWER)]), d, signal ? { signal } : {});

describe('relevance in meaning inside a turn (fake TextSimilarity)', () => {
  it('without a similarity, the words rule abstains the turn (the lexical path)', async () => {
    const r = await ask(deps());
    assert.equal(r.abstained, true);
    assert.equal(r.abstainedBy, 'relevance');
  });

  it('kept sentences close to the question: the turn answers, and the figure was measured on the kept sentence without its citation', async () => {
    const similarity = new FakeSimilarity(async () => CLOSE_IN_MEANING + 0.1);
    const r = await ask(deps(similarity));
    assert.equal(r.abstained, false, r.answer);
    assert.equal(r.relevance?.verdict, 'answers');
    assert.equal(r.answer, ANSWER);
    assert.deepEqual(
      similarity.calls.map((c) => [c.query, c.texts]),
      [
        [
          'What do municipal investigators pay to obtain archived records',
          ['Each request beyond the fifth costs $20 per account.'],
        ],
      ],
    );
  });

  it('kept sentences far from the question: the turn abstains as the words rule says', async () => {
    const r = await ask(deps(new FakeSimilarity(async () => CLOSE_IN_MEANING - 0.1)));
    assert.equal(r.abstained, true);
    assert.equal(r.abstainedBy, 'relevance');
    assert.equal(r.sentences[0].code, 'off-topic');
  });

  it('a failed model call falls back to the words rule', async () => {
    const lexical = await ask(deps());
    const failed = await ask(
      deps(
        new FakeSimilarity(async () => {
          throw new Error('the embedding model crashed');
        }),
      ),
    );
    assert.equal(failed.abstained, true);
    assert.equal(failed.abstainedBy, 'relevance');
    assert.deepEqual(failed.relevance, lexical.relevance);
    assert.equal(failed.answer, lexical.answer);
  });

  it("takes the turn's AbortSignal: cancelled while measuring, the turn is cancelled, not answered by the words rule", async () => {
    const controller = new AbortController();
    const similarity = new FakeSimilarity(
      (signal) =>
        new Promise((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason as Error));
          setImmediate(() => controller.abort());
        }),
    );
    const d = deps(similarity);
    await assert.rejects(ask(d, controller.signal), { name: 'AbortError' });
    assert.equal(similarity.calls[0].signal, controller.signal);
    assert.equal(d.ledger.size, 0, 'the invocation was released');
  });

  it('asks the model nothing when the check is off or nothing is kept', async () => {
    const similarity = new FakeSimilarity(async () => 1);
    await runTurn(QUESTION, new ScriptedModel([search('fees'), say(ANSWER)]), {
      ...deps(similarity),
      relevance: undefined,
    });
    await runTurn(
      QUESTION,
      new ScriptedModel([search('fees'), say('Gift cards never expire [E1].')]),
      deps(similarity),
    );
    assert.equal(similarity.calls.length, 0);
  });
});
