// One figure for a running index, the same wherever it is shown.

import assert from 'node:assert/strict';
import { indexingPercent } from '../../../src/domain/indexFigure';
import { shortVectorFill } from '../../../src/domain/partialRetrieval';

describe('the indexing figure', () => {
  it("is the run's share done before the lexical commit, rounded", () => {
    assert.equal(indexingPercent({ percent: 41.6 }), 42);
    assert.equal(indexingPercent({}), 0);
  });

  it('is the share of passages with a vector while vectors fill in: the status bar\'s "vectors n%" (it used to show 78% beside 70%)', () => {
    const view = { percent: 78, vectors: { passagesWithVectors: 1638, passages: 2340 } };
    assert.equal(indexingPercent(view), 70);
    assert.equal(shortVectorFill(view.vectors), `vectors ${indexingPercent(view)}%`);
    assert.equal(
      indexingPercent({ percent: 99, vectors: { passagesWithVectors: 2339, passages: 2340 } }),
      99,
      'never 100 while one is missing',
    );
  });
});
