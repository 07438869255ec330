// The answer opened in the editor: citations and dropped sentences at the right offsets.

import assert from 'node:assert/strict';
import { answerTitle, layoutAnswerDocument } from '../../../src/host/answerDocument';
import { evidence, sentences, turnResult } from '../../support/turnBuilder';

describe('answer document layout', () => {
  it('places every [E#] and every dropped sentence at its offsets', () => {
    const result = turnResult({
      question: 'How much  leave?',
      sentences: sentences(
        { text: 'Employees receive 25 days [E1, E2].', citations: ['E1', 'E2'] },
        {
          text: 'Leave is paid out [E9].',
          citations: ['E9'],
          verdict: 'dropped',
          code: 'unknown-id',
          reason: 'unknown-id: E9 was not retrieved',
        },
      ),
      evidence: [evidence('E1'), evidence('E2', { source: 'b.md', startLine: 3, endLine: 3, heading: '' })],
    });
    const layout = layoutAnswerDocument(result);
    assert.ok(layout.text.startsWith('# How much leave?\n\n'));
    const at = (s: { start: number; end: number }) => layout.text.slice(s.start, s.end);
    const inAnswer = layout.citations.filter((x) => x.start < layout.text.indexOf('## Evidence'));
    assert.deepEqual(
      inAnswer.map((x) => [at(x), x.evidenceId, x.evidence?.source]),
      [
        ['E1', 'E1', 'policies/leave.md'],
        ['E2', 'E2', 'b.md'],
        ['E9', 'E9', undefined],
      ],
    );
    assert.equal(layout.dropped.length, 1);
    assert.equal(at(layout.dropped[0]), 'Leave is paid out [E9].');
    assert.equal(layout.dropped[0].reason, 'unknown-id: E9 was not retrieved');
    // The reason is text of the document right after the sentence (it wraps with the line; a
    // decoration's after-text ran off the right edge), and its own span for the note's style.
    assert.equal(at(layout.dropped[0].note), '⟵ dropped: unknown-id: E9 was not retrieved');
    assert.equal(layout.dropped[0].note.start, layout.dropped[0].end + 1);
    assert.ok(layout.text.includes('Leave is paid out [E9]. ⟵ dropped: unknown-id: E9 was not retrieved\n'));
    assert.equal(
      layout.citations.filter((c) => c.start >= layout.dropped[0].note.start && c.end <= layout.dropped[0].note.end)
        .length,
      0,
      'nothing in the note is a citation',
    );
    assert.ok(layout.text.includes('- [E2] b.md, line 3\n'));
    assert.ok(layout.text.includes('- [E1] policies/leave.md, lines 10–14 — Leave > Annual leave\n'));
    assert.match(layout.text, /Retrieved 1 · coverage 100% · dropped 0 · answered/);
  });

  it('writes the grounding citations of a web-grounded answer after each sentence, linked, and lists web sources by URL', () => {
    const web = evidence('E1', {
      source: 'https://a.example/p',
      startLine: 0,
      endLine: 0,
      heading: 'Parking',
      text: '',
      uri: 'https://a.example/p',
      title: 'Parking',
    });
    const result = turnResult({
      retrieval: 'google-search',
      sentences: sentences(
        { text: 'Parking is free.', citations: ['E1'], tier: 'grounding' },
        {
          text: 'Cars fly.',
          citations: [],
          verdict: 'dropped',
          code: 'no-grounding-support',
          reason: 'no-grounding-support: no grounding support covers this sentence',
        },
      ),
      evidence: [web],
    });
    const layout = layoutAnswerDocument(result);
    const at = (s: { start: number; end: number }) => layout.text.slice(s.start, s.end);
    assert.ok(layout.text.includes('Parking is free. [E1] Cars fly.'), layout.text);
    assert.equal(at(layout.citations[0]), 'E1');
    assert.equal(layout.citations[0].evidence?.uri, 'https://a.example/p');
    assert.ok(layout.text.includes('- [E1] https://a.example/p — Parking\n'));
    assert.equal(at(layout.dropped[0]), 'Cars fly.');
  });

  it('shows an abstention and keeps list structure', () => {
    const result = turnResult({
      answer: 'NOT_FOUND: nothing about sabbaticals',
      abstained: true,
      sentences: sentences({
        text: 'NOT_FOUND: nothing about sabbaticals',
        verdict: 'exempt',
        code: 'non-factual',
        reason: 'non-factual',
      }),
      metrics: { retrieved: 2, coverage: 0, dropped: 0, abstained: true },
    });
    const layout = layoutAnswerDocument(result);
    assert.ok(layout.text.includes('> Not found in the indexed documents: nothing about sabbaticals\n'));
    assert.equal(layout.text.match(/NOT_FOUND/g), null);

    const list = layoutAnswerDocument(
      turnResult({
        sentences: sentences({ text: 'Kinds:' }, { text: '- Annual [E1].', start: 10 }, { text: '- Sick [E1].' }),
      }),
    );
    assert.ok(list.text.includes('Kinds:\n\n- Annual [E1].\n- Sick [E1].\n\n'), list.text);
  });

  it('titles the answer document by its question, as a name a tab can show', () => {
    assert.equal(
      answerTitle('How many days of annual leave do employees get?'),
      'How many days of annual leave do employees get?',
      'the question mark stays',
    );
    assert.equal(
      answerTitle('What is "remote work" / <hybrid>?\nAnd:'),
      'What is "remote work" <hybrid>? And:',
      'only what would split the path or the line goes',
    );
    assert.equal(answerTitle('x'.repeat(100)).length, 80);
    assert.equal(answerTitle('???'), 'Evident answer');
  });

  it('says which part of a partly answered question was not found', () => {
    const result = turnResult({
      relevance: { verdict: 'partial', reason: 'part of the question is not answered: "who approves it"' },
    });
    const layout = layoutAnswerDocument(result);
    assert.match(layout.text, /\n> Not found: part of the question is not answered: "who approves it"\n/);
  });
});
