// A value or weekday bound to the words of another place of the passage (valuePlaces.ts): sentences
// written for this test, in the shape of the failures (a swapped pair of values, a value of another
// role in the same sentence of the passage, a weekday of another list item).

import * as assert from 'node:assert/strict';
import { createLexicalScorer, termStatsFromTexts } from '../../../../src/core/verifier';
import { extractValues } from '../../../../src/core/verifier/values';
import { anchorOfAnotherPlace, anchorPlaces, anchorsOf, stretchesOf } from '../../../../src/core/verifier/valuePlaces';
import type { SupportResult } from '../../../../src/core/types';
import { FILLER } from '../../../support/lexicalChecks';

const P = {
  refunds:
    'Refunds\nRefunds will be issued within five (5) business days, if paid by card, and within ten (10) business days, if paid by bank transfer.',
  catering:
    'Catering\nThe venue charges about $40 per guest for food, which means that the total cost of a dinner event would be about $65 per guest.',
  updates:
    'Staying informed\nWe post a short status note every Wednesday in #updates, and we mail a digest to all staff every Friday, listing new openings.',
  leave:
    'Parental leave\nYou can take 8 paid weeks of leave in every 52 weeks. The 8 weeks start again a year after the first day.',
};
const stats = termStatsFromTexts([...Object.values(P), ...FILLER]);

function scoreOf(sentence: string, passage: string): SupportResult {
  return createLexicalScorer({ termStats: stats }).score(sentence, passage) as SupportResult;
}

describe('valuePlaces: a value bound to another place of the passage', () => {
  it('reads each value with the words of its own stretch, split where the punctuation between two values is', () => {
    const text = P.refunds;
    const anchors = anchorsOf(text, extractValues(text));
    assert.deepEqual(
      anchors.map((a) => [a.key, a.kind]),
      [
        ['5', 'busi'],
        ['5', 'busi'],
        ['10', 'busi'],
        ['10', 'busi'],
      ],
      'legal doubled numbers carry the unit after the parentheses',
    );
    const stretches = stretchesOf(text, anchors).map((s) => text.slice(s.from, s.to).trim());
    assert.equal(stretches.length, 2);
    assert.match(stretches[0], /card$/);
    assert.match(stretches[1], /bank transfer\.$/);
  });

  it("drops two values given to each other's cases, and keeps them in their own", () => {
    const swapped = scoreOf(
      'A card payment is refunded within ten (10) business days, while a bank transfer is refunded within five (5) business days.',
      P.refunds,
    );
    assert.equal(swapped.code, 'value-mismatch', swapped.explanation);
    assert.equal(swapped.score, 0);
    assert.match(swapped.explanation ?? '', /card/);
    assert.equal(scoreOf('Card payments are refunded within 5 business days.', P.refunds).code, 'supported');
    assert.equal(scoreOf('Bank transfers are refunded within ten business days.', P.refunds).code, 'supported');
  });

  it('drops a value of another role in the same sentence of the passage', () => {
    const r = scoreOf('The total cost of a dinner event is about $40 per guest.', P.catering);
    assert.equal(r.code, 'value-mismatch', r.explanation);
    assert.notEqual(
      scoreOf('The total cost of a dinner event is about $65 per guest.', P.catering).code,
      'value-mismatch',
    );
    assert.notEqual(scoreOf('Food costs about $40 per guest.', P.catering).code, 'value-mismatch');
  });

  it('drops a weekday of another clause', () => {
    const r = scoreOf('The digest is mailed to all staff every Wednesday.', P.updates);
    assert.equal(r.code, 'value-mismatch', r.explanation);
    assert.notEqual(scoreOf('The digest is mailed to all staff every Friday.', P.updates).code, 'value-mismatch');
  });

  it("reads a table row's first cells as said of every value of the row, and a prose clause's words as its own", () => {
    const rows =
      'Product | Preview date | Release date\nBeta Tool, Gamma Tool | 12 March 2025 | 30 June 2025\nDelta Tool | 12 March 2025 | 2 July 2025';
    assert.notEqual(scoreOf('Beta Tool was released on 30 June 2025.', rows).code, 'value-mismatch');
    const prose = 'Fares\nHarbor to Central Station is $4.10; Airport to Central Station is $9.40.';
    assert.equal(scoreOf('The fare from Harbor to Central Station is $9.40.', prose).code, 'value-mismatch');
    assert.equal(scoreOf('The fare from Harbor to Central Station is $4.10.', prose).code, 'supported');
  });

  it("does not read a value's own units as the words that bind it, nor miss its number written with another word", () => {
    // "8 paid weeks" gives 8 weeks; "hours"/"weeks" are units, not binding words.
    const r = scoreOf('You get 8 weeks of paid leave every 52 weeks.', P.leave);
    assert.notEqual(r.code, 'value-mismatch', r.explanation);
  });

  it('reads a clause that repeats an earlier one with its nouns left out as saying them too (gapping)', () => {
    // "…; 8 become 7" says "8-seat rooms become 7 seats": its only word is the first clause's verb.
    const gapped = 'Room sizes\nWith compact mode, 10 seat rooms become 9 seats; 8 become 7, and 6 become 5.';
    const kept = scoreOf('With compact mode, your 8-seat rooms become 7 seats.', gapped);
    assert.notEqual(kept.code, 'value-mismatch', kept.explanation);
    // A later clause with a word of its own is not a repetition: its value stays bound to that word.
    const own = 'Room sizes\nTeam rooms hold 10 seats; quiet booths hold 2 seats.';
    assert.equal(scoreOf('Team rooms hold 2 seats.', own).code, 'value-mismatch');
  });

  it('decides nothing without a second value of the kind, or when the sentence uses a word of its own place', () => {
    const places = anchorPlaces(P.refunds, anchorsOf(P.refunds, extractValues(P.refunds)));
    const claim = (text: string) => {
      const stems = ['card', 'bank', 'transfer', 'refund', 'paid', 'busi', 'dai'];
      return { text, stems, weights: stems.map(() => 1), values: extractValues(text) };
    };
    assert.equal(
      anchorOfAnotherPlace(claim('Refunds by bank transfer or card take 10 business days.'), places),
      undefined,
    );
    assert.match(anchorOfAnotherPlace(claim('Card refunds take 10 business days.'), places) ?? '', /card/);
    const one = anchorPlaces(
      'Refunds take 5 business days by card.',
      anchorsOf('Refunds take 5 business days by card.', extractValues('Refunds take 5 business days by card.')),
    );
    assert.equal(anchorOfAnotherPlace(claim('Card refunds take 5 business days.'), one), undefined);
  });
});
