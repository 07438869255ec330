// The message protocol's runtime guards: well-formed messages pass, malformed or hostile ones
// are refused at the boundary (never half-accepted).

import assert from 'node:assert/strict';
import {
  isHostToWebview,
  isSafeExternalUrl,
  isTurnResult,
  isTurnView,
  isWebviewToHost,
  MAX_QUESTION_LENGTH,
  upgradeSavedTurn,
  type ChatState,
} from '../../../src/shared/protocol';
import { turnResult } from '../../support/turnBuilder';
import { notice } from '../../../src/domain/notices';

const state: ChatState = {
  index: { state: 'indexed', documents: 3, passages: 1234, retrieval: 'hybrid' },
  model: { backend: 'extractive', label: 'Extractive (offline)' },
  turns: [{ id: 't1', question: 'Q?', status: 'done', startedAt: 1, result: turnResult() }],
  showDropped: true,
  exampleQuestion: 'How much leave do I get?',
};

describe('webview ⇄ host protocol guards', () => {
  it('accepts every well-formed message from the webview', () => {
    const good: unknown[] = [
      { type: 'ready' },
      { type: 'ask', question: 'How much leave?' },
      { type: 'stop' },
      { type: 'retry', turnId: 't1' },
      { type: 'openEvidence', turnId: 't1', evidenceId: 'E12' },
      { type: 'copyAnswer', turnId: 't1' },
      { type: 'openAnswerInEditor', turnId: 'abc_DEF-9' },
      { type: 'setShowDropped', show: false },
      { type: 'runCommand', command: 'reindex' },
      { type: 'openLink', url: 'https://example.com' },
    ];
    for (const message of good) assert.equal(isWebviewToHost(message), true, JSON.stringify(message));
  });

  it('refuses malformed and hostile messages from the webview', () => {
    const bad: unknown[] = [
      null,
      'ready',
      [],
      {},
      { type: 'nope' },
      { type: 'toString' },
      { type: '__proto__' },
      { type: 'ask' },
      { type: 'ask', question: '   ' },
      { type: 'ask', question: 'x'.repeat(MAX_QUESTION_LENGTH + 1) },
      { type: 'ask', question: 42 },
      { type: 'openEvidence', turnId: 't1', evidenceId: 'E0' },
      { type: 'openEvidence', turnId: 't1', evidenceId: 'E1; rm -rf' },
      { type: 'openEvidence', turnId: '../../etc', evidenceId: 'E1' },
      { type: 'runCommand', command: 'workbench.action.terminal.new' },
      { type: 'setShowDropped', show: 'false' },
      { type: 'retry', turnId: '' },
    ];
    for (const message of bad) assert.equal(isWebviewToHost(message), false, JSON.stringify(message));
  });

  it('accepts host messages and refuses ones with a broken turn result inside', () => {
    assert.equal(isHostToWebview({ type: 'state', state }), true);
    assert.equal(isHostToWebview({ type: 'draft', turnId: 't1', text: 'partial' }), true);
    assert.equal(isHostToWebview({ type: 'progress', turnId: 't1', stage: 'searching', detail: 'leave' }), true);
    assert.equal(isHostToWebview({ type: 'status', index: state.index, model: state.model }), true);
    assert.equal(isHostToWebview({ type: 'focusInput' }), true);

    const broken = structuredClone(state);
    (broken.turns[0].result as unknown as Record<string, unknown>).sentences = [{ text: 'x' }];
    assert.equal(isHostToWebview({ type: 'state', state: broken }), false);
    assert.equal(isHostToWebview({ type: 'progress', turnId: 't1', stage: 'dreaming' }), false);
    assert.equal(
      isHostToWebview({ type: 'status', index: { ...state.index, state: 'weird' }, model: state.model }),
      false,
    );
    assert.equal(
      isHostToWebview({
        type: 'status',
        index: { ...state.index, store: 'shared index postgres://db/handbook' },
        model: state.model,
      }),
      true,
    );
    assert.equal(isHostToWebview({ type: 'status', index: { ...state.index, store: 42 }, model: state.model }), false);
  });

  it('checks notices as notices (a known code and a text), and keeps a turn an earlier version saved with plain-string notices', () => {
    const damaged = notice(
      'lexical-index-damaged',
      'The lexical index is damaged (x): rebuilding it from the stored passages.',
    );
    assert.equal(isTurnResult(turnResult({ notices: [damaged] })), true);
    assert.equal(isTurnResult({ ...turnResult(), notices: ['a plain string'] }), false);
    assert.equal(isTurnResult({ ...turnResult(), notices: [{ code: 'made-up', text: 'x' }] }), false);
    assert.equal(isTurnResult({ ...turnResult(), notices: [{ code: 'index-busy' }] }), false);
    const saved = {
      id: 't1',
      question: 'Q?',
      status: 'done',
      startedAt: 1,
      result: { ...turnResult(), notices: ['The index was rebuilt.'] },
    };
    assert.equal(isTurnView(saved), false, 'as an earlier version saved it');
    const upgraded = upgradeSavedTurn(saved);
    assert.equal(isTurnView(upgraded), true);
    assert.deepEqual((upgraded as { result: { notices: unknown } }).result.notices, [
      { code: 'earlier-version', text: 'The index was rebuilt.' },
    ]);
    const today = { ...saved, result: { ...turnResult(), notices: [damaged] } };
    assert.deepEqual(upgradeSavedTurn(today), today, 'a turn saved today is read as it is');
    assert.equal(upgradeSavedTurn('junk'), 'junk');
  });

  it('checks a turn result field by field', () => {
    assert.equal(isTurnResult(turnResult()), true);
    assert.equal(
      isTurnResult({ ...turnResult(), metrics: { retrieved: -1, coverage: 1, dropped: 0, abstained: false } }),
      false,
    );
    assert.equal(isTurnResult({ ...turnResult(), retrieval: 'vector' }), false);
    assert.equal(isTurnResult({ ...turnResult(), evidence: [{ ...turnResult().evidence[0], id: 'X1' }] }), false);
    const { answer: _answer, ...withoutAnswer } = turnResult();
    assert.equal(isTurnResult(withoutAnswer), false);
  });

  it('checks the grounding part of a turn result (route 2), and still reads results without it', () => {
    const grounding = {
      route: 'google-search',
      supports: [
        { segment: 'Parking is free.', sentence: 'Parking is free.', chunks: ['E1'], uris: ['https://a.example/p'] },
      ],
      queries: ['parking'],
      searchSuggestions: '<div>s</div>',
    };
    const web = { ...turnResult().evidence[0], uri: 'https://a.example/p', title: 'Parking' };
    const grounded = { ...turnResult(), retrieval: 'google-search', evidence: [web], grounding };
    assert.equal(isTurnResult(grounded), true);
    assert.equal(isTurnResult({ ...grounded, grounding: { ...grounding, route: 'bing' } }), false);
    assert.equal(
      isTurnResult({
        ...grounded,
        grounding: { ...grounding, supports: [{ ...grounding.supports[0], chunks: ['<b>'] }] },
      }),
      false,
    );
    assert.equal(isTurnResult({ ...grounded, grounding: { ...grounding, searchSuggestions: 42 } }), false);
    assert.equal(isTurnResult({ ...grounded, evidence: [{ ...web, uri: 7 }] }), false);
    assert.equal(isTurnResult({ ...turnResult(), retrieval: 'vertex-ai-search' }), true);
    assert.equal(
      isHostToWebview({
        type: 'status',
        index: state.index,
        model: { backend: 'google-search', label: 'Gemini + Google Search' },
      }),
      true,
    );
  });

  it('lets only plain web links out', () => {
    assert.equal(isSafeExternalUrl('https://example.com/a?b=c'), true);
    assert.equal(isSafeExternalUrl('http://example.com'), true);
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'command:workbench.action.openSettings',
      'vscode://x',
      'https://user:pw@example.com',
      'not a url',
      'data:text/html,<script>',
    ]) {
      assert.equal(isSafeExternalUrl(url), false, url);
    }
  });
});
