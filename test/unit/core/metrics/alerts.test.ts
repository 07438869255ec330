import { strict as assert } from 'node:assert';
import { detectAlerts, DEFAULT_ALERT_SETTINGS } from '../../../../src/core/metrics/alerts';
import { twoMeansZ, twoProportionZ } from '../../../../src/core/metrics/stats';
import { parseMetricsLog } from '../../../../src/core/metrics/turnRecords';
import { recordLines, repeat, type TurnSpec } from '../../../support/metricsRecords';

const turnsOf = (specs: TurnSpec[]) => parseMetricsLog(recordLines(specs)).turns;
/** A deterministic pseudo-random sequence (same numbers every run). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('drift alerts', () => {
  describe('the tests', () => {
    it('two-proportion z: textbook value, sign, and zero for equal rates', () => {
      // 10/100 vs 25/100: pooled p = 0.175, se = sqrt(.175*.825*.02) = 0.05374 → z = 2.791
      assert.ok(Math.abs(twoProportionZ(10, 100, 25, 100) - 2.791) < 0.001);
      assert.ok(twoProportionZ(25, 100, 10, 100) < 0);
      assert.equal(twoProportionZ(50, 100, 25, 50), 0);
      assert.ok(twoProportionZ(0, 40, 40, 40) > 8);
    });

    it('two-means z (Welch): known value and infinities handled', () => {
      // means 1 and 0.5, variances 0 and 0.2632 (n = 20 alternating 0/1) → z = -0.5 / sqrt(0.2632/20) = -4.36
      const recent = Array.from({ length: 20 }, (_, i) => (i % 2 ? 1 : 0));
      const z = twoMeansZ(Array(20).fill(1), recent);
      assert.ok(Math.abs(z + 4.36) < 0.01, String(z));
      assert.equal(twoMeansZ([1, 1, 1], [1, 1, 1]), 0);
      assert.equal(twoMeansZ([1, 1, 1], [0.5, 0.5, 0.5]), -Infinity);
    });
  });

  it('rule "recent": abstentions going from near 0 to near 1 raise one abstention alert with counts and a reason', () => {
    const alerts = detectAlerts(turnsOf([...repeat(40, {}), ...repeat(40, { abstained: true })]));
    const a = alerts.filter((x) => x.rule === 'recent');
    assert.equal(a.length, 1);
    assert.equal(a[0].metric, 'abstained');
    assert.deepEqual(a[0].recent, { rate: 1, n: 30 });
    assert.equal(a[0].baseline.n, 50);
    assert.equal(a[0].baseline.rate, 10 / 50);
    assert.match(a[0].reason, /abstention rate rose from 20% \(50 turns\) to 100% \(30 turns\) in the last 30 turns/);
    assert.ok(a[0].z > DEFAULT_ALERT_SETTINGS.z);
  });

  it('a stable mix raises nothing: alternating, and 200 random turns at a steady rate (fixed seed)', () => {
    assert.deepEqual(detectAlerts(turnsOf(repeat(80, (i) => ({ abstained: i % 2 === 1 })))), []);
    const rnd = lcg(7);
    const steady = repeat(200, () => {
      const abstained = rnd() < 0.3;
      const factual = abstained ? 0 : 1 + Math.floor(rnd() * 4);
      const dropped = abstained ? 0 : Math.floor(rnd() * 1.3 * factual * 0.3);
      return { abstained, factual, dropped, topic: rnd() < 0.5 ? 'hr' : 'security' };
    });
    assert.deepEqual(detectAlerts(turnsOf(steady)), []);
  });

  it('needs the minimum counts: 10 abstentions after 15 answers raise nothing', () => {
    assert.deepEqual(detectAlerts(turnsOf([...repeat(15, {}), ...repeat(10, { abstained: true })])), []);
  });

  it('rule "model-change": drops rising after the model changed, compared with the previous model', () => {
    const specs = [
      ...repeat(60, { model: 'gemini-a', factual: 3, dropped: 0 }),
      ...repeat(25, { model: 'gemini-b', factual: 3, dropped: 1 }),
    ];
    const alerts = detectAlerts(turnsOf(specs));
    const drop = alerts.find((a) => a.rule === 'model-change' && a.metric === 'dropped');
    assert.ok(drop, JSON.stringify(alerts));
    assert.deepEqual(drop.baseline, { rate: 0, n: 180 });
    assert.deepEqual(drop.recent, { rate: 1 / 3, n: 75 });
    assert.match(drop.reason, /since the model changed to gemini-b/);
    assert.match(drop.reason, /with gemini-a before/);
    const coverage = alerts.find((a) => a.rule === 'model-change' && a.metric === 'coverage');
    assert.ok(coverage, 'coverage fell from 1 to 2/3');
    assert.equal(coverage.recent.rate.toFixed(3), '0.667');
  });

  it('rule "index-change": abstentions rising after the index version changed', () => {
    const specs = [
      ...repeat(50, (i) => ({ indexVersion: 'lexical@100', abstained: i % 10 === 0 })),
      ...repeat(22, (i) => ({ indexVersion: 'lexical@80', abstained: i % 3 !== 0 })),
    ];
    const alerts = detectAlerts(turnsOf(specs));
    const a = alerts.find((x) => x.rule === 'index-change');
    assert.ok(a, JSON.stringify(alerts));
    assert.equal(a.metric, 'abstained');
    assert.deepEqual(a.baseline, { rate: 0.1, n: 50 });
    assert.equal(a.recent.n, 22);
    assert.match(a.reason, /index version changed to lexical@80/);
    // The same shift seen by "recent" over a window that straddles the change is smaller but also checked.
    assert.ok(alerts.every((x) => x.metric === 'abstained'));
  });

  it('rule "topic": one topic going wrong while the others stay steady is named, and the overall mix may hide it', () => {
    const specs = repeat(200, (i) => {
      const topic = ['hr', 'security', 'travel', 'finance'][i % 4];
      const late = i >= 80;
      return { topic, abstained: topic === 'security' ? late : i % 7 === 0 };
    });
    const alerts = detectAlerts(turnsOf(specs));
    const topical = alerts.filter((a) => a.rule === 'topic');
    assert.equal(topical.length, 1, JSON.stringify(alerts));
    assert.equal(topical[0].topic, 'security');
    assert.equal(topical[0].metric, 'abstained');
    assert.match(topical[0].reason, /on topic "security"/);
  });

  it('only changes for the worse alert: abstentions falling raise nothing', () => {
    assert.deepEqual(detectAlerts(turnsOf([...repeat(40, { abstained: true }), ...repeat(40, {})])), []);
  });

  it('thresholds are settings: a stricter z or a larger minimum change silences the same shift', () => {
    const specs = [
      ...repeat(60, (i) => ({ abstained: i % 5 === 0 })),
      ...repeat(30, (i) => ({ abstained: i % 3 !== 0 })),
    ];
    assert.ok(detectAlerts(turnsOf(specs)).some((a) => a.rule === 'recent'));
    assert.deepEqual(detectAlerts(turnsOf(specs), { ...DEFAULT_ALERT_SETTINGS, z: 10 }), []);
    assert.deepEqual(detectAlerts(turnsOf(specs), { ...DEFAULT_ALERT_SETTINGS, minChange: 0.5 }), []);
    assert.deepEqual(detectAlerts(turnsOf(specs), { ...DEFAULT_ALERT_SETTINGS, minTurns: 70 }), []);
  });
});
