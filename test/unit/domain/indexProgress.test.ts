// Index progress in words and as a share: no "0/0 files", no jump from 49% to 95%.

import { strict as assert } from 'node:assert';
import { describeIndexProgress, indexPercent } from '../../../src/domain/indexProgress';

describe('index progress', () => {
  it('gives counts only where there are files to go through', () => {
    assert.equal(describeIndexProgress({ phase: 'scanning', done: 0, total: 0 }), 'Looking for Markdown files…');
    assert.equal(describeIndexProgress({ phase: 'reading', done: 12, total: 248 }), 'Reading files 12/248');
    assert.equal(describeIndexProgress({ phase: 'reading', done: 0, total: 0 }), 'Reading files…');
    assert.equal(describeIndexProgress({ phase: 'saving', done: 0, total: 1 }), 'Saving the index…');
  });

  it('moves steadily through a lexical run (reading is most of it) and an embedding run', () => {
    const lexical = [
      indexPercent({ phase: 'scanning', done: 0, total: 0 }, false),
      indexPercent({ phase: 'reading', done: 124, total: 248 }, false),
      indexPercent({ phase: 'reading', done: 247, total: 248 }, false),
      indexPercent({ phase: 'saving', done: 0, total: 1 }, false),
      indexPercent({ phase: 'saving', done: 1, total: 1 }, false),
    ];
    assert.deepEqual(lexical, [0, 47, 94, 95, 100]);
    assert.equal(indexPercent({ phase: 'reading', done: 248, total: 248 }, true), 45);
    assert.equal(
      indexPercent({ phase: 'saving', done: 1, total: 1 }, true),
      50,
      'the lexical commit comes before embedding',
    );
    assert.equal(indexPercent({ phase: 'embedding', done: 50, total: 100 }, true), 75);
    assert.equal(indexPercent({ phase: 'embedding', done: 100, total: 100 }, true), 99);
  });
});
