// A word spelled the other side of the Atlantic is the same word (spellings.ts).

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts } from '../../../../src/core/verifier';
import { otherSpellings, respelled, respellings } from '../../../../src/core/verifier/spellings';
import { stem } from '../../../../src/core/text/terms';
import { verifyClaim } from '../../../../src/core/verifier/verifier';
import type { SupportResult } from '../../../../src/core/types';

const stemsOf = (passage: string): ((s: string) => boolean) => {
  const stems = new Set(
    passage
      .toLowerCase()
      .match(/\p{L}+/gu)
      ?.map((w) => stem(w)) ?? [],
  );
  return (s) => stems.has(s);
};

describe('spellings', () => {
  it('reads the regular endings of each spelling both ways', () => {
    const cases: [string, string][] = [
      ['organised', 'organized'],
      ['organisation', 'organization'],
      ['analysed', 'analyzed'],
      ['colour', 'color'],
      ['favourite', 'favorite'],
      ['centre', 'center'],
      ['fibres', 'fibers'],
      ['licence', 'license'],
      ['defence', 'defense'],
      ['catalogue', 'catalog'],
      ['programme', 'program'],
      ['judgement', 'judgment'],
    ];
    for (const [british, american] of cases) {
      assert.ok(otherSpellings(british).includes(american), `${british} -> ${american}`);
      assert.ok(otherSpellings(american).includes(british), `${american} -> ${british}`);
      // The sentence's reading finds the word (its quick test of the endings lets it through).
      for (const word of [british, american, `${british}s`]) {
        if (otherSpellings(word).length) assert.equal(respellings(`The ${word} here.`).length, 1, word);
      }
    }
    // Too short to be the ending ("prise", "tour", "rise"): no other spelling.
    for (const word of ['prise', 'rise', 'tour', 'four']) assert.deepEqual(otherSpellings(word), [], word);
  });

  it('respells only a word the passage lacks, and only to a spelling the passage holds', () => {
    const passage = 'The committee organized the annual conference at the city center.';
    assert.equal(
      respelled(
        'The committee organised it at the city centre.',
        respellings('The committee organised it at the city centre.'),
        stemsOf(passage),
      ),
      'The committee organized it at the city center.',
    );
    // Written as the passage writes it: untouched; another spelling the passage lacks: untouched.
    assert.equal(
      respelled('The committee organized it.', respellings('The committee organized it.'), stemsOf(passage)),
      'The committee organized it.',
    );
    assert.equal(
      respelled('The colour is red.', respellings('The colour is red.'), stemsOf(passage)),
      'The colour is red.',
    );
    // The capital of a word opening the sentence stays.
    assert.equal(
      respelled('Organised by the committee.', respellings('Organised by the committee.'), stemsOf(passage)),
      'Organized by the committee.',
    );
  });

  it('keeps a sentence in one spelling that the passage backs in the other, where a rare word sank it', async () => {
    const passages = [
      'The microbe metabolizes hydrogen and is a rock eater found beneath the lake ice.',
      'A license is required to analyze the survey data collected by the agency.',
      'The travel policy covers lodging, meals and incidental expenses.',
      'Employees accrue vacation leave every pay period.',
      'The handbook describes how teams plan their quarterly work.',
    ];
    const scorer = createLexicalScorer({ termStats: termStatsFromTexts(passages) });
    const microbe = 'The microbe metabolises hydrogen.';
    const licence = 'A licence is required to analyse the survey data.';
    for (const [sentence, passage] of [
      [microbe, passages[0]],
      [licence, passages[1]],
    ]) {
      const r = scorer.score(sentence, passage) as SupportResult;
      assert.equal(r.score, 1, `${sentence}: ${r.explanation ?? ''}`);
      assert.equal((await verifyClaim(sentence, passage, { scorer, threshold: 0.55 })).supported, true);
    }
    // Not a spelling: a word the passage does not write in any form still sinks the sentence.
    const other = scorer.score('The microbe metabolises nitrogen.', passages[0]) as SupportResult;
    assert.equal(other.score, 0);
    assert.match(other.explanation ?? '', /nitrogen/);
  });
});
