// The citation syntax, defined once: the valid forms, the look-alikes that are not evidence ids,
// and the same ids whether read as spans (verifier) or as groups (chat chips, editor links).

import * as assert from 'node:assert/strict';
import { findCitationGroups, isEvidenceIdText, parseCitations } from '../../../src/domain/citations';

const ids = (text: string): string[] => parseCitations(text).map((c) => c.evidenceId);

describe('parseCitations', () => {
  it('reads [E2], [E2, E3] and [E2][E3]', () => {
    assert.deepEqual(ids('a [E2]. b [E2, E3]. c [E4][E5]. d [E6,E7]'), ['E2', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7']);
  });

  it('gives the offsets of each id itself', () => {
    const text = 'Leave is 30 days [E2, E13].';
    for (const c of parseCitations(text)) assert.equal(text.slice(c.start, c.end), c.evidenceId);
    assert.deepEqual(
      parseCitations(text).map((c) => [c.start, c.end]),
      [
        [18, 20],
        [22, 25],
      ],
    );
  });

  it('ignores everything else that looks like an id', () => {
    for (const text of [
      '[E]',
      '[e2]',
      '[E2a]',
      '[E02]',
      '[E0]',
      '[link](x)',
      '[E2](https://example.com)',
      'E2',
      '(E2)',
      '[E 2]',
      '[E2; E3]',
    ]) {
      assert.deepEqual(ids(text), [], text);
    }
  });

  it('recognises a whole evidence id by the same syntax', () => {
    for (const id of ['E1', 'E9', 'E10', 'E2345']) assert.equal(isEvidenceIdText(id), true, id);
    for (const id of ['E', 'E0', 'E02', 'e2', 'E2a', ' E2', 'E2 ', '[E2]', '']) {
      assert.equal(isEvidenceIdText(id), false, id);
    }
  });
});

describe('one citation syntax for the verifier, the chat view and the editor links', () => {
  const text = 'A [E1; E2] b [E3](https://x) c [E02] d [E4, E5] e [E6][E7].';

  it('finds chips only where the verifier reads ids', () => {
    const groups = findCitationGroups(text);
    assert.deepEqual(
      groups.map((g) => g.evidenceIds),
      [['E4', 'E5'], ['E6'], ['E7']],
    );
    assert.deepEqual(
      groups.flatMap((g) => g.evidenceIds),
      parseCitations(text).map((c) => c.evidenceId),
    );
    assert.equal(text.slice(groups[0].start, groups[0].end), '[E4, E5]');
  });
});
