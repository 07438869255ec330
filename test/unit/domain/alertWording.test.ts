// A drift alert in plain words: what changed, and what to do; no statistics in them.

import assert from 'node:assert/strict';
import { describeAlert } from '../../../src/domain/alertWording';
import type { MetricsAlert, MetricsChange } from '../../../src/domain/metricsReport';

const alert = (over: Partial<MetricsAlert>): MetricsAlert => ({
  metric: 'abstained',
  rule: 'recent',
  baseline: { rate: 0.08, n: 300 },
  recent: { rate: 0.41, n: 30 },
  reason: 'abstention rate rose from 8% (300 turns) to 41% (30 turns) … (z = 6.1, threshold 3)',
  z: 6.1,
  since: '2026-01-01T00:00:00.000Z',
  ...over,
});

const changes: MetricsChange[] = [
  { turn: 26, time: '2026-01-01T00:00:00Z', kind: 'model', from: 'gemini-2.5-flash', to: 'extractive' },
  { turn: 46, time: '2026-01-02T00:00:00Z', kind: 'index', from: 'lexical@1', to: 'lexical@2' },
];

describe('alerts in plain words', () => {
  it('says what changed, with the figures, and what to do', () => {
    const words = describeAlert(alert({}), changes);
    assert.equal(words.headline, 'More questions go unanswered');
    assert.equal(words.detail, 'Recently, 41% of questions were not answered from the documents, up from 8% before.');
    assert.match(words.advice, /add the documents that are missing, or reindex/);
  });

  it('names the model a model-change alert is about, and how to switch back', () => {
    const words = describeAlert(alert({ rule: 'model-change', metric: 'dropped' }), changes);
    assert.equal(words.headline, 'More sentences are removed as unsupported');
    assert.match(words.detail, /^Since the model changed to extractive, 41% of the sentences in answers were removed/);
    assert.match(words.advice, /\(gemini-2\.5-flash\).*“Evident: Choose Model…”/);
  });

  it('words every metric and rule without statistics', () => {
    for (const metric of ['abstained', 'dropped', 'coverage'] as const) {
      for (const rule of ['recent', 'model-change', 'index-change', 'topic'] as const) {
        const words = describeAlert(alert({ metric, rule, topic: rule === 'topic' ? 'Security' : undefined }), changes);
        const text = `${words.headline} ${words.detail} ${words.advice}`;
        assert.doesNotMatch(text, /\bz\b|z-test|Welch|threshold|standard error|undefined/, text);
        assert.ok(words.advice.length > 40, text);
        if (rule === 'topic') assert.match(text, /“Security”/);
        if (metric === 'coverage') assert.match(words.detail, /down from 8% before\.$/);
      }
    }
  });
});
