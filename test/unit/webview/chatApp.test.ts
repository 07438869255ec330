// The chat view application under jsdom: the composer's keys, Stop while a turn runs, the
// hide-dropped toggle, the empty state, and a draft replaced by the verified answer.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { ChatState, WebviewToHost } from '../../../src/shared/protocol';
import { ChatApp, describeIndex } from '../../../src/webview/chatApp';
import { evidence, sentences, turnResult } from '../../support/turnBuilder';

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
  const $ = <T extends Element = HTMLElement>(testId: string) =>
    root.querySelector<T>(`[data-testid="${testId}"]`) as T;
  const key = (target: Element, init: KeyboardEventInit) =>
    target.dispatchEvent(new dom.window.KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  return { dom, doc, root, app, sent, $, key };
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
    app.handle({
      type: 'turn',
      turn: { id: 't1', question: 'Q?', status: 'done', startedAt: 1, result: turnResult() },
    });
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

  it('has an empty state with the ways to start and an example (the header names the index and the model, once)', () => {
    const { $, sent, dom, app, root } = setup({
      index: { state: 'not-indexed', documents: 0, passages: 0, retrieval: 'lexical' },
    });
    assert.equal($('empty-index'), null, 'the index state is in the header, not repeated');
    assert.equal(root.textContent?.split('Extractive (offline)').length, 2, 'the model is named once');
    assert.equal($('header-index').textContent, 'Not indexed');
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
    const shared = setup({
      index: {
        state: 'indexed',
        documents: 3,
        passages: 9,
        retrieval: 'hybrid',
        store: 'shared index postgres://team@db.example/<b>handbook</b>',
      },
    });
    assert.equal(shared.$('header-store').textContent, 'shared index postgres://team@db.example/<b>handbook</b>');
    assert.equal(shared.$('header-store').querySelector('b'), null, 'never markup');
    const local = setup({ index: { state: 'indexed', documents: 3, passages: 9, retrieval: 'hybrid' } });
    assert.equal(local.$('header-store'), null);
  });

  it('describes the index state as the status bar does', () => {
    assert.equal(
      describeIndex({ state: 'indexed', documents: 1, passages: 1234, retrieval: 'hybrid' }),
      '1,234 passages · hybrid',
    );
    assert.equal(
      describeIndex({ state: 'indexed', documents: 1, passages: 7, retrieval: 'lexical' }),
      '7 passages · lexical only',
    );
    assert.equal(
      describeIndex({ state: 'indexing', documents: 0, passages: 0, retrieval: 'lexical', percent: 41.6 }),
      'Indexing 42%',
    );
  });

  it('makes each answer one Tab stop: arrow keys, Home and End move between its chips', () => {
    const { app, root, key, doc } = setupWithAnswer();
    const answer = root.querySelectorAll<HTMLElement>('[data-testid="answer"]')[1];
    const chips = Array.from(answer.querySelectorAll<HTMLElement>('[data-testid="citation"]'));
    assert.equal(chips.length, 4, 'two chips in the text and two under Sources');
    assert.deepEqual(
      chips.map((c) => c.tabIndex),
      [0, -1, -1, -1],
    );
    chips[0].focus();
    key(chips[0], { key: 'ArrowRight' });
    assert.equal(doc.activeElement, chips[1]);
    assert.deepEqual(
      chips.map((c) => c.tabIndex),
      [-1, 0, -1, -1],
      'the focused chip keeps the Tab stop',
    );
    key(chips[1], { key: 'End' });
    assert.equal(doc.activeElement, chips[3]);
    key(chips[3], { key: 'ArrowDown' });
    assert.equal(doc.activeElement, chips[0], 'wraps around');
    key(chips[0], { key: 'ArrowLeft' });
    assert.equal(doc.activeElement, chips[3]);
    // The focused chip's preview is open: Escape closes it and stays on the chip; again, back to the question box.
    assert.equal(
      chips[3].querySelector<HTMLElement>('[data-testid="evidence-preview"]')?.hidden,
      false,
      'keyboard focus opens the preview',
    );
    key(chips[3], { key: 'Escape' });
    assert.equal(doc.activeElement, chips[3], 'Escape from a preview returns to its chip');
    assert.equal(chips[3].querySelector<HTMLElement>('[data-testid="evidence-preview"]')?.hidden, true);
    key(chips[3], { key: 'Escape' });
    assert.equal(
      doc.activeElement,
      root.querySelector('[data-testid="chat-input"]'),
      'Escape returns to the question box',
    );
    void app;
  });

  it('labels each turn by its question heading and announces only the finished answer', async () => {
    const { app, root } = setup();
    app.handle({
      type: 'turn',
      turn: { id: 't1', question: 'How much leave?', status: 'pending', startedAt: Date.now() },
    });
    const announcer = root.querySelector<HTMLElement>('[data-testid="announcer"]');
    assert.equal(announcer?.getAttribute('aria-live'), 'polite');
    assert.equal(
      root.querySelector('[data-testid="transcript"]')?.hasAttribute('aria-live'),
      false,
      'the transcript is not re-announced as it changes',
    );
    app.handle({ type: 'draft', turnId: 't1', text: 'Employees get' });
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(announcer?.textContent, '', 'drafts are not announced');
    app.handle({
      type: 'turn',
      turn: { id: 't1', question: 'How much leave?', status: 'done', startedAt: 1, result: turnResult() },
    });
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(announcer?.textContent, 'Answer: Employees receive 25 days of annual leave.');
    const article = root.querySelector<HTMLElement>('[data-testid="turn"]');
    assert.equal(article?.tagName, 'ARTICLE');
    const heading = root.querySelector<HTMLElement>('[data-testid="question"]');
    assert.equal(heading?.tagName, 'H3');
    assert.equal(article?.getAttribute('aria-labelledby'), heading?.id);
    assert.equal(heading?.textContent, 'How much leave?');
  });

  it('returns focus to the input after Stop, and shows the stage and elapsed time of a pending turn', () => {
    const { app, $, dom, doc } = setup();
    app.handle({ type: 'turn', turn: { id: 't1', question: 'Q?', status: 'pending', startedAt: Date.now() - 12_400 } });
    assert.equal($('turn-elapsed').textContent, '12\u00a0s', 'a no-break space keeps the number with its unit');
    app.handle({
      type: 'progress',
      turnId: 't1',
      stage: 'answering',
      detail: 'Gemini (gemini-2.5-flash) · 6 passages found for “leave”',
    });
    assert.equal($('turn-stage').dataset.stage, 'answering');
    assert.match($('turn-stage').textContent ?? '', /Waiting for the model/);
    assert.match($('turn-stage-detail').textContent ?? '', /6 passages found/);
    $('stop-button').focus();
    $('stop-button').dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.equal(doc.activeElement, $('chat-input'));
    app.dispose();
  });

  it('shows the running index in the view, with what the user can do meanwhile', () => {
    const { app, $ } = setup({
      index: {
        state: 'indexing',
        documents: 0,
        passages: 0,
        retrieval: 'lexical',
        percent: 48,
        phase: 'reading',
        done: 120,
        total: 248,
      },
    });
    assert.equal($('index-progress-text').textContent, 'Indexing your documents: Reading files 120/248 (48%)');
    assert.match($('index-progress').textContent ?? '', /type your question now/);
    assert.equal($('index-progress').querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow'), '48');
    app.handle({
      type: 'status',
      index: { state: 'indexed', documents: 248, passages: 1200, retrieval: 'hybrid' },
      model: { backend: 'extractive', label: 'Extractive (offline)' },
    });
    assert.equal($('index-progress'), null);
  });

  it('says once, in the header, that lexical search depends on wording, with an action; it can be dismissed for good', () => {
    const remembered: unknown[] = [];
    const dom = new JSDOM('<!doctype html><html><body><div id="app"></div></body></html>');
    const doc = dom.window.document;
    const root = doc.getElementById('app') as HTMLElement;
    const sent: WebviewToHost[] = [];
    const app = new ChatApp(
      doc,
      root,
      (m) => sent.push(m),
      {},
      (m) => remembered.push(m),
    );
    app.handle({
      type: 'state',
      state: {
        index: {
          state: 'indexed',
          documents: 3,
          passages: 9,
          retrieval: 'lexical',
          message: 'No embedding model (offline)',
        },
        model: { backend: 'extractive', label: 'X' },
        turns: [],
        showDropped: true,
        exampleQuestion: '',
      },
    });
    const hint = root.querySelector<HTMLElement>('[data-testid="lexical-hint"]');
    assert.match(hint?.textContent ?? '', /wording|words/);
    hint
      ?.querySelector<HTMLElement>('[data-testid="lexical-hint-action"]')
      ?.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(sent, [{ type: 'runCommand', command: 'setUpSemanticSearch' }]);
    app.handle({
      type: 'turn',
      turn: { id: 't1', question: 'Q?', status: 'done', startedAt: 1, result: turnResult({ notices: [] }) },
    });
    assert.equal(root.querySelectorAll('[data-testid="lexical-hint"]').length, 1, 'said once, not under each answer');
    root
      .querySelector<HTMLElement>('[data-testid="lexical-hint-dismiss"]')
      ?.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.equal(root.querySelector('[data-testid="lexical-hint"]'), null);
    assert.deepEqual(remembered, [{ dismissed: ['lexical'] }]);
    assert.equal(
      doc.activeElement,
      root.querySelector('[data-testid="chat-input"]'),
      'focus does not vanish with the notice',
    );
    const again = new ChatApp(doc, root, () => undefined, { dismissed: ['lexical'] });
    again.handle({
      type: 'state',
      state: {
        index: { state: 'indexed', documents: 3, passages: 9, retrieval: 'lexical' },
        model: { backend: 'extractive', label: 'X' },
        turns: [],
        showDropped: true,
        exampleQuestion: '',
      },
    });
    assert.equal(
      root.querySelector('[data-testid="lexical-hint"]'),
      null,
      'a dismissed hint stays dismissed after a reload',
    );
  });

  it('offers follow-ups under the latest answer only, and sends feedback and Regenerate', () => {
    const { app, root, sent, dom } = setupWithAnswer();
    const turns = root.querySelectorAll<HTMLElement>('[data-testid="turn"]');
    assert.equal(turns[0].querySelector('[data-testid="follow-ups"]'), null);
    const followUps = Array.from(turns[1].querySelectorAll<HTMLElement>('[data-testid="follow-up"]')).map(
      (b) => b.textContent,
    );
    // Uncited passages first; a heading that only repeats the question ("carry-over") is left out.
    assert.deepEqual(followUps, ['What does “Public holidays” say?', 'What does “Annual leave” say?']);
    const click = (el: Element | null) => el?.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    click(turns[1].querySelector('[data-testid="follow-up"]'));
    click(turns[1].querySelector('[data-testid="feedback-helpful"]'));
    click(turns[1].querySelector('[data-testid="regenerate"]'));
    assert.deepEqual(sent, [
      { type: 'ask', question: 'What does “Public holidays” say?' },
      { type: 'feedback', turnId: 't2', feedback: 'helpful' },
      { type: 'regenerate', turnId: 't2' },
    ]);
    app.handle({
      type: 'turn',
      turn: {
        id: 't2',
        question: 'And carry-over?',
        status: 'done',
        startedAt: 2,
        result: answerWithTwoChips(),
        feedback: 'helpful',
      },
    });
    const helpful = root
      .querySelectorAll<HTMLElement>('[data-testid="turn"]')[1]
      .querySelector<HTMLElement>('[data-testid="feedback-helpful"]');
    assert.equal(helpful?.getAttribute('aria-pressed'), 'true');
    click(helpful);
    assert.deepEqual(
      sent.at(-1),
      { type: 'feedback', turnId: 't2', feedback: null },
      'pressing it again clears the verdict',
    );
  });
});

function answerWithTwoChips() {
  return turnResult({
    question: 'And carry-over?',
    sentences: sentences(
      { text: 'Leave is 25 days [E1].', citations: ['E1'] },
      { text: 'Up to 5 days carry over [E2].', citations: ['E2'] },
    ),
    evidence: [
      evidence('E1'),
      evidence('E2', { heading: 'Leave > Carry-over', source: 'hr/leave/carry.md' }),
      evidence('E3', { heading: 'Leave > Public holidays' }),
    ],
  });
}

/** A chat with two finished turns, the second with two cited chips. */
function setupWithAnswer() {
  const dom = new JSDOM('<!doctype html><html><body><div id="app"></div></body></html>');
  const doc = dom.window.document;
  const root = doc.getElementById('app') as HTMLElement;
  const sent: WebviewToHost[] = [];
  const app = new ChatApp(doc, root, (m) => sent.push(m));
  app.handle({
    type: 'state',
    state: {
      index: { state: 'indexed', documents: 2, passages: 9, retrieval: 'hybrid' },
      model: { backend: 'extractive', label: 'Extractive (offline)' },
      turns: [
        { id: 't1', question: 'How much leave?', status: 'done', startedAt: 1, result: turnResult() },
        { id: 't2', question: 'And carry-over?', status: 'done', startedAt: 2, result: answerWithTwoChips() },
      ],
      showDropped: true,
      exampleQuestion: '',
    },
  });
  const key = (target: Element, init: KeyboardEventInit) =>
    target.dispatchEvent(new dom.window.KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));
  return { dom, doc, root, app, sent, key };
}

describe('chat view app: focus, copy and reload (issue 24)', () => {
  it('puts the caret in the question box when the view gains focus with nothing focused ("Focus on Chat View"), and leaves a focused chip alone', () => {
    const { dom, doc, root } = setupWithAnswer();
    const input = root.querySelector('[data-testid="chat-input"]');
    (doc.activeElement as HTMLElement | null)?.blur();
    assert.equal(doc.activeElement, doc.body);
    dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
    assert.equal(doc.activeElement, input);
    const chip = root.querySelector<HTMLElement>('[data-testid="citation"]');
    chip?.focus();
    dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
    assert.equal(doc.activeElement, chip, 'coming back to the view keeps the user where they were');
  });

  it('says "Copied" on the button and to screen readers when the host has copied the answer', async () => {
    const { app, root, sent, dom } = setupWithAnswer();
    const copy = root.querySelectorAll<HTMLElement>('[data-testid="copy-answer"]')[1];
    copy.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(sent, [{ type: 'copyAnswer', turnId: 't2' }]);
    app.handle({ type: 'copied', turnId: 't2' });
    assert.equal(copy.dataset.copied, 'true');
    assert.equal(copy.textContent, 'Copied');
    assert.ok(copy.querySelector('.codicon-check'));
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(
      root.querySelector('[data-testid="announcer"]')?.textContent,
      'Answer copied as Markdown, with its sources.',
    );
  });

  it('keeps one scroll container (header and transcript) above the composer, and hands the state it shows for the view to keep', () => {
    const { root, app } = setupWithAnswer();
    const scroller = root.querySelector('[data-testid="scroller"]');
    assert.deepEqual(
      Array.from(scroller?.children ?? []).map((c) => c.getAttribute('data-testid')),
      ['chat-header', 'transcript'],
    );
    assert.equal(root.querySelector('[data-testid="composer"]')?.parentElement, root);
    assert.deepEqual(
      app.snapshot?.turns.map((t) => t.id),
      ['t1', 't2'],
    );
  });

  it('keeps the placeholder to one short line and the keys in its description; the box grows with its text', () => {
    const { root, app } = setup();
    const input = root.querySelector<HTMLTextAreaElement>('[data-testid="chat-input"]') as HTMLTextAreaElement;
    assert.ok(input.placeholder.length <= 28, input.placeholder);
    assert.match(input.getAttribute('aria-description') ?? '', /Enter sends.*Shift\+Enter/);
    Object.defineProperty(input, 'scrollHeight', { configurable: true, get: () => 120 });
    app.inputText = 'a\nb\nc\nd\ne';
    assert.equal(input.style.height, '122px');
  });
});
