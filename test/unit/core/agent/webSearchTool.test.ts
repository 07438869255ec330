// Mixing routes: Google Search as the `searchWeb` tool of the main (function-calling) model, run
// as a grounded sub-call with the real SDK against the fake Gemini server. Web sources enter the
// same ledger as the passages; the main verifier checks each sentence against what the sub-call's
// grounding says that source backs.

import { strict as assert } from 'node:assert';
import type { Engine } from '../../../../src/core/engine';
import { createGeminiModel } from '../../../../src/core/models/geminiModel';
import { createGoogleSearchModel } from '../../../../src/core/models/groundedModel';
import {
  FakeGeminiServer,
  functionCallReply,
  groundedReply,
  lastFunctionResponses,
  textReply,
} from '../../../support/fakeGemini';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../../support/engineFixture';

describe('mixing routes: searchWeb as a grounded sub-call whose sources enter the same ledger', function () {
  this.timeout(30_000);
  let server: FakeGeminiServer;
  let fixture: EngineFixture;
  let engine: Engine;

  before(async () => {
    server = await FakeGeminiServer.start();
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
    engine = fixture.engine;
  });
  after(async () => {
    await server.close();
    await fixture.dispose();
  });

  it('cites a passage and a web source in one answer; a web citation beyond what the source backs is dropped', async () => {
    const WEB = [
      { uri: 'https://consumer.example.eu/withdrawal', title: 'Right of withdrawal' },
      { uri: 'https://blog.example.com/mondays', title: 'Mondays' },
    ];
    server.enqueue(
      functionCallReply('searchPolicies', { query: 'annual plan refund' }),
      functionCallReply('searchWeb', { query: 'EU withdrawal period online purchases' }),
      // The sub-call: its second sentence has no grounding support, so "Mondays" never reaches the ledger.
      groundedReply(
        'Consumers in the EU may withdraw from online purchases within 14 days. Withdrawal is free on Mondays.',
        WEB,
        [{ text: 'Consumers in the EU may withdraw from online purchases within 14 days.', chunks: [0] }],
      ),
    );
    let webId = '';
    server.respondWith((req) => {
      const web = lastFunctionResponses(req.body).find((r) => r.name === 'searchWeb');
      const sources = (web?.response.sources ?? []) as Array<{ id: string }>;
      webId = sources[0]?.id ?? 'E99';
      return textReply(
        `Annual plans are refundable pro rata within 90 days of purchase [E1]. EU consumers may withdraw from online purchases within 14 days [${webId}]. Withdrawal is free on Mondays [${webId}].`,
      );
    });
    const gemini = createGeminiModel({ apiKey: 'k', baseUrl: server.baseUrl, timeoutMs: 3000 });
    const webSearch = createGoogleSearchModel({ apiKey: 'k', baseUrl: server.baseUrl, timeoutMs: 3000 });
    const result = await engine.ask('Can I get a refund on my annual plan, and what does EU law say?', {
      model: gemini,
      webSearch,
    });

    // The main model saw both tools; the sub-call used the googleSearch tool only.
    const declared = (
      server.requests[0].body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>
    )[0].functionDeclarations.map((d) => d.name);
    assert.deepEqual(declared, ['searchPolicies', 'searchWeb']);
    assert.deepEqual(server.requests[2].body.tools, [{ googleSearch: {} }]);
    assert.equal(server.requests.length, 4);

    // One ledger: the passages, then the one web source that backs a verified statement.
    const web = result.evidence.filter((e) => e.uri !== undefined);
    assert.deepEqual(
      web.map((e) => [e.id, e.uri, e.title, e.text]),
      [[webId, WEB[0].uri, WEB[0].title, 'Consumers in the EU may withdraw from online purchases within 14 days.']],
    );
    assert.ok(result.evidence.some((e) => e.source === 'refunds.md'));
    assert.deepEqual(
      result.sentences.map((s) => [s.verdict, s.citations]),
      [
        ['kept', ['E1']],
        ['kept', [webId]],
        ['dropped', [webId]],
      ],
    );
    assert.equal(result.sentences[2].code, 'low-support');
    assert.equal(engine.openInvocations, 0);
  });

  it('without webSearch the model gets only searchPolicies, and a searchWeb call is refused as an unknown tool', async () => {
    server.requests.length = 0;
    server.respondWith(() => undefined);
    server.enqueue(functionCallReply('searchWeb', { query: 'x' }), textReply('NOT_FOUND: nothing.'));
    const gemini = createGeminiModel({ apiKey: 'k', baseUrl: server.baseUrl, timeoutMs: 3000 });
    await engine.ask('Anything?', { model: gemini });
    const declared = (
      server.requests[0].body.tools as Array<{ functionDeclarations: Array<{ name: string }> }>
    )[0].functionDeclarations.map((d) => d.name);
    assert.deepEqual(declared, ['searchPolicies']);
    assert.match(
      JSON.stringify(lastFunctionResponses(server.requests[1].body)),
      /Unknown tool \\"searchWeb\\"\. The only tool is searchPolicies/,
    );
  });
});
