// Retrieval while vectors fill in, as the chat shows it: the answer's note says it in words, with
// the figure (not only a colour), the message guard accepts the new fields and refuses bad ones,
// and the index badge carries the share of passages with vectors.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { describePartialRetrieval, partialRetrieval, vectorPercent } from '../../../src/domain/partialRetrieval';
import { isTurnResult } from '../../../src/shared/protocol';
import { renderResult, type TurnActions } from '../../../src/webview/answerView';
import { describeIndex } from '../../../src/webview/chatApp';
import { doneTurn, turnResult } from '../../support/turnBuilder';

const noActions: TurnActions = {
  openEvidence: () => {},
  openLink: () => {},
  copyAnswer: () => {},
  openInEditor: () => {},
  retry: () => {},
  regenerate: () => {},
  feedback: () => {},
  ask: () => {},
  runCommand: () => {},
};

describe('partial retrieval while vectors fill in', () => {
  it('computes the figure floored, never 100% while one passage lacks a vector, and nothing once all have one', () => {
    assert.deepEqual(partialRetrieval({ passagesWithVectors: 850, passages: 2340 }), {
      passagesWithVectors: 850,
      passages: 2340,
      percent: 36,
    });
    assert.equal(vectorPercent({ passagesWithVectors: 2339, passages: 2340 }), 99);
    assert.equal(partialRetrieval({ passagesWithVectors: 2340, passages: 2340 }), undefined);
    assert.equal(partialRetrieval({ passagesWithVectors: 0, passages: 0 }), undefined);
    assert.equal(
      describePartialRetrieval({ passagesWithVectors: 850, passages: 2340, percent: 36 }),
      'Retrieval is partial: vectors for 36% of passages (850 of 2,340) so far; every passage is found by its words, and by meaning once its vector is computed.',
    );
  });

  it('says so under the answer as a note with the figure, and says nothing for a complete index', () => {
    const doc = new JSDOM('<!doctype html><html><body></body></html>').window.document;
    const partial = { passagesWithVectors: 850, passages: 2340, percent: 36 };
    const answer = renderResult(doc, doneTurn('t1'), turnResult({ partialRetrieval: partial }), noActions);
    const note = answer.querySelector('[data-testid="partial-retrieval"]');
    assert.ok(note);
    assert.equal(note.getAttribute('role'), 'note');
    assert.equal(note.textContent, describePartialRetrieval(partial));
    assert.equal(
      renderResult(doc, doneTurn('t2'), turnResult(), noActions).querySelector('[data-testid="partial-retrieval"]'),
      null,
    );
  });

  it('the turn guard accepts the additive field and refuses a malformed one', () => {
    assert.equal(
      isTurnResult(turnResult({ partialRetrieval: { passagesWithVectors: 1, passages: 3, percent: 33 } })),
      true,
    );
    assert.equal(isTurnResult(turnResult()), true);
    assert.equal(
      isTurnResult({ ...turnResult(), partialRetrieval: { passagesWithVectors: -1, passages: 3, percent: 33 } }),
      false,
    );
    assert.equal(isTurnResult({ ...turnResult(), partialRetrieval: '37%' }), false);
  });

  it('the index badge carries the share of passages with vectors', () => {
    assert.equal(
      describeIndex({
        state: 'indexed',
        documents: 3,
        passages: 2340,
        retrieval: 'hybrid',
        vectors: { passagesWithVectors: 850, passages: 2340 },
      }),
      '2,340 passages · hybrid (vectors 36%)',
    );
  });
});
