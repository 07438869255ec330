import { strict as assert } from 'node:assert';
import { nextMove, type CapturedPassage, type ReturnedPassage } from '../../support/answerReplay';

describe('answer replay: captured ids mapped to this turn', () => {
  const passage = (id: string, text: string): CapturedPassage => ({
    id,
    source: 'terms.md',
    startLine: 65,
    endLine: 71,
    heading: 'Terms',
    text,
  });

  it('maps to the passage with the captured text when two passages share a line range', () => {
    // A long paragraph is cut into two passages with the same source and lines.
    const captured = [passage('E4', 'The agreement runs for one (1) year.')];
    const returned: ReturnedPassage[] = [
      { id: 'E1', source: 'terms.md', lines: '65-71', text: 'The agreement runs for one (1) year.' },
      { id: 'E2', source: 'terms.md', lines: '65-71', text: 'Rights survive termination.' },
    ];
    const move = nextMove({ question: 'q', answer: 'It runs one year [E4].', captured }, returned, 1, {
      searches: [],
      missing: [],
    });
    assert.deepEqual(move, { answer: 'It runs one year [E1].' });
  });

  it('maps by source and lines alone when the tool gives no text', () => {
    const captured = [passage('E3', 'The agreement runs for one (1) year.')];
    const returned: ReturnedPassage[] = [{ id: 'E5', source: 'terms.md', lines: '65-71' }];
    const move = nextMove({ question: 'q', answer: 'It runs one year [E3].', captured }, returned, 1, {
      searches: [],
      missing: [],
    });
    assert.deepEqual(move, { answer: 'It runs one year [E5].' });
  });
});
