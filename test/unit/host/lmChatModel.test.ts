// The VS Code language-model adapter's code path (src/host/lmChatModel.ts) with a model-shaped
// answer: a fake LanguageModelChat (no real `vscode` module exists outside an editor, so the
// few API classes are faked, test/support/fakeVscode.ts) searches through the adapter's tool
// calls and answers; the engine verifies as for any model: the one planted sentence is dropped,
// the rest kept, ids mapped to this turn's.

import * as assert from 'node:assert/strict';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../support/engineFixture';
import { ScriptedModel, search, say } from '../../support/scriptedModel';
import { languageModelReplay, type SeenRequest } from '../../support/fakeLanguageModel';
import type { ReplayReport } from '../../support/answerReplay';

describe('VS Code LM adapter with a model-shaped answer (fake LanguageModelChat)', () => {
  let fixture: EngineFixture;
  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
  });
  after(() => fixture.dispose());

  it("searches through tool calls, answers with this turn's ids, and only the planted sentence is dropped", async () => {
    // The passages as captured when the answer was written (ids of that capture, not this turn's).
    const capture = await fixture.engine.ask('refunds and travel', {
      model: new ScriptedModel([search('annual plans refundable economy flights'), say('NOT_FOUND: capture only.')]),
    });
    const captured = [...capture.evidence].reverse().map((e, i) => ({ ...e, id: `E${i + 1}` }));
    const annual = captured.find((e) => e.text.includes('Annual plans')) ?? assert.fail('no annual passage');
    const travel = captured.find((e) => e.text.includes('Economy')) ?? assert.fail('no travel passage');
    const answer = [
      `Yes — annual plans can be refunded pro rata if you ask within 90 days of buying them [${annual.id}].`,
      `Flights shorter than six hours have to be booked in economy class [${travel.id}].`,
      `Monthly plans are refundable within 30 days too [${annual.id}].`,
    ].join(' ');
    const report: ReplayReport = { searches: [], missing: [] };
    const seen: SeenRequest[] = [];
    const model = languageModelReplay({ question: 'Are annual plans refundable?', answer, captured }, report, seen);
    const r = await fixture.engine.ask('Are annual plans refundable?', { model });
    assert.deepEqual(report.missing, []);
    assert.ok(seen[0].tools.includes('searchPolicies'));
    assert.equal(r.model, 'vscode-lm:fake/replay');
    assert.equal(r.abstained, false, r.answer);
    assert.deepEqual(
      r.sentences.map((s) => s.verdict),
      ['kept', 'kept', 'dropped'],
    );
    // The ids were mapped to this turn's passages: each cited id holds the passage the writer cited.
    assert.match(r.evidence.find((e) => e.id === r.sentences[0].citations[0])?.text ?? '', /Annual plans/);
    assert.match(r.evidence.find((e) => e.id === r.sentences[1].citations[0])?.text ?? '', /Economy/);
  });
});
