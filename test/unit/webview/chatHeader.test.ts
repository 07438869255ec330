// The chat header: compact, each notice once with the button that fixes its cause and a dismiss
// button, remembered by key; the running index's figure once.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { ChatState, IndexView, WebviewToHost } from '../../../src/shared/protocol';
import { ChatApp, type ViewMemory } from '../../../src/webview/chatApp';
import { describeIndex, passageCount } from '../../../src/webview/chatHeader';
import { doneTurn, turnResult } from '../../support/turnBuilder';

const indexed: IndexView = { state: 'indexed', documents: 3, passages: 9, retrieval: 'hybrid' };

function setup(state: Partial<ChatState>, memory: ViewMemory = {}) {
  const dom = new JSDOM('<!doctype html><html><body><div id="app"></div></body></html>');
  const doc = dom.window.document;
  const root = doc.getElementById('app') as HTMLElement;
  const sent: WebviewToHost[] = [];
  const remembered: ViewMemory[] = [];
  const app = new ChatApp(
    doc,
    root,
    (m) => sent.push(m),
    memory,
    (m) => remembered.push(m),
  );
  app.handle({
    type: 'state',
    state: {
      index: indexed,
      model: { backend: 'extractive', label: 'Extractive (offline)' },
      turns: [],
      showDropped: true,
      exampleQuestion: 'How much leave?',
      ...state,
    },
  });
  const $ = (id: string) => root.querySelector<HTMLElement>(`[data-testid="${id}"]`);
  const click = (el: Element | null) => el?.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  return { app, root, doc, sent, remembered, $, click };
}

describe('chat header', () => {
  it('says why the offline model answers once, with the button that fixes it (not a command to type), and not under answers', () => {
    const { $, click, sent, root, app } = setup({
      model: {
        backend: 'extractive',
        label: 'Extractive (offline)',
        notice: 'Gemini is selected but no API key is set, so the offline model answers.',
        noticeCode: 'no-gemini-key',
      },
    });
    const notice = $('model-notice');
    assert.match(notice?.textContent ?? '', /no API key is set/);
    assert.doesNotMatch(notice?.textContent ?? '', /run "Evident/);
    assert.equal(notice?.querySelector('[data-testid="model-notice-action"]')?.textContent, 'Set Gemini API key');
    click(notice?.querySelector('[data-testid="model-notice-action"]') ?? null);
    assert.deepEqual(sent, [{ type: 'runCommand', command: 'setGeminiApiKey' }]);
    app.handle({ type: 'turn', turn: doneTurn('t1', { result: turnResult() }) });
    assert.equal(root.querySelectorAll('[data-testid="model-notice"]').length, 1);
    const vertex = setup({
      model: { backend: 'extractive', label: 'X', notice: 'no data store', noticeCode: 'no-data-store' },
    });
    assert.equal(vertex.$('model-notice-action')?.textContent, 'Set the data store');
    const lm = setup({
      model: { backend: 'extractive', label: 'X', notice: 'no model', noticeCode: 'no-language-model' },
    });
    lm.click(lm.$('model-notice-action'));
    assert.deepEqual(lm.sent, [{ type: 'runCommand', command: 'chooseModel' }]);
  });

  it('names the skipped files with their reasons and offers the index settings; a dismissal is kept by key until the list changes', () => {
    const skipped = { files: [{ path: 'big.md', reason: 'too large (5.0 MB; the limit is 2 MB)' }], total: 1 };
    const { $, click, sent, remembered, doc } = setup({ index: { ...indexed, skipped } });
    assert.equal(
      $('skipped-notice')?.querySelector('.header-notice-text')?.textContent,
      '1 file was not indexed: big.md (too large (5.0 MB; the limit is 2 MB)).',
    );
    click($('skipped-notice-settings'));
    assert.deepEqual(sent, [{ type: 'runCommand', command: 'openIndexSettings' }]);
    click($('skipped-notice')?.querySelector('[data-testid="notice-dismiss"]') ?? null);
    assert.equal($('skipped-notice'), null);
    assert.equal(doc.activeElement, $('chat-input'), 'the focus goes to the question box');
    assert.deepEqual(remembered, [{ dismissed: ['skipped:1:big.md'] }]);
    const again = setup({ index: { ...indexed, skipped } }, remembered[0]);
    assert.equal(again.$('skipped-notice'), null, 'dismissed stays dismissed');
    const more = setup(
      { index: { ...indexed, skipped: { files: [...skipped.files, { path: 'c.md', reason: 'binary' }], total: 2 } } },
      remembered[0],
    );
    assert.notEqual(more.$('skipped-notice'), null, 'a new skipped file is said again');
  });

  it('with nothing indexed: the empty state says why and offers the settings, with no example that cannot work; once there are turns, the header says it', () => {
    const skipped = { files: [{ path: 'big.md', reason: 'too large (5.0 MB; the limit is 2 MB)' }], total: 1 };
    const { $, click, sent, app } = setup({
      index: { state: 'indexed', documents: 0, passages: 0, retrieval: 'lexical', skipped },
    });
    assert.match($('empty-index-text')?.textContent ?? '', /big\.md \(too large/);
    assert.equal($('example-question'), null);
    assert.equal($('skipped-notice'), null, 'said once, in the empty state');
    assert.equal($('empty-index-notice'), null);
    click($('empty-action-index-settings'));
    assert.deepEqual(sent, [{ type: 'runCommand', command: 'openIndexSettings' }]);
    app.handle({
      type: 'turn',
      turn: {
        id: 't1',
        question: 'Q?',
        status: 'failed',
        startedAt: 1,
        error: 'No passages are indexed…',
        errorKind: 'no-documents',
      },
    });
    assert.match($('empty-index-notice')?.textContent ?? '', /big\.md/);
    const error = $('turn-error');
    click(error?.querySelector('[data-testid="error-index-settings"]') ?? null);
    assert.deepEqual(sent.at(-1), { type: 'runCommand', command: 'openIndexSettings' });
    const none = setup({ index: { state: 'no-folder', documents: 0, passages: 0, retrieval: 'lexical' } });
    assert.equal(none.$('example-question'), null, 'no example without a folder');
  });

  it("shows the running index's figure once (not in the badge, the box and the empty state at once), and the vector share while vectors fill in", () => {
    const { root, $, app } = setup({
      index: {
        state: 'indexing',
        documents: 0,
        passages: 0,
        retrieval: 'lexical',
        percent: 47.6,
        phase: 'reading',
        done: 120,
        total: 248,
      },
    });
    assert.equal(root.textContent?.match(/\d+%/g)?.length, 1, root.textContent ?? '');
    assert.equal($('index-progress-text')?.textContent, 'Indexing your documents: Reading files 120/248 (48%)');
    assert.equal($('header-index')?.textContent, 'Indexing…');
    app.handle({
      type: 'status',
      index: {
        state: 'indexing',
        documents: 248,
        passages: 2340,
        retrieval: 'hybrid',
        percent: 78,
        phase: 'embedding',
        done: 10,
        total: 30,
        vectors: { passagesWithVectors: 1638, passages: 2340 },
      },
      model: { backend: 'extractive', label: 'X' },
    });
    assert.equal(
      root.textContent?.match(/\d+%/g)?.join(),
      '70%',
      "the vector share (as in the status bar), not the run's 78%",
    );
    assert.equal($('index-progress')?.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow'), '70');
  });

  it('counts passages in words, one or many', () => {
    assert.equal(passageCount(1), '1 passage');
    assert.equal(passageCount(2315), '2,315 passages');
    assert.equal(
      describeIndex({ state: 'indexed', documents: 1, passages: 1, retrieval: 'lexical' }),
      '1 passage · lexical only',
    );
  });
});
