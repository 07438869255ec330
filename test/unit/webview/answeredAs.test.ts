// "Answered as: …" under a rewritten follow-up's answer: shown as text (never markup) with the
// standalone question that was answered, a note for screen readers; absent when the question was
// answered as asked or follows nothing.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderAnsweredAs } from '../../../src/webview/answeredAs';
import { turnResult } from '../../support/turnBuilder';

const doc = () => new JSDOM('<!doctype html><html><body></body></html>').window.document;

describe('"Answered as" under a follow-up', () => {
  it('shows the standalone question that was answered, as text, in a note', () => {
    const standalone = 'How many days of annual leave do employees get — and for <b>part-time</b> staff?';
    const note = renderAnsweredAs(
      doc(),
      turnResult({ question: 'and for <b>part-time</b> staff?', answeredAs: standalone }),
    );
    assert.ok(note);
    assert.equal(note.getAttribute('role'), 'note');
    assert.equal(note.getAttribute('data-testid'), 'answered-as');
    assert.equal(note.textContent, `Answered as: ${standalone}`);
    assert.equal(note.querySelector('b'), null, 'question text was rendered as markup');
  });

  it('is absent when the question was answered as asked, or follows nothing', () => {
    assert.equal(
      renderAnsweredAs(doc(), turnResult({ question: 'Which class of travel?', answeredAs: 'Which class of travel?' })),
      undefined,
    );
    assert.equal(renderAnsweredAs(doc(), turnResult({ question: 'Which class of travel?' })), undefined);
  });
});
