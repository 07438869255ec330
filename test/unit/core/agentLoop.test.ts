import { strict as assert } from 'node:assert';
import type { Engine } from '../../../src/core/engine';
import { runTurn } from '../../../src/core/agent/agentLoop';
import { EvidenceLedger } from '../../../src/core/agent/ledger';
import { CITATION_INSTRUCTION } from '../../../src/core/agent/instruction';
import type { Passage } from '../../../src/core/types';
import { ScriptedModel, say, search } from '../../support/scriptedModel';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../support/engineFixture';
import { defaultModelCacheDir, makeTinyClassifierModel } from '../../support/tinyModels';
import { createEntailmentScorer } from '../../../src/core/verifier';

describe('agent loop (scripted model through the ChatModel port; real index, ledger and verifier)', () => {
  let fixture: EngineFixture;
  let engine: Engine;

  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
    engine = fixture.engine;
  });

  after(() => fixture.dispose());

  it('searches, records evidence as E1, E2… in return order, verifies the final answer and keeps the cited sentence', async () => {
    const model = new ScriptedModel([search('annual plan refund'), say('Annual plans are refundable pro rata within 90 days of purchase [E1].')]);
    const result = await engine.ask('Can I get a refund on an annual plan?', { model });
    assert.equal(result.evidence[0].id, 'E1');
    assert.equal(result.evidence[0].source, 'refunds.md');
    assert.equal(result.evidence[0].startLine, 5);
    assert.deepEqual(result.evidence.map((e) => e.id), result.evidence.map((_, i) => `E${i + 1}`));
    assert.equal(result.abstained, false);
    assert.equal(result.sentences.length, 1);
    assert.equal(result.sentences[0].verdict, 'kept');
    assert.match(result.answer, /90 days/);
    assert.deepEqual(result.metrics, { retrieved: result.evidence.length, coverage: 1, dropped: 0, abstained: false });
    assert.equal(engine.openInvocations, 0);
  });

  it('gives the model the citation contract and the searchPolicies tool', async () => {
    const model = new ScriptedModel([search('refund'), say('NOT_FOUND: nothing.')]);
    await engine.ask('Refunds?', { model });
    assert.equal(model.requests[0].system, CITATION_INSTRUCTION);
    assert.deepEqual(model.requests[0].tools.map((t) => t.name), ['searchPolicies']);
    const toolMessage = model.requests[1].messages[2];
    assert.equal(toolMessage.role, 'tool');
  });

  it('drops an uncited sentence and a sentence citing an id that was never returned', async () => {
    const model = new ScriptedModel([
      search('annual plan refund'),
      say('Annual plans are refundable pro rata within 90 days of purchase [E1]. Monthly plans are refundable within 30 days. Refunds are instant [E9].'),
    ]);
    const result = await engine.ask('Refunds?', { model });
    const verdicts = result.sentences.map((s) => [s.verdict, s.code]);
    assert.deepEqual(verdicts, [['kept', 'supported'], ['dropped', 'no-citation'], ['dropped', 'unknown-id']]);
    assert.equal(result.answer.includes('30 days'), false);
    assert.equal(result.metrics.dropped, 2);
    assert.ok(Math.abs(result.metrics.coverage - 1 / 3) < 1e-9);
  });

  it('abstains with NOT_FOUND when no sentence is backed', async () => {
    const model = new ScriptedModel([search('refund'), say('Everyone gets a company car [E1].')]);
    const result = await engine.ask('Do I get a car?', { model });
    assert.equal(result.abstained, true);
    assert.equal(result.answer, 'NOT_FOUND: the documents I found do not support an answer.');
    assert.equal(result.metrics.abstained, true);
  });

  it('passes partial text through untouched while the model streams, and verifies only the final text', async () => {
    const drafts: string[] = [];
    const model = new ScriptedModel([
      search('economy class'),
      say('Economy class is required for flights shorter than six hours [E1]. Business class is fine otherwise [E1].', [
        'Economy class is required ',
        'for flights shorter than six hours [E1]. Business class is fine otherwise [E1].',
      ]),
    ]);
    const result = await engine.ask('What class can I fly?', { model, onDraft: (d) => drafts.push(d) });
    assert.deepEqual(drafts, [
      'Economy class is required ',
      'Economy class is required for flights shorter than six hours [E1]. Business class is fine otherwise [E1].',
    ]);
    assert.equal(result.sentences[1].verdict, 'dropped');
    assert.ok(!result.answer.includes('Business class'));
  });

  it('stops searching after the cap on tool rounds and asks for an answer without tools', async () => {
    const model = new ScriptedModel([search('a'), search('b'), search('c'), say('NOT_FOUND: the documents do not say.')]);
    const result = await engine.ask('Anything?', { model, maxToolRounds: 2 });
    assert.equal(model.requests.length, 3);
    assert.deepEqual(model.requests[2].tools, []);
    assert.equal(result.abstained, true);
  });

  it('answers a bad tool call with an error the model can read, not a crash', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'deleteEverything', args: {} }, { name: 'searchPolicies', args: { query: 42 } }] },
      say('NOT_FOUND: could not search.'),
    ]);
    const result = await engine.ask('Anything?', { model });
    const tool = model.requests[1].messages[2];
    assert.ok(tool.role === 'tool');
    assert.match(String(tool.results[0].response.error), /Unknown tool/);
    assert.match(String(tool.results[1].response.error), /non-empty string/);
    assert.equal(result.evidence.length, 0);
  });

  it('treats blank final text as no answer', async () => {
    const model = new ScriptedModel([search('refund'), say('   ')]);
    const result = await engine.ask('Refunds?', { model });
    assert.equal(result.abstained, true);
    assert.match(result.answer, /^NOT_FOUND:/);
  });

  it('a stale id from the previous turn fails the lookup in this one', async () => {
    const first = new ScriptedModel([search('economy class flights'), say('Economy class is required for flights shorter than six hours [E1].')]);
    const r1 = await engine.ask('Flights?', { model: first });
    assert.equal(r1.sentences[0].verdict, 'kept');
    // This turn's search returns other passages first; the model cites E3 it saw last turn? There was none: unknown.
    const second = new ScriptedModel([search('monthly plans refundable'), say('Economy class is required for flights shorter than six hours [E5].')]);
    const r2 = await engine.ask('Flights again?', { model: second });
    assert.ok(r2.evidence.length < 5);
    assert.equal(r2.sentences[0].code, 'unknown-id');
  });

  it('rejects an empty question with a clear error', async () => {
    await assert.rejects(engine.ask('  ', { model: new ScriptedModel([]) }), /question is empty/);
  });
});

describe('evidence ledger', () => {
  const passage = (n: number): Passage => ({
    id: `p${n}`, source: `doc${n}.md`, headingPath: ['H'], heading: 'H', startLine: n, endLine: n + 1, text: `text ${n}`, version: 'v',
  });

  it('numbers passages E1, E2… in the order returned; the same passage keeps its first id', () => {
    const ledger = new EvidenceLedger();
    const inv = ledger.begin('a');
    assert.equal(inv.record(passage(7)).id, 'E1');
    assert.equal(inv.record(passage(3)).id, 'E2');
    assert.equal(inv.record(passage(7)).id, 'E1');
    assert.deepEqual(inv.all().map((e) => [e.id, e.source, e.startLine]), [['E1', 'doc7.md', 7], ['E2', 'doc3.md', 3]]);
  });

  it('keeps ids local to an invocation', () => {
    const ledger = new EvidenceLedger();
    const a = ledger.begin('a');
    const b = ledger.begin('b');
    a.record(passage(1));
    a.record(passage(2));
    assert.equal(b.get('E2'), undefined);
    assert.throws(() => ledger.begin('a'), /already open/);
  });

  it('stays bounded over thousands of turns that succeed, fail or are cancelled', async () => {
    const ledger = new EvidenceLedger();
    const deps = {
      ledger,
      retrieval: 'lexical' as const,
      search: async () => [{ passage: passage(1), score: 1 }, { passage: passage(2), score: 0.5 }],
      verify: async (text: string) => ({ answer: text, abstained: false, sentences: [] }),
    };
    let ok = 0;
    let failed = 0;
    let cancelled = 0;
    const turns: Promise<void>[] = [];
    for (let i = 0; i < 3000; i++) {
      const kind = i % 3;
      const controller = new AbortController();
      const model =
        kind === 0
          ? new ScriptedModel([search('q'), say('fine [E1].')])
          : kind === 1
            ? new ScriptedModel([search('q'), { error: new Error('model exploded') }])
            : new ScriptedModel([search('q'), { hang: true }]);
      const turn = runTurn(`question ${i}`, model, deps, { signal: controller.signal }).then(
        () => void ok++,
        (error: Error) => void (error.name === 'AbortError' ? cancelled++ : failed++),
      );
      if (kind === 2) setImmediate(() => controller.abort());
      turns.push(turn);
      if (turns.length >= 200) await Promise.all(turns.splice(0));
    }
    await Promise.all(turns);
    assert.deepEqual([ok, failed, cancelled], [1000, 1000, 1000]);
    assert.equal(ledger.size, 0, 'every invocation was released');
  });
});

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

describe('verifier escalation inside a turn (entailment tier on a tiny generated classifier)', function () {
  this.timeout(60_000);
  let fixture: EngineFixture;

  before(async () => {
    const classifier = await makeTinyClassifierModel(defaultModelCacheDir());
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS, {
      verifier: { escalation: createEntailmentScorer({ model: classifier, localModelPath: classifier, allowRemote: false }) },
    });
  });

  after(() => fixture.dispose());

  it('keeps a paraphrase the lexical tier rejects when the entailment tier backs it, and records who decided', async () => {
    const sentence = 'Customers holding annual plans may claim pro rata refunds during the first 90 days [E1].';
    const result = await fixture.engine.ask('Annual refunds?', { model: new ScriptedModel([search('annual plans refundable'), say(sentence)]) });
    assert.equal(result.sentences[0].verdict, 'kept');
    assert.equal(result.sentences[0].tier, 'entailment');
    // Without the second tier the same sentence is dropped by the lexical check.
    const lexicalOnly = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
    try {
      const plain = await lexicalOnly.engine.ask('Annual refunds?', { model: new ScriptedModel([search('annual plans refundable'), say(sentence)]) });
      assert.equal(plain.sentences[0].verdict, 'dropped');
      assert.equal(plain.sentences[0].tier, 'lexical');
    } finally {
      await lexicalOnly.dispose();
    }
  });

  it('still drops what neither tier backs, with both explanations', async () => {
    const result = await fixture.engine.ask('Perks?', {
      model: new ScriptedModel([search('annual plans refundable'), say('Annual plans come with free lunches on Fridays [E1].')]),
    });
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].tier, 'entailment');
    assert.match(result.sentences[0].reason, /^low-support: .*'free lunches'.*; entailment: /);
  });
});

describe('a follow-up question continues the conversation (as text; evidence ids stay per turn)', () => {
  let fixture: EngineFixture;

  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
  });

  after(() => fixture.dispose());

  it('gives the model the earlier question and verified answer as text, without their evidence ids', async () => {
    const first = await fixture.engine.ask('Can I get a refund on an annual plan?', {
      model: new ScriptedModel([search('annual plan refund'), say('Annual plans are refundable pro rata within 90 days of purchase [E1].')]),
    });
    assert.equal(first.abstained, false);
    const model = new ScriptedModel([search('monthly plan refund'), say('Monthly plans are not refundable [E1].')]);
    const second = await fixture.engine.ask('And for monthly plans?', { model, conversation: [{ question: first.question, answer: first.answer }] });
    const sent = model.requests[0].messages;
    assert.deepEqual(sent.map((m) => m.role), ['user', 'model', 'user']);
    assert.equal(sent[0].role === 'user' && sent[0].text, 'Can I get a refund on an annual plan?');
    const carried = sent[1].role === 'model' ? sent[1].text : '';
    assert.match(carried, /refundable pro rata within 90 days/);
    assert.doesNotMatch(carried, /\[E\d/, 'an evidence id of the earlier turn reached the model');
    assert.equal(sent[2].role === 'user' && sent[2].text, 'And for monthly plans?');
    assert.equal(second.evidence[0].id, 'E1', 'the new turn has its own ledger, numbered from E1');
    assert.equal(fixture.engine.openInvocations, 0);
  });

  it('drops a sentence citing an id that only the earlier turn had (the ledger is per turn)', async () => {
    const model = new ScriptedModel([search('travel flights economy'), say('Monthly plans are not refundable [E5].')]);
    const result = await fixture.engine.ask('And for flights?', {
      model,
      conversation: [{ question: 'Refunds?', answer: 'Monthly plans are not refundable [E5].' }],
    });
    assert.ok(result.evidence.every((e) => e.id !== 'E5'), 'the earlier id is not in this turn\'s evidence');
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].code, 'unknown-id');
  });

  it('lets the offline model read "and for monthly plans?" with the question before it', async () => {
    const prices = await indexedEngine({
      'pricing.md': ['# Pricing', '', '## Annual plans', '', 'Annual plans cost 120 dollars per year.', '', '## Monthly plans', '', 'Monthly plans cost 12 dollars per month.', '', '## Team seats', '', 'Each team seat is billed separately.'].join('\n'),
      'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
    });
    try {
      const model = prices.engine.createExtractiveModel();
      const first = await prices.engine.ask('How much do annual plans cost?', { model });
      assert.equal(first.abstained, false, first.answer);
      assert.match(first.answer, /120 dollars/);
      const alone = await prices.engine.ask('And for monthly plans?', { model });
      const followUp = await prices.engine.ask('And for monthly plans?', { model, conversation: [{ question: first.question, answer: first.answer }] });
      assert.equal(followUp.abstained, false, followUp.answer);
      assert.match(followUp.answer, /^Monthly plans cost 12 dollars per month \[E\d+\]\.$/);
      const cited = followUp.evidence.find((e) => e.id === followUp.sentences.find((s) => s.verdict === 'kept')?.citations[0]);
      assert.equal(cited?.heading, 'Pricing > Monthly plans');
      // Without the conversation the same words do not say what is asked about.
      assert.notEqual(alone.answer, followUp.answer);
    } finally {
      await prices.dispose();
    }
  });
});
