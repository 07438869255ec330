// The chat's turns (src/host/chatSession.ts) in plain Node: a real workspace index (a real engine
// and index on disk over a small temporary folder, its editor side faked: fakeIndexHost), the
// real model resolver answering with the offline extractive model (its settings faked:
// fakeModelSources), and the workspace state faked as a map (no editor outside an editor).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { JSDOM } from 'jsdom';
import type { Engine } from '../../../src/core/engine';
import { ChatSession, type HistoryStore, type SessionEvent, type SessionHost } from '../../../src/host/chatSession';
import { ModelResolver } from '../../../src/host/models';
import { WorkspaceIndex } from '../../../src/host/workspaceIndex';
import type { TurnView } from '../../../src/shared/protocol';
import { renderTurn, type TurnActions } from '../../../src/webview/answerView';
import { FakeGeminiServer } from '../../support/fakeGemini';
import { rejectedKeyReply } from '../../support/fakeGeminiModes';
import { fakeIndexHost, memoryLog } from '../../support/fakeIndexHost';
import { fakeModelSources, type FakeModelSettings } from '../../support/fakeModelSources';
import { LEAVE_AND_TRAVEL_DOCS as DOCS } from '../../support/engineFixture';
import { removeDir, tempDir, writeDocs } from '../../support/workspace';

const HISTORY_KEY = 'evident.chatHistory';

/** The workspace state (a vscode.Memento in the editor) as a map. */
class MapState implements HistoryStore {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

describe('chat session (real index and offline model; fake editor host, settings and workspace state)', function () {
  this.timeout(60_000);
  let work: string;
  let docs: string;
  const disposables: { dispose(): void }[] = [];

  beforeEach(async () => {
    work = await tempDir('evident-chat-session-');
    docs = path.join(work, 'docs');
    await writeDocs(docs, DOCS);
  });
  afterEach(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    await removeDir(work);
  });

  function session(
    options: {
      model?: FakeModelSettings;
      state?: MapState;
      host?: Partial<SessionHost>;
      docs?: string;
      wrap?(engine: Engine): Engine;
      engine?: Parameters<typeof fakeIndexHost>[0]['engine'];
    } = {},
  ) {
    const log = memoryLog();
    const index = new WorkspaceIndex(
      fakeIndexHost({ docs: options.docs ?? docs, storage: work, wrap: options.wrap, engine: options.engine }),
      log,
    );
    const models = new ModelResolver(fakeModelSources(options.model ?? { model: 'extractive' }));
    const state = options.state ?? new MapState();
    let answered = 0;
    const chat = new ChatSession(
      state,
      index,
      models,
      log,
      { forTurn: () => undefined },
      {
        askGrounded: () => assert.fail('no turn here is grounded'),
        timeoutSeconds: () => 0,
        answered: () => void answered++,
        isCancellation: (error) => error instanceof Error && error.name === 'AbortError',
        ...options.host,
      },
    );
    const events: SessionEvent[] = [];
    chat.onDidChange((e) => events.push(e));
    disposables.push(chat, index, models);
    return { chat, index, state, log, events, answered: () => answered };
  }

  it('answers a turn: pending → indexing → answering → done, with cited sentences, saved in the workspace state', async () => {
    const { chat, state, events, answered } = session();
    const turn = await chat.ask('  How many days of annual leave do employees get?  ');
    assert.equal(turn.status, 'done', turn.error);
    assert.equal(turn.question, 'How many days of annual leave do employees get?');
    assert.equal(turn.result?.abstained, false);
    assert.match(turn.result?.answer ?? '', /25 days[^[]*\[E\d\]/);
    assert.equal(turn.result?.model, 'extractive');
    const stages = events.flatMap((e) =>
      e.type === 'progress' ? [e.stage] : e.type === 'turn' ? [e.turn.status] : [],
    );
    assert.equal(stages[0], 'pending');
    assert.ok(
      stages.indexOf('indexing') > 0 && stages.indexOf('indexing') < stages.indexOf('answering'),
      stages.join(' '),
    );
    assert.equal(stages.at(-1), 'done');
    assert.equal(answered(), 1);
    assert.equal(chat.busyTurnId, undefined);
    assert.deepEqual(
      (state.get(HISTORY_KEY) as TurnView[]).map((t) => [t.id, t.status]),
      [[turn.id, 'done']],
    );
    assert.equal(chat.current?.id, turn.id);
  });

  it("shows a repeated notice under the first answer only, and never the lexical-only reason (it is the header's; the engine's results get a repeated notice from the test)", async () => {
    const repeated = 'The index was rebuilt after a format change.';
    const { chat } = session({
      // An embedding model that cannot load: every turn carries the lexical-only reason.
      engine: {
        embedding: { modelId: 'missing-model', localModelPath: path.join(work, 'no-such-model'), allowRemote: false },
      },
      wrap: (engine) =>
        new Proxy(engine, {
          get(target, key, receiver) {
            if (key === 'ask') {
              return async (...args: Parameters<Engine['ask']>) => {
                const result = await target.ask(...args);
                return { ...result, notices: [...result.notices, repeated] };
              };
            }
            const value: unknown = Reflect.get(target, key, receiver);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    });
    const first = await chat.ask('How many days of annual leave do employees get?');
    const second = await chat.ask('Which class is required for short flights?');
    assert.equal(first.status, 'done', first.error);
    assert.equal(second.status, 'done', second.error);
    assert.deepEqual(first.result?.notices, [repeated]);
    assert.deepEqual(second.result?.notices, []);
  });

  it('a follow-up is answered as its standalone question (answeredAs); a regenerated first answer follows nothing', async () => {
    const { chat } = session();
    const first = await chat.ask('How many days of annual leave do employees get?');
    const second = await chat.ask('and for contractors?');
    assert.equal(second.status, 'done', second.error);
    assert.equal(second.result?.answeredAs, 'How many days of annual leave do employees get — and for contractors?');
    assert.match(second.result?.answer ?? '', /^Contractors get 10 days of annual leave per year \[E\d\]\.$/);
    const again = await chat.regenerate(first.id);
    assert.equal(again?.result?.answeredAs, undefined);
    const afterSecond = await chat.regenerate(second.id);
    assert.equal(
      afterSecond?.result?.answeredAs,
      second.result?.answeredAs,
      'regenerating the follow-up continues from the first turn',
    );
  });

  it('a failed turn says its kind and the ways forward: a key Gemini rejects (the real client against the fake Gemini server), and a folder with no Markdown', async () => {
    const gemini = await FakeGeminiServer.start();
    try {
      gemini.enqueue(rejectedKeyReply());
      const rejected = session({ model: { model: 'gemini', key: 'k-rejected', geminiBaseUrl: gemini.baseUrl } });
      const failed = await rejected.chat.ask('How many days of annual leave do employees get?');
      assert.equal(failed.status, 'failed');
      assert.equal(failed.errorKind, 'api-key');
      assert.equal(failed.error, 'Gemini did not accept the API key: set a valid key, or switch to the offline model.');
      assert.deepEqual(waysForward(failed), ['error-set-key', 'error-offline', 'retry', 'show-logs']);
      assert.ok(rejected.log.lines.some((l) => l.startsWith(`error: Turn ${failed.id} failed: `)));
      assert.equal(gemini.requests[0]?.apiKey, 'k-rejected');
    } finally {
      await gemini.close();
    }

    // No key at all: the offline model answers instead (the header says why).
    const noKey = session({ model: { model: 'gemini' } });
    const offline = await noKey.chat.ask('How many days of annual leave do employees get?');
    assert.equal(offline.status, 'done', offline.error);
    assert.equal(offline.result?.model, 'extractive');

    const empty = path.join(work, 'empty');
    await writeDocs(empty, { 'notes.txt': 'not Markdown' });
    const none = session({ docs: empty });
    // The first index has run (the workspace was opened before the question).
    await none.index.warmUp();
    assert.equal(none.index.status.state, 'indexed');
    const nothing = await none.chat.ask('How many days of annual leave do employees get?');
    assert.equal(nothing.status, 'failed');
    assert.equal(nothing.errorKind, 'no-documents');
    assert.deepEqual(waysForward(nothing), ['error-index-settings', 'retry', 'show-logs']);

    // Asked before anything was indexed: the question's own first index finds nothing to answer from.
    const first = session({ docs: empty, state: new MapState() });
    assert.equal(first.index.status.state, 'not-indexed');
    const beforeIndex = await first.chat.ask('How many days of annual leave do employees get?');
    assert.equal(beforeIndex.status, 'failed');
    assert.equal(beforeIndex.errorKind, 'no-documents', beforeIndex.error);
    assert.equal(beforeIndex.error, nothing.error);

    // Asked while the workspace's first index (opened at activation) is still running.
    const during = session({ docs: empty, state: new MapState() });
    const warming = during.index.warmUp();
    const whileIndexing = await during.chat.ask('How many days of annual leave do employees get?');
    await warming;
    assert.equal(whileIndexing.status, 'failed');
    assert.equal(whileIndexing.errorKind, 'no-documents', whileIndexing.error);
    assert.equal(whileIndexing.error, nothing.error);
  });

  it('stops a turn: Stop, or a new question, cancels the running one; the time limit fails it as "timeout"', async () => {
    const { chat } = session();
    const stopped = chat.ask('How many days of annual leave do employees get?');
    chat.stop();
    assert.equal((await stopped).status, 'cancelled');
    const replaced = chat.ask('How many days of annual leave do employees get?');
    const next = await chat.ask('Which class is required for short flights?');
    assert.equal((await replaced).status, 'cancelled');
    assert.equal(next.status, 'done', next.error);
    assert.deepEqual(waysForward(await replaced), ['retry']);

    // A limit far shorter than a first index of a fresh workspace.
    const slow = session({ host: { timeoutSeconds: () => 0.001 } });
    const late = await slow.chat.ask('How many days of annual leave do employees get?');
    assert.equal(late.status, 'failed');
    assert.equal(late.errorKind, 'timeout');
    assert.deepEqual(waysForward(late), ['error-offline', 'error-timeout-setting', 'retry', 'show-logs']);
  });

  it('reads its history back (a pending turn as cancelled, malformed entries dropped), clears it and restores it (Undo)', async () => {
    const state = new MapState();
    const pending: TurnView = { id: 't1', question: 'Left running?', status: 'pending', startedAt: 1 };
    await state.update(HISTORY_KEY, [pending, { id: 42 }, 'junk']);
    const { chat, events } = session({ state });
    assert.deepEqual(
      chat.history.map((t) => [t.id, t.status]),
      [['t1', 'cancelled']],
    );
    const done = await chat.ask('How many days of annual leave do employees get?');
    await chat.setFeedback(done.id, 'helpful');
    assert.equal(chat.find(done.id)?.feedback, 'helpful');
    const removed = await chat.clear();
    assert.deepEqual(
      removed.map((t) => t.id),
      ['t1', done.id],
    );
    assert.deepEqual(state.get(HISTORY_KEY), []);
    assert.equal(events.at(-1)?.type, 'cleared');
    await chat.restore(removed);
    assert.deepEqual(
      (state.get(HISTORY_KEY) as TurnView[]).map((t) => t.id),
      ['t1', done.id],
    );
  });
});

/** The buttons the chat shows under a failed or stopped turn (the webview's own rendering). */
function waysForward(turn: TurnView): string[] {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  const noop = () => undefined;
  const actions: TurnActions = {
    openEvidence: noop,
    openLink: noop,
    copyAnswer: noop,
    openInEditor: noop,
    retry: noop,
    regenerate: noop,
    feedback: noop,
    ask: noop,
    runCommand: noop,
  };
  const element = renderTurn(dom.window.document, turn, {}, actions);
  return [...element.querySelectorAll('[aria-label="Ways forward"] button')].map(
    (b) => b.getAttribute('data-testid') ?? '',
  );
}
