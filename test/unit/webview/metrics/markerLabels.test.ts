// The numbered labels of the change markers never print over each other.

import assert from 'node:assert/strict';
import { placeMarkerLabels } from '../../../../src/webview/metrics/markerLabels';

describe('change marker labels', () => {
  it('keeps labels far apart on the top row and stacks labels that would touch', () => {
    assert.deepEqual(placeMarkerLabels([10, 100, 200], 14), [0, 0, 0]);
    // 100 and 105 would overlap (14 px wide): the second goes a row down; 130 fits on the top row again.
    assert.deepEqual(placeMarkerLabels([100, 105, 108, 130], 14), [0, 1, 2, 0]);
  });

  it('places by position whatever the order of the changes, and no two labels of a row touch', () => {
    const xs = [300, 12, 14, 290, 16, 500];
    const rows = placeMarkerLabels(xs, 20, 2);
    for (let i = 0; i < xs.length; i++) {
      for (let j = i + 1; j < xs.length; j++) {
        if (rows[i] === rows[j]) {
          assert.ok(Math.abs(xs[i] - xs[j]) >= 22, `labels ${i} and ${j} overlap on row ${rows[i]}`);
        }
      }
    }
    assert.equal(Math.max(...rows), 2, 'three labels within one width need three rows');
  });
});
