// One turn of the agent loop through the engine: scripted model, real index, ledger and verifier.

import { strict as assert } from 'node:assert';
import type { Engine } from '../../../../src/core/engine';
import { CITATION_INSTRUCTION } from '../../../../src/core/agent/instruction';
import { MAX_QUERY_CHARS } from '../../../../src/core/tools/toolSchemas';
import type { TurnEvent } from '../../../../src/core/agent/agentLoop';
import { ScriptedModel, say, search } from '../../../support/scriptedModel';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../../support/engineFixture';

describe('agent loop (scripted model through the ChatModel port; real index, ledger and verifier)', () => {
  let fixture: EngineFixture;
  let engine: Engine;

  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
    engine = fixture.engine;
  });

  after(() => fixture.dispose());

  it('searches, records evidence as E1, E2… in return order, verifies the final answer and keeps the cited sentence', async () => {
    const model = new ScriptedModel([
      search('annual plan refund'),
      say('Annual plans are refundable pro rata within 90 days of purchase [E1].'),
    ]);
    const result = await engine.ask('Can I get a refund on an annual plan?', { model });
    assert.equal(result.evidence[0].id, 'E1');
    assert.equal(result.evidence[0].source, 'refunds.md');
    assert.equal(result.evidence[0].startLine, 5);
    assert.deepEqual(
      result.evidence.map((e) => e.id),
      result.evidence.map((_, i) => `E${i + 1}`),
    );
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
    assert.deepEqual(
      model.requests[0].tools.map((t) => t.name),
      ['searchPolicies'],
    );
    const toolMessage = model.requests[1].messages[2];
    assert.equal(toolMessage.role, 'tool');
  });

  it('drops an uncited sentence and a sentence citing an id that was never returned', async () => {
    const model = new ScriptedModel([
      search('annual plan refund'),
      say(
        'Annual plans are refundable pro rata within 90 days of purchase [E1]. Monthly plans are refundable within 30 days. Refunds are instant [E9].',
      ),
    ]);
    const result = await engine.ask('Refunds?', { model });
    const verdicts = result.sentences.map((s) => [s.verdict, s.code]);
    assert.deepEqual(verdicts, [
      ['kept', 'supported'],
      ['dropped', 'no-citation'],
      ['dropped', 'unknown-id'],
    ]);
    assert.equal(result.answer.includes('30 days'), false);
    assert.equal(result.metrics.dropped, 2);
    assert.ok(Math.abs(result.metrics.coverage - 1 / 3) < 1e-9);
  });

  it("cuts a model's over-long search to the tools' query limit, the same one the search tool refuses above", async () => {
    const long = `annual plan refund ${'window '.repeat(120)}`;
    const model = new ScriptedModel([search(long), say('NOT_FOUND: nothing.')]);
    const events: TurnEvent[] = [];
    await engine.ask('Refunds?', { model, onEvent: (e) => events.push(e) });
    const searched = events.flatMap((e) => (e.type === 'search' ? [e.query] : []));
    assert.deepEqual(searched, [long.trim().slice(0, MAX_QUERY_CHARS)]);
    assert.equal(searched[0].length, MAX_QUERY_CHARS);
  });

  it('abstains with NOT_FOUND when no sentence is backed', async () => {
    const model = new ScriptedModel([search('refund'), say('Everyone gets a company car [E1].')]);
    const result = await engine.ask('Do I get a car?', { model });
    assert.equal(result.abstained, true);
    // Evident's own line: the reason, then what was searched (and the closest passage, when one shares a word).
    assert.match(result.answer, /^NOT_FOUND: the documents I found do not support an answer\. Searched for "refund"\./);
    assert.ok(!result.answer.includes('\n'));
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
    const model = new ScriptedModel([
      search('a'),
      search('b'),
      search('c'),
      say('NOT_FOUND: the documents do not say.'),
    ]);
    const result = await engine.ask('Anything?', { model, maxToolRounds: 2 });
    assert.equal(model.requests.length, 3);
    assert.deepEqual(model.requests[2].tools, []);
    assert.equal(result.abstained, true);
  });

  it('answers a bad tool call with an error the model can read, not a crash', async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'deleteEverything', args: {} },
          { name: 'searchPolicies', args: { query: 42 } },
        ],
      },
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
    const first = new ScriptedModel([
      search('economy class flights'),
      say('Economy class is required for flights shorter than six hours [E1].'),
    ]);
    const r1 = await engine.ask('Flights?', { model: first });
    assert.equal(r1.sentences[0].verdict, 'kept');
    // This turn's search returns other passages first; the model cites E3 it saw last turn? There was none: unknown.
    const second = new ScriptedModel([
      search('monthly plans refundable'),
      say('Economy class is required for flights shorter than six hours [E5].'),
    ]);
    const r2 = await engine.ask('Flights again?', { model: second });
    assert.ok(r2.evidence.length < 5);
    assert.equal(r2.sentences[0].code, 'unknown-id');
  });

  it('rejects an empty question with a clear error', async () => {
    await assert.rejects(engine.ask('  ', { model: new ScriptedModel([]) }), /question is empty/);
  });
});

describe('a follow-up question is answered as a standalone question (evidence ids stay per turn)', () => {
  let fixture: EngineFixture;

  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
  });

  after(() => fixture.dispose());

  it('gives the model only the rewritten question, carrying the earlier question, never its answer or evidence ids', async () => {
    const first = await fixture.engine.ask('Can I get a refund on an annual plan?', {
      model: new ScriptedModel([
        search('annual plan refund'),
        say('Annual plans are refundable pro rata within 90 days of purchase [E1].'),
      ]),
    });
    assert.equal(first.abstained, false);
    assert.equal(first.answeredAs, undefined, 'a first turn follows nothing');
    const model = new ScriptedModel([search('monthly plan refund'), say('Monthly plans are not refundable [E1].')]);
    const second = await fixture.engine.ask('And for monthly plans?', { model, follows: { question: first.question } });
    const sent = model.requests[0].messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user'],
    );
    const text = sent[0].role === 'user' ? sent[0].text : '';
    assert.equal(text, 'Can I get a refund on an annual plan — And for monthly plans?');
    assert.doesNotMatch(text, /pro rata|\[E\d/, 'the earlier answer or an evidence id reached the model');
    assert.equal(second.question, 'And for monthly plans?');
    assert.equal(second.answeredAs, text);
    assert.equal(second.evidence[0].id, 'E1', 'the new turn has its own ledger, numbered from E1');
    assert.equal(fixture.engine.openInvocations, 0);
  });

  it('answers a question that stands alone alone, even after another turn: answeredAs is the question itself', async () => {
    const model = new ScriptedModel([
      search('economy flights'),
      say('Economy class is required for flights shorter than six hours [E1].'),
    ]);
    const question = 'Which class of travel is required for short flights?';
    const result = await fixture.engine.ask(question, {
      model,
      follows: { question: 'Can I get a refund on an annual plan?' },
    });
    const sent = model.requests[0].messages;
    assert.deepEqual(sent, [{ role: 'user', text: question }]);
    assert.equal(result.answeredAs, question);
  });

  it('drops a sentence citing an id that only the earlier turn had (the ledger is per turn)', async () => {
    const model = new ScriptedModel([search('travel flights economy'), say('Monthly plans are not refundable [E5].')]);
    const result = await fixture.engine.ask('And for flights?', { model, follows: { question: 'Refunds?' } });
    assert.ok(
      result.evidence.every((e) => e.id !== 'E5'),
      "the earlier id is not in this turn's evidence",
    );
    assert.equal(result.sentences[0].verdict, 'dropped');
    assert.equal(result.sentences[0].code, 'unknown-id');
  });

  it('lets the offline model answer "and for contractors?" from the question before it', async () => {
    const prices = await indexedEngine({
      'people.md': [
        '# People',
        '',
        '## Contractors',
        '',
        'Contractors must sign a services agreement before they start.',
        '',
        '## Leave',
        '',
        'Employees get 25 days of leave per year.',
        '',
        'Contractors get 10 days of leave per year.',
      ].join('\n'),
      'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
    });
    try {
      const model = prices.engine.createExtractiveModel();
      const first = await prices.engine.ask('How many days of leave do employees get?', { model });
      assert.equal(first.abstained, false, first.answer);
      assert.match(first.answer, /25 days/);
      const alone = await prices.engine.ask('And for contractors?', { model });
      const followUp = await prices.engine.ask('And for contractors?', {
        model,
        follows: { question: first.question },
      });
      assert.equal(followUp.abstained, false, followUp.answer);
      assert.equal(followUp.answeredAs, 'How many days of leave do employees get — And for contractors?');
      assert.match(followUp.answer, /^Contractors get 10 days of leave per year \[E\d+\]\.$/);
      // Without the turn before it the same words do not say what is asked about.
      assert.notEqual(alone.answer, followUp.answer);
    } finally {
      await prices.dispose();
    }
  });
});
