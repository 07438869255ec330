// Citation coverage, the one definition: its edge cases, and the turn metrics built on it.

import { strict as assert } from 'node:assert';
import { citationCoverage, isFactual, turnMetrics } from '../../../src/domain/coverage';
import { sentences } from '../../support/turnBuilder';

const kept = (text: string) => ({ text, verdict: 'kept' as const, citations: ['E1'] });
const dropped = (text: string) => ({
  text,
  verdict: 'dropped' as const,
  code: 'low-support' as const,
  reason: 'low-support',
});
const exempt = (text: string) => ({
  text,
  verdict: 'exempt' as const,
  code: 'non-factual' as const,
  reason: 'non-factual',
});

describe('citation coverage', () => {
  it('is kept / (kept + dropped): exempt sentences count on neither side', () => {
    assert.equal(
      citationCoverage(sentences(exempt('Hi.'), kept('A [E1].'), dropped('B.'), dropped('C.'), kept('D [E1].')), false),
      0.5,
    );
    assert.equal(citationCoverage(sentences(kept('A [E1].'), exempt('Here is what I found:')), false), 1);
  });

  it('is 1 when nothing factual was claimed and the answer did not abstain', () => {
    assert.equal(citationCoverage([], false), 1);
    assert.equal(citationCoverage(sentences(exempt('Hello.')), false), 1);
  });

  it('is 0 for an abstention with no factual sentence, and when every factual sentence was dropped', () => {
    assert.equal(citationCoverage([], true), 0);
    assert.equal(citationCoverage(sentences(exempt('NOT_FOUND: nothing about cars.')), true), 0);
    assert.equal(citationCoverage(sentences(dropped('A.'), dropped('B.')), true), 0);
  });

  it('counts kept and dropped sentences as factual, exempt ones not', () => {
    assert.deepEqual(sentences(kept('A.'), dropped('B.'), exempt('C.')).map(isFactual), [true, true, false]);
  });
});

describe('turn metrics', () => {
  it('reports retrieved, coverage, dropped and abstained from the verified text', () => {
    const verified = {
      answer: 'A [E1].',
      abstained: false,
      sentences: sentences(kept('A [E1].'), dropped('B.'), dropped('C.'), exempt('Hi.')),
    };
    assert.deepEqual(turnMetrics(4, verified), { retrieved: 4, coverage: 1 / 3, dropped: 2, abstained: false });
  });

  it('gives an answer with no text (the model said nothing) coverage 0 and abstained', () => {
    assert.deepEqual(
      turnMetrics(0, { answer: 'NOT_FOUND: the model returned no answer.', abstained: true, sentences: [] }),
      {
        retrieved: 0,
        coverage: 0,
        dropped: 0,
        abstained: true,
      },
    );
  });
});
