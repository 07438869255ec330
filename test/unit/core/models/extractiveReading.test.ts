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
