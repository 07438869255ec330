// What the offline model reads of the question and of the passages (extractiveReading.ts): the
// statements a passage offers as answers and the lexical evidence of each. Our own fictional policies.

import { strict as assert } from 'node:assert';
import { readPassages } from '../../../../src/core/models/extractiveModel';

describe('extractive reading: the question in its own words', () => {
  it('takes hedges and intensifiers of casual speech for how the asker speaks, not for terms to find', () => {
    const passages = [{ id: 'E1', heading: 'Help desk', text: 'The help desk is open 6am-9pm ET.' }];
    for (const question of [
      'What hours is the help desk actually open?',
      'Am I supposed to use a particular browser for the help desk?',
      'I have a pretty complicated ticket; ballpark, when is the help desk open?',
    ]) {
      const read = readPassages(question, passages);
      assert.equal(read.kind, 'read');
      if (read.kind !== 'read') return;
      const hedges = ['actual', 'suppos', 'particular', 'pretti', 'ballpark'];
      assert.ok(
        !read.reading.keyTerms.some((t) => hedges.includes(t)),
        `${question}: ${read.reading.keyTerms.join(' ')}`,
      );
    }
  });
});

describe('extractive reading: the kind of value asked for', () => {
  const passages = [{ id: 'E1', heading: 'Payouts', text: 'A payout is sent once your balance reaches $100.' }];
  const reading = (question: string) => {
    const read = readPassages(question, passages);
    assert.equal(read.kind, 'read');
    if (read.kind !== 'read') throw new Error(question);
    return read.reading;
  };

  it('reads a bound asked about ("is there a minimum balance") as asking a value, but not as a quantity', () => {
    const bound = reading('Is there a minimum balance before a payout is sent?');
    assert.equal(bound.askedValues().length, 1);
    assert.equal(bound.asksQuantity(), false);
    const cap = reading("What's the yearly total cap on payouts?");
    assert.equal(cap.askedValues().length, 1);
    assert.equal(cap.asksQuantity(), false);
  });

  it('still reads "how much" and "what is the maximum number of" as asking a quantity', () => {
    assert.equal(reading('How much balance do I need before a payout is sent?').asksQuantity(), true);
    assert.equal(reading('What is the maximum number of payouts a month?').asksQuantity(), true);
    // A question about rules asks for no value.
    assert.equal(reading('What limits apply to payouts?').askedValues().length, 0);
  });
});
