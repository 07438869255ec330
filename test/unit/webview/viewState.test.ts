// What the webview keeps across reloads comes back untrusted: a good snapshot is shown at once,
// a malformed one is dropped; old saved state still reads.

import assert from 'node:assert/strict';
import type { ChatState, TurnView } from '../../../src/shared/protocol';
import { readSaved, restoredState, snapshotOf, SNAPSHOT_TURNS } from '../../../src/webview/viewState';
import { doneTurn, turnResult } from '../../support/turnBuilder';

const state = (turns: TurnView[]): ChatState => ({
  index: { state: 'indexed', documents: 1, passages: 2, retrieval: 'lexical' },
  model: { backend: 'extractive', label: 'Extractive (offline)' },
  turns,
  showDropped: true,
  busyTurnId: 'p1',
  exampleQuestion: '',
});

describe("the chat view's saved state", () => {
  it('keeps the latest finished turns, never a running one, and gives them back as a state message', () => {
    const turns = Array.from({ length: SNAPSHOT_TURNS + 5 }, (_, i) => doneTurn(`t${i}`, { result: turnResult() }));
    const snapshot = snapshotOf(state([...turns, { id: 'p1', question: 'Q?', status: 'pending', startedAt: 1 }]));
    assert.equal(snapshot.turns.length, SNAPSHOT_TURNS);
    assert.equal(snapshot.turns.at(-1)?.id, `t${SNAPSHOT_TURNS + 4}`);
    assert.equal(snapshot.busyTurnId, undefined);
    const saved = readSaved(
      JSON.parse(JSON.stringify({ input: 'half a question', memory: { dismissed: ['lexical'] }, snapshot })),
    );
    assert.deepEqual(
      restoredState(saved)?.state.turns.map((t) => t.id),
      snapshot.turns.map((t) => t.id),
    );
    assert.equal(saved.input, 'half a question');
  });

  it('drops a malformed snapshot and anything that is not what it should be', () => {
    const bad = { ...state([doneTurn('t1', { result: turnResult() })]), turns: [{ id: '<script>', question: 1 }] };
    assert.equal(restoredState(readSaved({ snapshot: bad })), undefined);
    assert.equal(restoredState(readSaved({ snapshot: 'nonsense' })), undefined);
    assert.equal(restoredState(readSaved(undefined)), undefined);
    assert.deepEqual(readSaved({ input: 3, memory: { dismissed: ['a', 4, null] } }), {
      input: '',
      memory: { dismissed: ['a'] },
      snapshot: undefined,
    });
  });

  it('reads the older "lexical hint dismissed" flag as a dismissed notice', () => {
    assert.deepEqual(readSaved({ memory: { lexicalHintDismissed: true } }).memory, { dismissed: ['lexical'] });
  });
});
