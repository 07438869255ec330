// The chat view application under jsdom: the composer's keys, Stop while a turn runs, the
// hide-dropped toggle, the empty state, and a draft replaced by the verified answer.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { ChatState, WebviewToHost } from '../../../src/shared/protocol';
import { ChatApp, describeIndex } from '../../../src/webview/chatApp';
import { turnResult } from '../../support/turnBuilder';

function setup(state?: Partial<ChatState>) {
  const dom = new JSDOM('<!doctype html><html><body><div id="app"></div></body></html>');
  const doc = dom.window.document;
  const root = doc.getElementById('app') as HTMLElement;
  const sent: WebviewToHost[] = [];
  const app = new ChatApp(doc, root, (m) => sent.push(m));
  const full: ChatState = {
    index: { state: 'indexed', documents: 57, passages: 1234, retrieval: 'lexical' },
    model: { backend: 'extractive', label: 'Extractive (offline)' },
    turns: [],
    showDropped: true,
    exampleQuestion: 'How much leave do I get?',
    ...state,
  };
  app.handle({ type: 'state', state: full });
  const $ = <T extends Element = HTMLElement>(testId: string) => root.querySelector<T>(`[data-testid="${testId}"]`) as T;
  const key = (target: Element, init: KeyboardEventInit) => target.dispatchEvent(new dom.window.KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  return { dom, root, app, sent, $, key };
}

describe('chat view app', () => {
  it('sends on Enter, keeps a new line on Shift+Enter, and never sends an empty question', () => {
    const { app, sent, $, key } = setup();
    const input = $<HTMLTextAreaElement>('chat-input');
    input.value = '   ';
    key(input, { key: 'Enter' });
    assert.deepEqual(sent, []);
    input.value = 'How much leave?';
    key(input, { key: 'Enter', shiftKey: true });
    assert.deepEqual(sent, []);
    key(input, { key: 'Enter' });
    assert.deepEqual(sent, [{ type: 'ask', question: 'How much leave?' }]);
    assert.equal(app.inputText, '');
  });

  it('shows Stop while a turn runs, and the draft as unverified until the answer replaces it', () => {
    const { app, sent, $, root, dom } = setup();
    assert.equal($('stop-button').hidden, true);
    assert.equal($('send-button').hidden, false);
    app.handle({ type: 'turn', turn: { id: 't1', question: 'Q?', status: 'pending', startedAt: 1 } });
    assert.equal($('stop-button').hidden, false);
    assert.equal($('send-button').hidden, true);
    assert.equal($('empty-state'), null);
    app.handle({ type: 'draft', turnId: 't1', text: 'Employees get 25 days [E1' });
    assert.equal($('answer-draft').querySelector('.draft-text')?.textContent, 'Employees get 25 days [E1');
    $('stop-button').dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(sent, [{ type: 'stop' }]);
    app.handle({ type: 'turn', turn: { id: 't1', question: 'Q?', status: 'done', startedAt: 1, result: turnResult() } });
    assert.equal($('answer-draft'), null);
    assert.equal(root.querySelectorAll('[data-testid="turn"]').length, 1);
    assert.equal($('answer').querySelector('[data-testid="citation"]')?.getAttribute('data-evidence-id'), 'E1');
    assert.equal($('stop-button').hidden, true);
    assert.equal($('send-button').hidden, false);
  });

  it('toggles dropped sentences through the host and hides them when told', () => {
    const { sent, $, root, app, dom } = setup();
    const toggle = $<HTMLInputElement>('toggle-dropped');
    assert.equal(toggle.checked, true);
    toggle.checked = false;
    toggle.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
    assert.deepEqual(sent, [{ type: 'setShowDropped', show: false }]);
    assert.equal(root.classList.contains('hide-dropped'), false);
    app.handle({ type: 'showDropped', show: false });
    assert.equal(root.classList.contains('hide-dropped'), true);
    assert.equal($<HTMLInputElement>('toggle-dropped').checked, false);
  });

  it('has an empty state that says the index state, the model and an example', () => {
    const { $, sent, dom, app } = setup({ index: { state: 'not-indexed', documents: 0, passages: 0, retrieval: 'lexical' } });
    assert.equal($('empty-index').textContent, 'Index: Not indexed');
    assert.equal($('empty-model').textContent, 'Model: Extractive (offline)');
    $('example-question').dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.equal(app.inputText, 'How much leave do I get?');
    $('empty-action-reindex').dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    $('empty-action-set-key').dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(sent, [
      { type: 'runCommand', command: 'reindex' },
      { type: 'runCommand', command: 'setGeminiApiKey' },
    ]);
    assert.equal($('header-retrieval').textContent, 'lexical only');
  });

  it('names the shared index that answers in the header (as text), and nothing for the local index', () => {
    const shared = setup({ index: { state: 'indexed', documents: 3, passages: 9, retrieval: 'hybrid', store: 'shared index postgres://team@db.example/<b>handbook</b>' } });
    assert.equal(shared.$('header-store').textContent, 'shared index postgres://team@db.example/<b>handbook</b>');
    assert.equal(shared.$('header-store').querySelector('b'), null, 'never markup');
    const local = setup({ index: { state: 'indexed', documents: 3, passages: 9, retrieval: 'hybrid' } });
    assert.equal(local.$('header-store'), null);
  });

  it('describes the index state as the status bar does', () => {
    assert.equal(describeIndex({ state: 'indexed', documents: 1, passages: 1234, retrieval: 'hybrid' }), '1,234 passages · hybrid');
    assert.equal(describeIndex({ state: 'indexed', documents: 1, passages: 7, retrieval: 'lexical' }), '7 passages · lexical only');
    assert.equal(describeIndex({ state: 'indexing', documents: 0, passages: 0, retrieval: 'lexical', percent: 41.6 }), 'Indexing 42%');
  });
});
