// What Copy puts on the clipboard: the verified answer as Markdown, its ids, and what each id is.

import assert from 'node:assert/strict';
import { answerMarkdown } from '../../../src/host/answerMarkdown';
import { evidence, sentences, turnResult } from '../../support/turnBuilder';

describe('the answer as copied', () => {
  it('keeps the ids, leaves the dropped sentence out, and lists the sources cited', () => {
    const result = turnResult({
      sentences: sentences(
        { text: 'Employees receive 25 days [E1].', citations: ['E1'] },
        {
          text: 'They also get a car [E2].',
          citations: ['E2'],
          verdict: 'dropped',
          code: 'low-support',
          reason: 'low-support: 0.10',
        },
        { text: '- Unused days carry over [E3].', citations: ['E3'], start: 70 },
        { text: '- At most five [E3].', citations: ['E3'] },
      ),
      evidence: [
        evidence('E1'),
        evidence('E2', { source: 'cars.md' }),
        evidence('E3', { source: 'hr/carry.md', startLine: 3, endLine: 3, heading: '' }),
      ],
    });
    assert.equal(
      answerMarkdown(result),
      'Employees receive 25 days [E1].\n\n- Unused days carry over [E3].\n- At most five [E3].\n\nSources:\n\n- [E1] policies/leave.md, lines 10–14 — Leave > Annual leave\n- [E3] hr/carry.md, line 3\n',
    );
  });

  it('copies a not-found answer as what is missing, and web sources by title and address', () => {
    assert.equal(
      answerMarkdown(turnResult({ abstained: true, answer: 'NOT_FOUND: nothing about  sabbaticals.', sentences: [] })),
      'Not found in the indexed documents: nothing about sabbaticals.\n',
    );
    const web = evidence('E1', {
      source: 'https://a.example/p',
      uri: 'https://a.example/p',
      title: 'Parking rules',
      startLine: 0,
      endLine: 0,
    });
    const grounded = turnResult({
      sentences: sentences({ text: 'Parking is free.', citations: ['E1'] }),
      evidence: [web],
    });
    assert.equal(
      answerMarkdown(grounded),
      'Parking is free. [E1]\n\nSources:\n\n- [E1] Parking rules — <https://a.example/p>\n',
    );
  });
});
