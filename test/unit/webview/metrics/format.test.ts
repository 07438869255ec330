// How the dashboard writes numbers and names (src/webview/metrics/format.ts): percentages with one
// decimal and a dash for "none", means, times to the minute, one label per series and rule.

import assert from 'node:assert/strict';
import { num, pct, RULE_LABEL, SERIES, shortTime } from '../../../../src/webview/metrics/format';

describe('metrics formatting', () => {
  it('writes rates as percentages with one decimal, and no value as a dash', () => {
    assert.equal(pct(0), '0.0%');
    assert.equal(pct(0.1234), '12.3%');
    assert.equal(pct(1), '100.0%');
    assert.equal(pct(null), '—');
    assert.equal(num(4), '4.0');
    assert.equal(num(2.25), '2.3');
  });

  it('writes a log time to the minute, without the "T"', () => {
    assert.equal(shortTime('2026-12-01T14:52:33.123Z'), '2026-12-01 14:52');
  });

  it('names each series once, with a theme colour; only passages retrieved is not a rate', () => {
    assert.deepEqual(SERIES.map((s) => s.key).sort(), ['abstentionRate', 'dropRate', 'meanCoverage', 'meanRetrieved']);
    assert.equal(new Set(SERIES.map((s) => s.label)).size, SERIES.length);
    assert.deepEqual(
      SERIES.filter((s) => !s.rate).map((s) => s.key),
      ['meanRetrieved'],
    );
    for (const s of SERIES) assert.match(s.color, /^--vscode-charts-/);
    assert.equal(RULE_LABEL['model-change'], 'After a model change');
  });
});
