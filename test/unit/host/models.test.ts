// The model resolver (src/host/models.ts) in plain Node: the `evident.model` setting, the Gemini
// key and VS Code's language models are faked (test/support/fakeModelSources.ts: they exist only
// in an editor); the model factories are the engine's real ones, and the offline model answers
// from a real lexical index.

import { strict as assert } from 'node:assert';
import type { ChatModel } from '../../../src/core/types';
import { EXTRACTIVE_LABEL, LanguageModelUnavailable, ModelResolver } from '../../../src/host/models';
import { errorCode } from '../../../src/host/errorCodes';
import { indexedEngine, REFUND_AND_TRAVEL_DOCS, type EngineFixture } from '../../support/engineFixture';
import { fakeModelSources, type FakeModelSettings } from '../../support/fakeModelSources';

describe('model resolver (fake settings, key and VS Code language models; real model factories)', () => {
  let fixture: EngineFixture;
  before(async () => {
    fixture = await indexedEngine(REFUND_AND_TRAVEL_DOCS);
  });
  after(() => fixture.dispose());

  const engine = () => Promise.resolve(fixture.engine);
  const resolver = (settings: FakeModelSettings) => new ModelResolver(fakeModelSources(settings));
  const languageModel = (name: string): { name: string; chatModel(): ChatModel } => ({
    name,
    chatModel: () => ({ name: `vscode-lm:test/${name}`, generate: () => Promise.reject(new Error('not asked here')) }),
  });

  it('"gemini" with a key: the Gemini model named by the setting, described with its id (and web search when set)', async () => {
    const models = resolver({ model: 'gemini', key: 'k-123', geminiModelId: 'gemini-2.5-pro', webSearch: true });
    const turn = await models.create(() => assert.fail('Gemini needs no index to be built'));
    assert.equal(turn.kind, 'chat');
    assert.equal(turn.model.name, 'gemini:gemini-2.5-pro');
    assert.ok(turn.kind === 'chat' && turn.webSearch, 'web search rides along as a grounded sub-model');
    assert.deepEqual(await models.describe(), { backend: 'gemini', label: 'Gemini (gemini-2.5-pro) + web search' });
  });

  it('"gemini" with no key: the offline model answers, and the header says why (offline fallback)', async () => {
    const models = resolver({ model: 'gemini' });
    const choice = await models.choose();
    assert.equal(choice.backend, 'extractive');
    assert.equal(choice.noticeCode, 'no-gemini-key');
    assert.equal(choice.notice, 'Gemini is selected but no API key is set, so the offline model answers.');
    const view = await models.describe();
    assert.equal(view.backend, 'extractive');
    assert.equal(view.label, EXTRACTIVE_LABEL);
    assert.equal(view.noticeCode, choice.noticeCode);
    // A turn answers offline, saying why (the notice goes to the chat header).
    const turn = await models.create(engine);
    assert.equal(turn.model.name, 'extractive');
    assert.ok(turn.kind === 'chat' && turn.notice === choice.notice);
  });

  it('a key cleared between choosing the model and building it: the missing-key error, with the command to run', async () => {
    for (const model of ['gemini', 'google-search'] as const) {
      const sources = fakeModelSources({ model, key: 'k-123' });
      let reads = 0;
      // The first read (choosing) sees the key; the next (building the client) finds it gone.
      const models = new ModelResolver({
        ...sources,
        geminiKey: () => Promise.resolve(reads++ === 0 ? 'k-123' : undefined),
      });
      await assert.rejects(models.create(engine), (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.equal(errorCode(error), 'no-key');
        assert.equal(error.message, 'No Gemini API key: run "Evident: Set Gemini API Key".');
        return true;
      });
    }
  });

  it('"google-search" with no key falls back to the offline model over the workspace docs', async () => {
    const choice = await resolver({ model: 'google-search' }).choose();
    assert.equal(choice.backend, 'extractive');
    assert.match(choice.notice ?? '', /offline model answers from the workspace docs/);
  });

  it('"extractive": the offline model over the index, which answers with a citation', async () => {
    const turn = await resolver({ model: 'extractive' }).create(engine);
    assert.equal(turn.kind, 'chat');
    const result = await fixture.engine.ask('Are annual plans refundable?', { model: turn.model });
    assert.equal(result.abstained, false);
    assert.match(result.answer, /pro rata[^[]*\[E\d\]/);
  });

  it('"auto": a VS Code language model when there is one (named in the header), else Gemini with a key, else offline', async () => {
    const lm = resolver({ model: 'auto', languageModels: [languageModel('GPT-test')] });
    assert.deepEqual(await lm.describe(), { backend: 'vscode-lm', label: 'GPT-test (VS Code)' });
    assert.equal((await lm.create(engine)).model.name, 'vscode-lm:test/GPT-test');
    assert.equal((await resolver({ model: 'auto', key: 'k' }).create(engine)).model.name, 'gemini:gemini-2.5-flash');
    assert.equal((await resolver({ model: 'auto' }).create(engine)).model.name, 'extractive');
  });

  it('"vscode-lm" when the model went away between choosing and asking: a clear error naming the fix', async () => {
    const settings: FakeModelSettings = { model: 'vscode-lm', languageModels: [languageModel('gone')] };
    const sources = fakeModelSources(settings);
    const models = new ModelResolver({ ...sources, selectLanguageModel: () => Promise.resolve(undefined) });
    await assert.rejects(
      models.create(engine),
      (e: unknown) => e instanceof LanguageModelUnavailable && /set "evident.model" to "extractive"/.test(e.message),
    );
  });

  it('"vertex-ai-search" with a data store: a grounded model, labelled by the data store\'s own name', async () => {
    const models = resolver({
      model: 'vertex-ai-search',
      dataStore: 'projects/p/locations/global/collections/default_collection/dataStores/handbook',
    });
    const turn = await models.create(() => assert.fail('built-in grounding needs no workspace index'));
    assert.equal(turn.kind, 'grounded');
    assert.deepEqual(await models.describe(), { backend: 'vertex-ai-search', label: 'Vertex AI Search (handbook)' });
  });

  it("passes on the sources' change event (a setting, the key or the language models changed)", () => {
    const sources = fakeModelSources({ model: 'auto' });
    const models = new ModelResolver(sources);
    let heard = 0;
    const subscription = models.onDidChange(() => heard++);
    sources.changed();
    subscription.dispose();
    sources.changed();
    assert.equal(heard, 1);
  });
});
