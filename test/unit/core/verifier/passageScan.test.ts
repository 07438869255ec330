// The fast passage reading gives exactly what the plain analysis gives: hand-written scans and
// spelt-out patterns equal the patterns that define them, a passage read for one sentence equals
// analysing every word, the Porter prefix rule the skipping relies on holds, and the caches are
// bounded and change nothing.

import * as assert from 'node:assert/strict';
import { stemmer } from 'stemmer';
import { createLexicalScorer, termStatsFromTexts } from '../../../../src/core/verifier';
import {
  LruCache,
  NEGATION_SCOPE,
  preparePassage,
  readPassage,
  termsToRead,
} from '../../../../src/core/verifier/passageScan';
import {
  analyse,
  analyseUnits,
  isRegexSpace,
  TOKEN,
  TokenScanner,
  UNIT_BREAK,
  unitBreaks,
} from '../../../../src/core/text/terms';
import { CANDIDATE } from '../../../../src/core/verifier/values';

const TRICKY = [
  "The company's CEO doesn't approve 1,500 requests (3.5%) — see U.S. rules.\nNew line. Next one!",
  'Café Müller’s menu: ½ price on 2.5.1 items; İstanbul ΣΟΦΙΑ 😀 𝐀𝐁 x²',
  'end.\n\nThe next. \nlower. "Quoted" ended.) (Paren) start!  [Bracket] 9 lives?\u00a0Yes\u2028Line',
  "rock'n2 it's n't can't won’t shan't o'clock 12ab a1.5 1.2.3. 9:30 No. 5 not only",
  '',
  '   ',
  '...!!!??',
];

let seed = 11;
const random = (n: number): number => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const ALPHABET = [
  'a',
  'Z',
  '0',
  '9',
  '.',
  ',',
  '!',
  '?',
  "'",
  '’',
  '"',
  ')',
  '(',
  '[',
  ' ',
  '\n',
  '\t',
  '\u00a0',
  'é',
  'É',
  '½',
  '😀',
  '\ud800',
  '-',
  'n',
  't',
];
const randomTexts = Array.from({ length: 3000 }, () =>
  Array.from({ length: random(24) }, () => ALPHABET[random(ALPHABET.length)]).join(''),
);

function scanned(text: string): string {
  const tokens = new TokenScanner(text);
  const out: string[] = [];
  while (tokens.next()) out.push(`${tokens.start}-${tokens.end}`);
  return out.join(',');
}

/** For each unit holding a term, as the plain analysis sees it: [start, end, has, negated, hasNegation]. */
function reference(passage: string, terms: string[], stemming: boolean): unknown[] {
  return analyseUnits(passage, { stemming })
    .map((a) => {
      const negated = new Set<string>();
      for (const n of a.negations) {
        // The first content word in scope; an adverb passes the negation on ("not purposefully passing").
        let from = n;
        for (;;) {
          const head = a.terms.find((t) => t.position > from);
          if (!head || head.position > from + NEGATION_SCOPE) break;
          negated.add(head.stem);
          if (!head.word.endsWith('ly')) break;
          from = head.position;
        }
      }
      const stems = new Set(a.terms.map((t) => t.stem));
      return [
        a.start,
        a.end,
        terms.map((t) => (stems.has(t) ? 1 : 0)),
        terms.map((t) => (negated.has(t) ? 1 : 0)),
        a.negations.length > 0,
      ];
    })
    .filter((u) => (u[2] as number[]).some(Boolean));
}

describe('passage scan', () => {
  it('finds the same tokens and unit breaks as the patterns that define them', () => {
    for (const text of [...TRICKY, ...randomTexts]) {
      for (const t of [text, text.toLowerCase()]) {
        assert.equal(
          scanned(t),
          [...t.matchAll(new RegExp(TOKEN.source, TOKEN.flags))]
            .map((m) => `${m.index}-${m.index + m[0].length}`)
            .join(','),
          t,
        );
        assert.deepEqual(
          unitBreaks(t),
          [...t.matchAll(new RegExp(UNIT_BREAK.source, UNIT_BREAK.flags))].map((m) => m.index),
          t,
        );
      }
    }
    for (let c = 0; c < 0x10000; c++) {
      assert.equal(isRegexSpace(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
    }
  });

  it('calls a token plain exactly when it is ASCII letters and digits, whatever character came before it', () => {
    const plainOf = (t: string): string => {
      const tokens = new TokenScanner(t);
      const out: string[] = [];
      while (tokens.next()) out.push(`${t.slice(tokens.start, tokens.end)}:${tokens.plain}`);
      return out.join(' ');
    };
    for (const text of [...TRICKY, ...randomTexts]) {
      for (const t of [text, text.toLowerCase()]) {
        const expected = [...t.matchAll(new RegExp(TOKEN.source, TOKEN.flags))]
          .map((m) => `${m[0]}:${/^[A-Za-z0-9]+$/.test(m[0])}`)
          .join(' ');
        assert.equal(plainOf(t), expected, t);
      }
    }
    // A word after a no-break space, a dash or a curly quote is plain; one with an accent or apostrophe is not.
    assert.equal(
      plainOf('a\u00a0Myrna — New “Phone” café it’s'),
      'a:true Myrna:true New:true Phone:true café:false it’s:false',
    );
  });

  it('finds the same value candidates as the case-insensitive pattern it spells out', () => {
    const words =
      'two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen|' +
      'fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|' +
      'thirtieth|fortieth|fiftieth|sixtieth|seventieth|eightieth|ninetieth|hundredth|thousand|million|billion|one';
    const reference = new RegExp(
      `\\d+(?:[.,:]\\d+)*(?:st|nd|rd|th|s|bn|k|m|b)?\\b(?![.,:]\\d)|\\b(?:${words})\\b`,
      'giu',
    );
    const found = (re: RegExp, t: string): string => [...t.matchAll(re)].map((m) => `${m.index}:${m[0]}`).join('|');
    const samples = [
      ...TRICKY,
      'Twelve 3RD 1990S 5th ſix ſeven SEVENTY-two 12_000 x2 2x 1.5.6: teN_ K9 9K',
      '£1.2m $2M €3BN 3.5km 100m 4K 2b 18F Fiftieth twenty-first 1.2.3 in 1991. 2,5k',
      ...randomTexts,
    ];
    for (let c = 0; c < 0x10000; c++) samples.push(`${String.fromCharCode(c)}six 4${String.fromCharCode(c)}`);
    for (const t of samples) assert.equal(found(CANDIDATE, t), found(reference, t), t);
  });

  it('keeps all of a Porter stem but its last letter as a prefix of the word (what skipping relies on)', () => {
    const letters = 'aeiouyybcdlmnrstgzxiessedingationalizebli';
    for (let k = 0; k < 20000; k++) {
      const word = Array.from({ length: 1 + random(11) }, () => letters[random(letters.length)]).join('');
      const s = stemmer(word);
      assert.equal(s.slice(0, -1), word.slice(0, s.length - 1), `${word} → ${s}`);
    }
    for (const [word, s] of [
      ['day', 'dai'],
      ['ayed', 'ai'],
      ['sensibility', 'sensibl'],
      ['generalizations', 'gener'],
    ]) {
      assert.equal(stemmer(word), s);
    }
  });

  it('reads a passage for a sentence exactly as analysing every word of it', () => {
    const vocabulary = [
      'not',
      'no',
      'never',
      "don't",
      'isn’t',
      "nobody's",
      'not only',
      'No. 5',
      'with',
      'the',
      'The',
      'a',
      "it's",
      'employees',
      'approved',
      'approval',
      'day',
      'days',
      'play',
      'played',
      'Business',
      'class',
      'within',
      'now',
      'can',
      '1,500',
      '2019',
      '20',
      'twelve',
      'appreciated',
      'applicable',
      'dayton',
      'playfully',
      'notwithstanding',
      'nowhere',
      'cannot',
      'withdrawn',
      'classic',
      'class’s',
      '1500',
      '15',
      'café',
      'İstanbul',
      '.',
      '. ',
      '." ',
      '!) ',
      '\n',
      ',',
      '?',
    ];
    const passages = [
      ...Array.from({ length: 200 }, () =>
        Array.from({ length: 4 + random(40) }, () => vocabulary[random(vocabulary.length)]).join(random(3) ? ' ' : ''),
      ),
      ...TRICKY,
      'Employees may not carry over vacation. Annual plans are not refundable; monthly plans are.\nBusiness class is not reimbursed without approval.',
      "The plan covers not only dental care but also vision. It doesn't cover glasses. Nobody's eligible after 90 days.",
      'The director approved the requests in 2019. Approval takes twelve days, with 1,500 forms and no exceptions.',
    ];
    for (const passage of passages) {
      for (const sentence of [
        'Employees carry vacation over.',
        'Dental glasses are covered and eligible.',
        'The director approves 1500 requests with approval.',
        // Terms sharing their first letters with other words of the passage ("app", "day", "cla", "15").
        'Apps play a day of classes: 15 approvals, not appreciated, nowhere withdrawn.',
        passage,
      ]) {
        for (const stemming of [true, false]) {
          const terms = [...new Set(analyse(sentence, { stemming }).terms.map((t) => t.stem))];
          const prepared = preparePassage(passage);
          const expected = reference(passage, terms, stemming);
          const read = (p: typeof prepared, wanted: Parameters<typeof readPassage>[1]) =>
            readPassage(p, wanted, stemming).map((u) => [u.start, u.end, [...u.has], [...u.negated], u.hasNegation]);
          // Twice: reading leaves the prepared passage as it was.
          for (let round = 0; round < 2; round++) {
            assert.deepEqual(read(prepared, terms), expected, `${sentence} | ${passage}`);
          }
          // The terms made ready once (as a sentence keeps them) read the same, on a passage read before or not.
          const plan = termsToRead(terms, stemming);
          for (const p of [prepared, preparePassage(passage)]) {
            assert.deepEqual(read(p, plan), expected, `${sentence} | ${passage}`);
          }
        }
      }
    }
  });

  it('keeps a bounded cache that forgets the entry used least recently', () => {
    const cache = new LruCache<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    assert.equal(cache.get('a'), 0);
    cache.set('d', 3);
    assert.equal(cache.size, 3);
    assert.equal(cache.get('b'), undefined);
    assert.deepEqual(
      ['a', 'c', 'd'].map((k) => cache.get(k)),
      [0, 2, 3],
    );
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, i);
    assert.equal(cache.size, 3);
  });

  it('scores the same with its caches as a fresh scorer does, over more passages than it keeps', () => {
    const passages = Array.from(
      { length: 300 },
      (_, i) =>
        `Plan ${i} costs $${i * 10} per month. It is not refundable after ${i % 40} days.\nEmployees of team ${i % 7} approve it.`,
    );
    const stats = termStatsFromTexts(passages);
    const cached = createLexicalScorer({ termStats: stats });
    const sentences = [
      'Plan 12 costs $120 per month.',
      'Plan 12 is refundable.',
      'Employees of team 5 approve the plan within 12 days.',
    ];
    for (let round = 0; round < 2; round++) {
      for (const passage of passages) {
        for (const sentence of sentences) {
          assert.deepEqual(
            cached.score(sentence, passage),
            createLexicalScorer({ termStats: stats }).score(sentence, passage),
          );
        }
      }
    }
  });
});
