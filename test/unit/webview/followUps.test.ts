// Follow-up questions from the headings of the passages found: uncited first, a heading that only
// repeats the question left out, a question heading asked as it is, none after a not-found answer.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ChatApp } from '../../../src/webview/chatApp';
import { followUpSuggestions } from '../../../src/webview/followUps';
import { evidence, turnResult } from '../../support/turnBuilder';

describe('follow-up suggestions', () => {
  it('asks a heading that is a question as it is, and offers none under a not-found answer', () => {
    const result = turnResult({
      question: 'How much leave?',
      evidence: [
        evidence('E1'),
        evidence('E2', { heading: 'Leave > How do I request leave?' }),
        evidence('E3', { heading: 'Leave > Public holidays' }),
      ],
    });
    assert.deepEqual(followUpSuggestions(result), [
      'How do I request leave?',
      'What does “Public holidays” say?',
      'What does “Annual leave” say?',
    ]);
    const dom = new JSDOM('<!doctype html><html><body><div id="app"></div></body></html>');
    const root = dom.window.document.getElementById('app') as HTMLElement;
    const app = new ChatApp(dom.window.document, root, () => undefined);
    app.handle({
      type: 'state',
      state: {
        index: { state: 'indexed', documents: 1, passages: 3, retrieval: 'lexical' },
        model: { backend: 'extractive', label: 'Extractive (offline)' },
        showDropped: true,
        exampleQuestion: '',
        turns: [
          {
            id: 't1',
            question: 'Dogs?',
            status: 'done',
            startedAt: 1,
            result: turnResult({
              answer: 'NOT_FOUND: no dogs.',
              abstained: true,
              sentences: [],
              evidence: result.evidence,
              metrics: { retrieved: 3, coverage: 0, dropped: 0, abstained: true },
            }),
          },
        ],
      },
    });
    assert.equal(root.querySelector('[data-testid="follow-ups"]'), null);
    assert.equal(root.querySelectorAll('[data-testid="closest-passage"]').length, 3);
  });
});
