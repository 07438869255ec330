// What the offline model reads of the question and of the passages (extractiveReading.ts): the
// statements a passage offers as answers and the lexical evidence of each. Our own fictional policies.

import { strict as assert } from 'node:assert';
import { answer, readPassages } from '../../../../src/core/models/extractiveModel';

const COOKIES = {
  id: 'E1',
  heading: 'Cookies',
  text: [
    'Provider | Cookie Name | Description | Expiration',
    'Acme | color_mode | This cookie is used to remember the chosen colour theme. | Session',
    'Acme | device_id | This cookie is used to recognise a returning device. | One year',
  ].join('\n'),
};

describe('extractive reading: the statements of a passage', () => {
  it('reads a table row as one statement, its value kept with what it is the value of', () => {
    const read = readPassages('Which cookie remembers the colour theme, and how long does it last?', [COOKIES]);
    assert.equal(read.kind, 'read');
    if (read.kind !== 'read') return;
    const texts = read.candidates.map((c) => c.text);
    assert.ok(
      texts.includes('Acme | color_mode | This cookie is used to remember the chosen colour theme | Session'),
      texts.join('\n'),
    );
    // No piece of a row stands alone.
    assert.ok(!texts.some((t) => t.startsWith('|') || t === 'Session'), texts.join('\n'));
    const text = answer('Which cookie remembers the colour theme, and how long does it last?', [COOKIES]);
    assert.match(text, /color_mode .*\| Session \[E1\]\./, text);
  });

  it('reads a row with a cell of several sentences as prose, sentence by sentence', () => {
    const read = readPassages('When are mid-year reviews held?', [
      {
        id: 'E1',
        heading: 'Reviews',
        text: [
          'Date | Item',
          'April - May | Mid-year reviews are held halfway through the cycle. New staff set their plan then.',
        ].join('\n'),
      },
    ]);
    assert.equal(read.kind, 'read');
    if (read.kind !== 'read') return;
    const texts = read.candidates.map((c) => c.text);
    assert.ok(texts.includes('New staff set their plan then.'), texts.join('\n'));
  });

  it('still splits prose into sentences', () => {
    const read = readPassages('How long is a device remembered?', [
      { id: 'E1', heading: 'Devices', text: 'A device is remembered for one year. After that you sign in again.' },
    ]);
    assert.equal(read.kind, 'read');
    if (read.kind !== 'read') return;
    assert.deepEqual(
      read.candidates.map((c) => c.text),
      ['A device is remembered for one year.', 'After that you sign in again.'],
    );
  });
});

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
