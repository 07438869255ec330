// Passages prepared once for the support check: a check against a passage prepared when it
// entered the evidence (and read since by other sentences and other scorers) gives exactly what a
// check that reads it for the first time gives; the cache is bounded in entries and characters,
// keyed by the text (a changed text is prepared again); and the memory a prepared passage keeps
// is reported.

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts } from '../../../../src/core/verifier';
import {
  approximateBytes,
  PassageCache,
  readyPassage,
  PASSAGE_CACHE_LIMIT,
} from '../../../../src/core/verifier/passageCache';
import type { SupportResult } from '../../../../src/core/types';

const PASSAGES = {
  negation: 'Employees may not carry over unused vacation. Annual plans are not refundable; monthly plans are.',
  values:
    'Reimbursement requests must be filed within thirty (30) days. The cap is $1.5 million, or 12% of the budget, until March 15, 2025.',
  names:
    'We may disable a repository after a report. GitHub reviews each appeal by hand, and the U.S. Copyright Office (USCO) is told. Contact MemorialBettws.',
  list: 'Subteams:\n- Design\n- Engineering\n- Research\n\nEach subteam meets weekly.',
  table: '| Plan | Price | Refund |\n|---|---|---|\n| Basic | $5 | no |\n| Pro | $20 | within 14 days |',
  unicode: 'İstanbul office: the Kelvin sign \u212a is not a K. Café Müller’s staff can’t approve it.',
  long: Array.from(
    { length: 200 },
    (_, i) => `Rule ${i} applies to team ${i % 9}, which ${i % 3 ? 'may' : 'may not'} approve travel.`,
  ).join(' '),
};

const SENTENCES = [
  'Employees can carry over unused vacation.',
  'Monthly plans are refundable.',
  'Annual plans are refundable.',
  'Requests must be filed within 30 days.',
  'Requests must be filed within 90 days.',
  'The cap is $1,500,000.',
  'The cap is $2 million.',
  'The cap applies until April 15, 2025.',
  'GitHub reviews each appeal by hand.',
  'Globex reviews each appeal by hand.',
  'The USCO is told.',
  'There are three subteams.',
  'There are four subteams.',
  'The Pro plan costs $20.',
  'The Basic plan costs $20.',
  'The Istanbul staff cannot approve it.',
  'Team 4 may approve travel under rule 13.',
  'Rule 12 applies to team 3, which may not approve travel.',
  'Each subteam meets monthly.',
];

const texts = Object.values(PASSAGES);
const termStats = termStatsFromTexts(texts);
const FEATURE_SETS = [{}, { stemming: false }, { lexicon: false, window: 0 }, { idf: false, distinctive: false }];

describe('passage cache', () => {
  it('checks a passage prepared as it entered the evidence exactly as one read for the first time', () => {
    const cache = new PassageCache();
    for (const t of texts) cache.ready(t);
    // Other scorers (other features, other term weights) read the shared passages first, for the same sentences and others.
    for (const features of FEATURE_SETS) {
      const other = createLexicalScorer({ termStats: termStatsFromTexts(texts.slice(2)), features, passages: cache });
      for (const t of texts) {
        for (const s of SENTENCES.slice().reverse()) {
          void other.score(s, t);
          void other.score(`${s} Also more.`, t);
        }
      }
    }
    for (const features of FEATURE_SETS) {
      const shared = createLexicalScorer({ termStats, features, passages: cache });
      for (const t of texts) {
        for (const s of SENTENCES) {
          const fresh = createLexicalScorer({ termStats, features }).score(s, t);
          assert.deepEqual(shared.score(s, t), fresh, `${JSON.stringify(features)} ${s} | ${t.slice(0, 40)}`);
        }
      }
    }
  });

  it('gives the verdicts the rules give on those passages (the comparison above is not vacuous)', () => {
    const cache = new PassageCache();
    const scorer = createLexicalScorer({ termStats, passages: cache });
    const code = (s: string, p: string): string | undefined => (scorer.score(s, p) as SupportResult).code;
    assert.equal(code('Annual plans are refundable.', PASSAGES.negation), 'negation-mismatch');
    assert.equal(code('The cap is $2 million.', PASSAGES.values), 'value-mismatch');
    assert.equal(code('The cap is $1,500,000.', PASSAGES.values), 'supported');
    assert.equal(code('Globex reviews each appeal by hand.', PASSAGES.names), 'low-support');
    assert.equal(code('GitHub reviews each appeal by hand.', PASSAGES.names), 'supported');
    assert.equal(code('There are four subteams.', PASSAGES.list), 'value-mismatch');
    assert.equal(code('The Pro plan costs $20.', PASSAGES.table), 'supported');
    assert.equal(code('Team 4 may approve travel under rule 13.', PASSAGES.long), 'supported');
    assert.equal(code('Rule 12 applies to team 3, which may not approve travel.', PASSAGES.long), 'supported');
  });

  it('prepares a passage once, keyed by its text: the same text is the same entry, a changed one is prepared again', () => {
    const cache = new PassageCache();
    const first = cache.ready(PASSAGES.values);
    assert.equal(cache.ready(`${PASSAGES.values}`), first);
    assert.equal(cache.ready(PASSAGES.values.slice(0, 20) + PASSAGES.values.slice(20)), first);
    const changed = PASSAGES.values.replace('$1.5 million', '$2 million');
    assert.notEqual(cache.ready(changed), first);
    assert.equal(cache.size, 2);
    // The changed text is read as written: its own verdict, not the old passage's.
    const scorer = createLexicalScorer({ termStats, passages: cache });
    assert.equal((scorer.score('The cap is $2 million.', changed) as SupportResult).code, 'supported');
    assert.equal((scorer.score('The cap is $2 million.', PASSAGES.values) as SupportResult).code, 'value-mismatch');
  });

  it('keeps at most its limit of passages and of characters, forgetting the one used least recently', () => {
    const cache = new PassageCache(3, 1000);
    const a = cache.ready('a'.repeat(100));
    cache.ready('b'.repeat(100));
    cache.ready('c'.repeat(100));
    assert.equal(cache.ready('a'.repeat(100)), a);
    cache.ready('d'.repeat(100));
    assert.equal(cache.size, 3);
    // "b" was used least recently: gone, and prepared again when asked; "a" was kept.
    assert.equal(cache.ready('a'.repeat(100)), a);
    for (let i = 0; i < 50; i++) cache.ready(`passage ${i}`);
    assert.equal(cache.size, 3);
    // Characters: a 900-character passage leaves room for nothing else of 200.
    cache.ready('x'.repeat(900));
    cache.ready('y'.repeat(200));
    assert.ok(cache.keptChars <= 1000, `${cache.keptChars}`);
    assert.equal(cache.size, 1);
    // A passage longer than the whole budget is prepared, not kept.
    const huge = 'z'.repeat(2000);
    assert.notEqual(cache.ready(huge), cache.ready(huge));
    assert.ok(cache.keptChars <= 1000);
    assert.equal(new PassageCache().limit, PASSAGE_CACHE_LIMIT);
  });

  it('reports the memory a prepared passage keeps: bounded by a small multiple of its text, growing with it', () => {
    const small = approximateBytes(readyPassage(PASSAGES.negation));
    const long = approximateBytes(readyPassage(PASSAGES.long));
    for (const [bytes, text] of [
      [small, PASSAGES.negation],
      [long, PASSAGES.long],
    ] as const) {
      assert.ok(bytes > text.length, `${bytes} bytes for ${text.length} characters`);
      assert.ok(bytes < 40 * text.length + 4096, `${bytes} bytes for ${text.length} characters`);
    }
    assert.ok(long > small);
  });
});
