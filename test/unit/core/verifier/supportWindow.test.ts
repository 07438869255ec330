// The units of a passage that hold a sentence's words, with the lexicon's words merged in.

import * as assert from 'node:assert/strict';
import { preparePassage } from '../../../../src/core/verifier/passageScan';
import { readUnits } from '../../../../src/core/verifier/supportWindow';
import { analyse, stem } from '../../../../src/core/text/terms';

const stemsOf = (sentence: string): string[] => [
  ...new Set(analyse(sentence, { stemming: true }).terms.map((t) => t.stem)),
];

describe('readUnits', () => {
  it("marks a negative word the sentence says itself (a lexicon stem that is one of the sentence's own)", () => {
    const stems = stemsOf('Smoking is prohibited in the lobby.');
    const passage = preparePassage('Smoking is prohibited in the lobby. Smoking is fine outside.');
    const units = readUnits(passage, stems, { stemming: true, lexicon: true, negated: false });
    assert.equal(units.length, 2);
    assert.deepEqual([...units[0].negativeWords], [stem('prohibited')]);
    assert.deepEqual([...units[1].negativeWords], []);
  });

  it('keeps a unit that holds a term only through an alternative, and only then', () => {
    const stems = stemsOf('The police were called.');
    const passage = preparePassage('Nothing here. Law enforcement arrived. Then they were called.');
    const units = readUnits(passage, stems, { stemming: true, lexicon: true, negated: false });
    const police = stems.indexOf(stem('police'));
    assert.deepEqual(
      units.map((u) => [u.index, u.has[police], u.via[police]]),
      [
        [1, 1, 1],
        [2, 0, 0],
      ],
    );
  });
});
