// The units of a passage that hold a sentence's words, with the lexicon's words merged in.

import * as assert from 'node:assert/strict';
import { preparePassage } from '../../../../src/core/verifier/passageScan';
import { planReading, readUnits } from '../../../../src/core/verifier/supportWindow';
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

  it('gives each unit arrays of its own (views of a shared slab) and words sets that no other unit shares', () => {
    const stems = stemsOf('Smoking is not allowed in the lobby or the garden.');
    const text = 'Smoking is prohibited in the lobby. The garden is open. Smoking is banned in the garden.';
    const options = { stemming: true, lexicon: true, negated: true };
    const first = readUnits(preparePassage(text), stems, options);
    const second = readUnits(preparePassage(text), stems, options);
    const snapshot = (units: ReturnType<typeof readUnits>): unknown =>
      units.map((u) => [[...u.has], [...u.negated], [...u.via], [...u.antonym], [...u.negativeWords]]);
    const before = snapshot(second);
    for (const u of first) {
      u.has.fill(7);
      u.negated.fill(7);
      u.via.fill(7);
      u.antonym.fill(7);
    }
    assert.deepEqual(snapshot(second), before);
    assert.equal(first.length, 3);
    // Two units with negative words, one without: the empty set of one is not the filled set of another.
    assert.deepEqual(
      second.map((u) => u.negativeWords.size > 0),
      [true, false, true],
    );
    assert.notEqual(second[0].negativeWords, second[2].negativeWords);
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

  it('reads the same units from a plan made once per sentence as from its stems, passage after passage', () => {
    const passages = [
      'Smoking is prohibited in the lobby. Smoking is fine outside.',
      'Nothing here. Law enforcement arrived. Then they were called.',
      'Employees may not carry over vacation; unused days are forfeited. Approval is not required.',
      'Refunds are allowed within 30 days. Late requests are denied, and nobody is unable to appeal.',
    ];
    const sentences = [
      'Smoking is not allowed in the lobby.',
      'The police were called.',
      'Unused vacation days are lost, and employees cannot carry them over without approval.',
      'Refunds are permitted, and appeals are possible.',
    ];
    for (const sentence of sentences) {
      const stems = stemsOf(sentence);
      for (const negated of [false, true]) {
        for (const lexicon of [true, false]) {
          const options = { stemming: true, lexicon, negated };
          const plan = planReading(stems, options);
          const shown = (units: ReturnType<typeof readUnits>): unknown =>
            units.map((u) => [
              u.index,
              u.start,
              u.end,
              [...u.has],
              [...u.negated],
              [...u.via],
              [...u.antonym],
              [...u.negativeWords],
              [...u.antonymWords],
              u.hasNegation,
            ]);
          for (const text of passages) {
            const prepared = preparePassage(text);
            assert.deepEqual(
              shown(readUnits(prepared, plan)),
              shown(readUnits(preparePassage(text), stems, options)),
              `${sentence} | ${text}`,
            );
            // A second read of the same passage (what the first read found kept) with the same plan.
            assert.deepEqual(
              shown(readUnits(prepared, plan)),
              shown(readUnits(preparePassage(text), stems, options)),
              `${sentence} | ${text}`,
            );
          }
        }
      }
    }
  });
});
