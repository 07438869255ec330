// Follow-ups rewritten into standalone questions (src/core/agent/followUp.ts): which questions lean
// on the turn before, what the rewrite carries (the earlier question, never its answer), and that
// a question that says what it is about is left as asked. Our own example questions.

import { strict as assert } from 'node:assert';
import { leansOnPrevious, standaloneQuestion, swappedSubject } from '../../../../src/core/agent/followUp';
import { termStatsFromTexts } from '../../../../src/core/text/termStats';

const LEAVE = { question: 'How many days of annual leave do employees get?' };

describe('follow-ups: which questions lean on the turn before', () => {
  it('reads openings, pointing words and questions with no subject of their own as follow-ups', () => {
    for (const q of [
      'and for part-time staff?',
      'What about contractors?',
      'how long?',
      'for how long?',
      'is it a real person who looks at it?',
      'does that count as overtime?',
      'what if I am over that in December?',
      'how much does filing one cost?',
      'will they tell me first?',
      'same for interns?',
      'blood?',
      'how many business days until I hear back?',
    ]) {
      assert.equal(leansOnPrevious(q), true, q);
    }
  });

  it('leaves questions that say what they are about alone, a dummy "it" and "is there" included', () => {
    for (const q of [
      'How many days of annual leave do employees get in their first year?',
      'Is it OK to book my hotel directly with the conference venue?',
      'Is there a limit on business class flights for long trips?',
      'Which class of travel is required for short flights?',
      'Where do I create my individual development plan?',
      'Can one person keep two free accounts?',
    ]) {
      assert.equal(leansOnPrevious(q), false, q);
    }
  });

  it("weighs a question's own words by the documents: words every passage uses say nothing of its own", () => {
    const passages = [
      ...Array.from({ length: 30 }, (_, i) => `GitHub accounts and repositories, page ${i}.`),
      'Tickets to GitHub Universe cost 500 dollars.',
      'A licensed Zoom account allows 300 participants.',
    ];
    const stats = termStatsFromTexts(passages);
    // "GitHub" and "account" are in most passages: nothing of its own to ask about.
    assert.equal(leansOnPrevious('what does GitHub do with the account?', stats), true);
    // "Zoom" and "participants" are rare: it says what it is about.
    assert.equal(leansOnPrevious('How many participants can join a licensed Zoom meeting?', stats), false);
  });
});

describe('follow-ups: the standalone question', () => {
  it('carries the earlier question (its subject) in front of the follow-up, never an answer', () => {
    const s = standaloneQuestion('and for part-time staff?', { question: LEAVE.question, answeredAs: LEAVE.question });
    assert.equal(s.text, 'How many days of annual leave do employees get — and for part-time staff?');
    assert.equal(s.asked, 'and for part-time staff?');
    assert.equal(s.carried, LEAVE.question);
    assert.equal(s.newSubject, 'part-time staff');
  });

  it('leaves a question that stands alone as asked, even after another turn', () => {
    const q = 'Which class of travel is required for short flights?';
    const s = standaloneQuestion(q, LEAVE);
    assert.deepEqual(s, { text: q, asked: q });
    assert.deepEqual(standaloneQuestion('and for part-time staff?', undefined), {
      text: 'and for part-time staff?',
      asked: 'and for part-time staff?',
    });
  });

  it('carries what the earlier turn was answered as, so a chain keeps its subject', () => {
    const second = standaloneQuestion('and for contractors?', LEAVE);
    const third = standaloneQuestion('how long in advance must they ask?', {
      question: 'and for contractors?',
      answeredAs: second.text,
    });
    assert.equal(
      third.text,
      'How many days of annual leave do employees get — and for contractors — how long in advance must they ask?',
    );
  });

  it("drops the earlier question's names when the follow-up names its own subject", () => {
    const s = standaloneQuestion('And GitHub Sponsors?', {
      question: 'What is the minimum age to use GitHub Marketplace?',
    });
    assert.doesNotMatch(s.text, /Marketplace/);
    assert.match(s.text, /^What is the minimum age to use GitHub — And GitHub Sponsors\?$/);
  });

  it('cuts a very long carried question, keeping its start (the subject) and its end', () => {
    const long = `How many days ${Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ')} end?`;
    const s = standaloneQuestion('and for contractors?', { question: long });
    assert.ok(s.carried && s.carried.split(/\s+/).length <= 61, s.carried);
    assert.match(s.text, /^How many days w0 .* … .* end — and for contractors\?$/);
  });

  it('names a swapped subject only when the follow-up is one ("and for X?", "X?"), not a new question', () => {
    assert.equal(swappedSubject('what about contractors?'), 'contractors');
    assert.equal(swappedSubject('same for travel comp time?'), 'travel comp time');
    assert.equal(swappedSubject('blood?'), 'blood');
    assert.equal(swappedSubject('for how long?'), undefined);
    assert.equal(swappedSubject('and if I quit before using it?'), undefined);
    assert.equal(swappedSubject('is it a real person who looks at it?'), undefined);
  });
});
