// Drift alerts: does a window of turns differ from the turns before it by more than chance?
// Rules (each compares a "recent" window with a "baseline" before it):
//   recent        the last `recentTurns` turns vs up to `baselineTurns` turns before them;
//   model-change  the turns since the model last changed vs the previous model's turns before it;
//   index-change  the turns since the index version last changed vs the turns of the previous version;
//   topic         per topic: its last `recentTurns` turns vs its turns before them (only with 2+ topics).
// Metrics: abstained (share of turns, two-proportion z-test), dropped (share of factual sentences,
// two-proportion z-test), coverage (mean per answered turn, Welch z-test). An alert needs both
// sides to have the minimum counts, |z| ≥ `z`, a change of at least `minChange`, and a change for
// the worse (abstentions or drops up, coverage down). docs/metrics.md explains the choice.

import {
  ALERT_METRICS,
  type AlertMetric,
  type AlertRule,
  type AlertSettings,
  type MetricsAlert,
} from '../../domain/metricsReport';
import { answeredCoverage, groupBy } from './summary';
import { mean, twoMeansZ, twoProportionZ } from './stats';
import { NO_TOPIC, type TurnPoint } from './turnRecords';

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  recentTurns: 30,
  baselineTurns: 300,
  minTurns: 20,
  minSentences: 30,
  z: 3,
  minChange: 0.15,
};

interface Window {
  turns: readonly TurnPoint[];
  label: string;
}

interface Comparison {
  rule: AlertRule;
  topic?: string;
  baseline: Window;
  recent: Window;
}

const METRIC_WORDS: Record<AlertMetric, string> = {
  abstained: 'abstention rate',
  dropped: 'drop rate',
  coverage: 'citation coverage',
};

export function detectAlerts(
  turns: readonly TurnPoint[],
  settings: AlertSettings = DEFAULT_ALERT_SETTINGS,
): MetricsAlert[] {
  const comparisons = [
    recentComparison(turns, settings),
    changeComparison(turns, settings, 'model-change', (t) => t.model, 'model'),
    changeComparison(turns, settings, 'index-change', (t) => t.indexVersion, 'index version'),
    ...topicComparisons(turns, settings),
  ].filter((c): c is Comparison => c !== undefined);
  return comparisons.flatMap((c) =>
    ALERT_METRICS.map((m) => compare(m, c, settings)).filter((a): a is MetricsAlert => a !== undefined),
  );
}

function recentComparison(turns: readonly TurnPoint[], s: AlertSettings, topic?: string): Comparison | undefined {
  if (turns.length < s.recentTurns + s.minTurns) return undefined;
  const split = turns.length - s.recentTurns;
  const where = topic ? ` on topic "${topic}"` : '';
  return {
    rule: topic ? 'topic' : 'recent',
    topic,
    recent: { turns: turns.slice(split), label: `the last ${s.recentTurns} turns${where}` },
    baseline: {
      turns: turns.slice(Math.max(0, split - s.baselineTurns), split),
      label: `the ${Math.min(split, s.baselineTurns)} turns before them`,
    },
  };
}

function changeComparison(
  turns: readonly TurnPoint[],
  s: AlertSettings,
  rule: AlertRule,
  key: (t: TurnPoint) => string,
  what: string,
): Comparison | undefined {
  let change = -1;
  for (let i = turns.length - 1; i > 0; i--) {
    if (key(turns[i]) !== key(turns[i - 1])) {
      change = i;
      break;
    }
  }
  if (change < 0) return undefined;
  const before = key(turns[change - 1]);
  let start = change;
  while (start > 0 && change - start < s.baselineTurns && key(turns[start - 1]) === before) start--;
  return {
    rule,
    recent: {
      turns: turns.slice(change),
      label: `the ${turns.length - change} turns since the ${what} changed to ${key(turns[change])}`,
    },
    baseline: { turns: turns.slice(start, change), label: `the ${change - start} turns with ${before} before` },
  };
}

function topicComparisons(turns: readonly TurnPoint[], s: AlertSettings): (Comparison | undefined)[] {
  const topics = groupBy(
    turns.filter((t) => t.topic !== NO_TOPIC),
    (t) => t.topic,
  );
  if (topics.size < 2) return [];
  return [...topics].map(([topic, list]) => recentComparison(list, s, topic));
}

function compare(metric: AlertMetric, c: Comparison, s: AlertSettings): MetricsAlert | undefined {
  const side = (w: Window) => measure(metric, w.turns);
  const base = side(c.baseline);
  const recent = side(c.recent);
  const minN = metric === 'dropped' ? s.minSentences : s.minTurns;
  if (base.n < minN || recent.n < minN) return undefined;
  const z =
    metric === 'coverage'
      ? twoMeansZ(base.values, recent.values)
      : twoProportionZ(base.hits, base.n, recent.hits, recent.n);
  const change = recent.rate - base.rate;
  const worse = metric === 'coverage' ? change <= -s.minChange && z <= -s.z : change >= s.minChange && z >= s.z;
  if (!worse) return undefined;
  const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
  const unit = metric === 'dropped' ? 'sentences' : metric === 'coverage' ? 'answered turns' : 'turns';
  return {
    metric,
    baseline: { rate: base.rate, n: base.n },
    recent: { rate: recent.rate, n: recent.n },
    reason:
      `${METRIC_WORDS[metric]} ${change > 0 ? 'rose' : 'fell'} from ${pct(base.rate)} (${base.n} ${unit}) to ${pct(recent.rate)} (${recent.n} ${unit}) ` +
      `in ${c.recent.label}, compared with ${c.baseline.label} (z = ${Number.isFinite(z) ? z.toFixed(1) : '∞'}, threshold ${s.z})`,
    rule: c.rule,
    ...(c.topic ? { topic: c.topic } : {}),
    z: Number.isFinite(z) ? z : Math.sign(z) * 99,
    since: new Date(c.recent.turns[0].time).toISOString(),
  };
}

function measure(
  metric: AlertMetric,
  turns: readonly TurnPoint[],
): { hits: number; n: number; rate: number; values: number[] } {
  if (metric === 'abstained') {
    const hits = turns.filter((t) => t.abstained).length;
    return { hits, n: turns.length, rate: turns.length ? hits / turns.length : 0, values: [] };
  }
  if (metric === 'dropped') {
    const hits = turns.reduce((a, t) => a + t.dropped, 0);
    const n = turns.reduce((a, t) => a + t.factual, 0);
    return { hits, n, rate: n ? hits / n : 0, values: [] };
  }
  const values = answeredCoverage(turns);
  return { hits: 0, n: values.length, rate: mean(values), values };
}
