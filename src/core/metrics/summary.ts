// The four numbers of a group of turns, as totals and rates. The rates are defined as the
// evaluation defines them (eval/evaluation.ts): drop rate = dropped / factual sentences, citation
// coverage = mean coverage over the turns that answered, abstention rate = abstained / turns.

import type { MetricsSummary } from '../../domain/metricsReport';
import { mean } from './stats';
import type { TurnPoint } from './turnRecords';

export function summarize(turns: readonly TurnPoint[]): MetricsSummary {
  const abstained = turns.filter((t) => t.abstained).length;
  const factual = turns.reduce((a, t) => a + t.factual, 0);
  const dropped = turns.reduce((a, t) => a + t.dropped, 0);
  const answered = answeredCoverage(turns);
  return {
    turns: turns.length,
    abstained,
    abstentionRate: turns.length ? abstained / turns.length : 0,
    factualSentences: factual,
    dropped,
    dropRate: factual ? dropped / factual : null,
    meanCoverage: answered.length ? mean(answered) : null,
    meanRetrieved: mean(turns.map((t) => t.retrieved)),
  };
}

/** Per-turn coverage of the turns that answered (the sample the coverage mean and test use). */
export function answeredCoverage(turns: readonly TurnPoint[]): number[] {
  return turns.filter((t) => !t.abstained).map((t) => t.coverage);
}

export function groupBy(turns: readonly TurnPoint[], key: (t: TurnPoint) => string): Map<string, TurnPoint[]> {
  const groups = new Map<string, TurnPoint[]>();
  for (const t of turns) {
    const k = key(t);
    const list = groups.get(k);
    if (list) list.push(t);
    else groups.set(k, [t]);
  }
  return groups;
}
