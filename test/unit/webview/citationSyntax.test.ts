import { strict as assert } from 'node:assert';
import { findCitationGroups } from '../../../src/shared/answerLayout';
import { parseCitations } from '../../../src/core/verifier';

describe('one citation syntax for the verifier, the chat view and the editor links', () => {
  const text = 'A [E1; E2] b [E3](https://x) c [E02] d [E4, E5] e [E6][E7].';

  it('finds chips only where the verifier reads ids', () => {
    const groups = findCitationGroups(text);
    assert.deepEqual(groups.map((g) => g.evidenceIds), [['E4', 'E5'], ['E6'], ['E7']]);
    assert.deepEqual(
      groups.flatMap((g) => g.evidenceIds),
      parseCitations(text).map((c) => c.evidenceId),
    );
    assert.equal(text.slice(groups[0].start, groups[0].end), '[E4, E5]');
  });
});
