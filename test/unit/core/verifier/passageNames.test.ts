// The lazy name lookup answers exactly what reading the whole passage answers (names.ts
// `passageStems`): every stem, acronym and written acronym, asked in any order, on tricky and
// random texts, and the scorer's name verdicts with it.

import * as assert from 'node:assert/strict';
import { extractNames, missingNames, passageStems } from '../../../../src/core/verifier/names';
import { PassageNameReader } from '../../../../src/core/verifier/passageNames';
import { preparePassage } from '../../../../src/core/verifier/passageScan';
import { readyPassage } from '../../../../src/core/verifier/passageCache';
import { analyse, stem } from '../../../../src/core/text/terms';

const TRICKY = [
  'The MemorialBettws club, iPhone and eBay; U.S. and A.V. Club rules. Hernández met NASA’s CEO in 2019.',
  "GitHub's policy: we don't share data. The Paperwork Reduction Act (PRA) applies to 18F and W-2 forms.",
  'Café Müller’s menu: ½ price; İstanbul ΣΟΦΙΑ 😀 x² KELVIN \u212aelvin ABCdef aBC AbC',
  'Café Müller’s ΣΟΦΙΑ’s \u212aelvin x² Ⅻ Ⓐⓑ ÀBC DÉF (the same length lower-cased: the prepared tokens serve)',
  'Café Müller’s ΣΟΦΙΑ’s x² Ⅻ Ⓐⓑ ÀBC DÉF ÉtéMain naïveTeam GitHub’s U.S.A. ÆON',
  'days day Days DAYS played Playing generalizations sensibility ayed a I 1,500 1.5 9:30',
  '',
  '...',
];

let seed = 5;
const random = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const PIECES = [
  'a',
  'B',
  'Ab',
  'aB',
  'day',
  'Days',
  'iPhone',
  'NFL',
  'U.S.',
  'é',
  'É',
  "'s",
  '’',
  '-',
  '.',
  ' ',
  ' ',
  '\n',
  '1',
  '2,5',
  'Über',
  'x',
  'Q',
];
const randomTexts = Array.from({ length: 2000 }, () =>
  Array.from({ length: random(16) }, () => PIECES[random(PIECES.length)]).join(''),
);

/** Every stem worth asking of a text: its words', their parts', its names', and near misses. */
/** The reader with every word read at once. */
function prepared(reader: PassageNameReader): PassageNameReader {
  reader.prepare();
  return reader;
}

function queries(text: string): string[] {
  const asked = new Set<string>([
    '',
    'a',
    'us',
    'dai',
    'day',
    'phone',
    'iphon',
    'bettw',
    'memori',
    'nfl',
    'hernandez',
    'zz',
    '1500',
    '15',
  ]);
  for (const t of analyse(text, { stemming: true }).terms) {
    asked.add(t.stem);
    asked.add(t.stem.slice(0, -1));
    asked.add(`${t.stem}x`);
  }
  for (const part of text.split(/[^\p{L}\p{N}]+/u)) if (part) asked.add(stem(part.toLowerCase()));
  for (const n of extractNames(text)) asked.add(n.stem);
  return [...asked];
}

describe('passage names, read lazily', () => {
  it('keeps all of a Porter stem but its last letter as a prefix of words with digits too (what skipping relies on)', () => {
    const characters = 'aeiouybcdlmnrstgzx0123456789';
    for (let k = 0; k < 20000; k++) {
      const word =
        characters[random(18)] +
        Array.from({ length: random(11) }, () => characters[random(characters.length)]).join('');
      const s = stem(word);
      assert.equal(s.slice(0, -1), word.slice(0, s.length - 1), `${word} → ${s}`);
    }
  });

  it('holds the same stems, acronyms and written acronyms as reading the whole passage', () => {
    for (const text of [...TRICKY, ...randomTexts]) {
      const whole = passageStems(text);
      const asked = queries(text);
      // Its own reading of the words, or the tokens of the prepared passage.
      for (const [order, reader] of [
        [asked, new PassageNameReader(text)],
        [[...asked].reverse(), new PassageNameReader(text)],
        [asked, new PassageNameReader(text, preparePassage(text))],
        [[...asked].reverse(), new PassageNameReader(text, preparePassage(text))],
        // Every word read at once (a passage prepared for many sentences), on its own scan or the prepared tokens.
        [asked, prepared(new PassageNameReader(text))],
        [asked, prepared(new PassageNameReader(text, preparePassage(text)))],
        [asked, readyPassage(text).names],
      ] as const) {
        for (const s of order) assert.equal(reader.stems.has(s), whole.stems.has(s), `${JSON.stringify(text)} ${s}`);
        assert.deepEqual([...reader.acronyms], [...whole.acronyms], text);
        assert.deepEqual([...reader.written], [...whole.written], text);
      }
      // Acronyms first, then stems: the same answers from the whole reading.
      const reader = new PassageNameReader(text);
      assert.deepEqual([...reader.written], [...whole.written], text);
      for (const s of asked) assert.equal(reader.stems.has(s), whole.stems.has(s), `${JSON.stringify(text)} ${s}`);
    }
  });

  it('answers whether it writes an acronym as the whole set of written acronyms does, before and after building it', () => {
    for (const text of [...TRICKY, ...randomTexts]) {
      const whole = passageStems(text);
      // Every acronym it writes, their near misses (a letter changed, one more, one less), and a few others.
      const asked = new Set([
        'us',
        'nfl',
        'abc',
        'abcd',
        'ab',
        'pra',
        'nasa',
        'ceo',
        'def',
        'kelvin',
        'phone',
        'zoe',
        'aeon',
        '',
      ]);
      for (const w of whole.written) {
        asked.add(w);
        asked.add(`${w}x`);
        asked.add(w.slice(0, -1));
        asked.add(`${w.slice(0, -1)}q`);
      }
      for (const prepared of [undefined, preparePassage(text)]) {
        const reader = new PassageNameReader(text, prepared);
        for (const w of asked) assert.equal(reader.writes(w), whole.written.has(w), `${JSON.stringify(text)} ${w}`);
        assert.deepEqual([...reader.written], [...whole.written], text);
        for (const w of asked) assert.equal(reader.writes(w), whole.written.has(w), `${JSON.stringify(text)} ${w}`);
      }
    }
  });

  it('finds the same missing names as reading the whole passage', () => {
    const sentences = [
      'Refunds are handled by Globex.',
      'The US Navy and the NFL met at MemorialBettws.',
      'Fees go to the PRA and iPhone users.',
      'Hernandez joined GitHub in 18F.',
    ];
    for (const text of [...TRICKY, ...randomTexts.slice(0, 300)]) {
      for (const sentence of [...sentences, ...TRICKY]) {
        const names = extractNames(sentence);
        const whole = missingNames(names, passageStems(text));
        assert.deepEqual(missingNames(names, new PassageNameReader(text)), whole, `${sentence} | ${text}`);
        const tokens = preparePassage(text);
        assert.deepEqual(missingNames(names, new PassageNameReader(text, tokens)), whole, `${sentence} | ${text}`);
        assert.deepEqual(missingNames(names, readyPassage(text).names), whole, `${sentence} | ${text}`);
      }
    }
  });
});
