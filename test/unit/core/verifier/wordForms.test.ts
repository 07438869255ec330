// Words the passage runs together: `holdsWords`, one pass over a prepared passage's tokens for
// several words, answers exactly what `holdsWord` answers for each, on tricky and random texts.

import * as assert from 'node:assert/strict';
import { preparePassage } from '../../../../src/core/verifier/passageScan';
import { holdsWord, holdsWords } from '../../../../src/core/verifier/wordForms';

const TRICKY = [
  "Set the timezone. The time-zone and time zone differ; 3timezone timezones o’timezone o'timezone timezone's",
  'Über timezoneé étimezone timezone² 𝐀timezone timezone𝐀 TIMEZONE TimeZone x_timezone timezone_x',
  'endtime endtimes end time. Endtime! (endtime) "endtime" endtime’s 1,500endtime endtime1',
  '\u212aelvin kelvin Ketchup ſunday sunday',
  '',
];

const WORDS = ['timezone', 'endtime', 'kelvin', 'sunday', 'elvin', 'zone', 'ketchup', 'timezoneé', 'éti', 'ab', 'x'];

let seed = 11;
const random = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const PIECES = ['time', 'zone', 'end', 'ab', 'AB', 'é', "'", '’s', '3', ',', '.', ' ', ' ', '-', '_', '𝐀', 'x', 'Zone'];
const randomTexts = Array.from({ length: 3000 }, () =>
  Array.from({ length: random(12) }, () => PIECES[random(PIECES.length)]).join(''),
);
const RANDOM_WORDS = ['timezone', 'zonetime', 'endtime', 'abab', 'timeend', 'zoneab', 'abx', 'timeé', 'zonezone'];

describe('wordForms holdsWords', () => {
  it('answers what holdsWord answers, on tricky texts', () => {
    for (const text of TRICKY) {
      const prepared = preparePassage(text);
      const held = holdsWords(prepared, WORDS);
      WORDS.forEach((w, k) => assert.equal(held[k], holdsWord(prepared.lower, w), `${JSON.stringify(text)} ${w}`));
    }
  });

  it('answers what holdsWord answers, on random texts', () => {
    let heldSome = 0;
    for (const text of randomTexts) {
      const prepared = preparePassage(text);
      const held = holdsWords(prepared, RANDOM_WORDS);
      RANDOM_WORDS.forEach((w, k) => {
        assert.equal(held[k], holdsWord(prepared.lower, w), `${JSON.stringify(text)} ${w}`);
        if (held[k]) heldSome++;
      });
    }
    // The texts reach both answers.
    assert.ok(heldSome > 100);
  });

  it('finds a word only inside a token that is not plain, and leaves no word marked for the next call', () => {
    const prepared = preparePassage("the o'timezone and é timezone");
    assert.deepEqual(holdsWords(prepared, ['timezone', 'endtime']), [true, false]);
    assert.deepEqual(holdsWords(preparePassage('endtimes only'), ['timezone', 'endtime']), [false, false]);
  });
});
