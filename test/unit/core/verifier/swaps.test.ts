// A word swapped for another in the passage's own place is not backed; a paraphrase that writes a
// word in another form, adds a modifier or drops one is.

import * as assert from 'node:assert/strict';
import { createLexicalScorer } from '../../../../src/core/verifier';
import { explains } from '../../../../src/core/verifier/swaps';
import { analyse, TOKEN } from '../../../../src/core/text/terms';
import type { SupportResult } from '../../../../src/core/types';

// The product reads a replacement where one side negates its place; with `swapNouns` also in a noun's place.
const check = (sentence: string, passage: string): SupportResult =>
  createLexicalScorer({ features: { swapNouns: true } }).score(sentence, passage) as SupportResult;
const product = (sentence: string, passage: string): SupportResult =>
  createLexicalScorer().score(sentence, passage) as SupportResult;
const terms = (text: string) => analyse(text, { stemming: true }).terms;

describe('swapped words', () => {
  const swaps: [string, string, RegExp][] = [
    [
      'Monthly plans are refundable within 30 days of purchase.',
      'Annual plans are refundable within 30 days of purchase.',
      /says 'Monthly' where the passage says 'Annual'/,
    ],
    [
      'Business class is allowed.',
      'Economy class is required for all flights. Business class is not reimbursed.',
      /says 'allowed' where the passage says 'reimbursed'/,
    ],
    [
      'Contractors must complete the training within 30 days.',
      'Employees must complete the training within 30 days.',
      /says 'Contractors' where the passage says 'Employees'/,
    ],
    [
      'Law enforcement needs a court order to get the contents of a private repository.',
      'We require a search warrant before disclosing the contents of a private repository to law enforcement.',
      /says 'court order to get' where the passage says 'search warrant before disclosing'/,
    ],
  ];
  for (const [sentence, passage, reason] of swaps) {
    it(`does not back "${sentence}" against "${passage}"`, () => {
      const r = check(sentence, passage);
      assert.equal(r.code, 'low-support');
      assert.equal(r.score, 0);
      assert.match(r.explanation ?? '', reason);
      const without = createLexicalScorer({ features: { swaps: false, swapNouns: false } }).score(
        sentence,
        passage,
      ) as SupportResult;
      assert.ok(without.score >= 0.5, `without the rule: ${without.score}`);
    });
  }

  const paraphrases: [string, string][] = [
    // The lexicon's alternatives.
    ['Requests can be sent by email.', 'Requests may be transmitted via email.'],
    // A shortening, an acronym, another form of the same word.
    [
      'Unused comp time is forfeited when you leave.',
      'Unused compensatory time is forfeited when you leave the agency.',
    ],
    ['The PRA review takes months.', 'The Paperwork Reduction Act review takes months.'],
    ['Reports are filed quarterly.', 'Reports are filed each quarter.'],
    // A modifier added or dropped replaces nothing of the passage.
    ['Unused travel time is forfeited.', 'Unused time is forfeited.'],
    ['Employees must complete the training online.', 'Employees must complete the mandatory training.'],
    ['Employees must complete the training.', 'Employees must complete the mandatory training.'],
    // A verb or an adjective in the passage's place is wording, unless one side negates it.
    [
      'Traveling in sanctioned regions may affect your account.',
      'Traveling in sanctioned regions may impact your account.',
    ],
    ['Business class is not covered.', 'Business class is not reimbursed.'],
  ];
  for (const [sentence, passage] of paraphrases) {
    it(`backs "${sentence}" against "${passage}"`, () => {
      const r = check(sentence, passage);
      assert.ok(r.score >= 0.55, `${r.score} ${r.explanation ?? ''}`);
      assert.doesNotMatch(r.explanation ?? '', /where the passage says/);
    });
  }

  it('in the product, sinks a word put in the place of one the passage negates, and leaves a synonym in a noun place', () => {
    const r = product(
      'Business class is allowed.',
      'Economy class is required for all flights. Business class is not reimbursed.',
    );
    assert.equal(r.score, 0);
    assert.match(r.explanation ?? '', /says 'allowed' where the passage says 'reimbursed'/);
    assert.ok(product('Business class is not covered.', 'Business class is not reimbursed.').score >= 0.55);
    // A word with a negation of its own is the polarity check's, not a swap.
    assert.doesNotMatch(
      product('Pets are excluded.', 'Pets are not included.').explanation ?? '',
      /where the passage says/,
    );
    // …and so does a negative prefix or the antonym of the negated word.
    assert.ok(product('Travel time is unreimbursed.', 'Travel time is not reimbursed.').score >= 0.55);
    assert.ok(product('The repository is private.', 'The repository is not public.').score >= 0.55);
    const original = product(
      'The same person made the original decision.',
      'The same person made the initial decision.',
    );
    assert.ok(original.score >= 0.55, original.explanation);
  });

  it('reads the sentence whole whatever another reader of the shared token pattern left behind', () => {
    TOKEN.lastIndex = 12;
    const r = check(
      'Monthly plans are refundable within 30 days of purchase.',
      'Annual plans are refundable within 30 days of purchase.',
    );
    TOKEN.lastIndex = 0;
    assert.match(r.explanation ?? '', /says 'Monthly' where the passage says 'Annual'/);
  });

  it('reads a shortening, a shared beginning and an acronym as another form of a word, and nothing else', () => {
    assert.equal(explains(terms('comp'), terms('compensatory')), true);
    assert.equal(explains(terms('quarterly'), terms('quarter')), true);
    assert.equal(explains(terms('apps'), terms('applications')), true);
    assert.equal(explains(terms('PRA'), terms('Paperwork Reduction Act')), true);
    assert.equal(explains(terms('Paperwork Reduction Act'), terms('PRA')), true);
    assert.equal(explains(terms('monthly'), terms('annual')), false);
    assert.equal(explains(terms('court order'), terms('search warrant')), false);
    assert.equal(explains(terms('contractors'), terms('employees')), false);
  });
});
