// Builders of metrics-log lines for tests: one turn's record as the core's writer would write it
// (the same fields), with a clock that advances one minute per turn.

import type { MetricsRecord } from '../../src/core/metrics/turnLog';

export interface TurnSpec {
  abstained?: boolean;
  dropped?: number;
  factual?: number;
  coverage?: number;
  retrieved?: number;
  model?: string;
  indexVersion?: string;
  topic?: string | null;
}

export function recordLines(specs: TurnSpec[], start = Date.parse('2026-11-01T09:00:00Z')): string {
  return specs.map((s, i) => JSON.stringify(record(s, new Date(start + i * 60_000)))).join('\n') + '\n';
}

export function record(s: TurnSpec, time: Date): MetricsRecord {
  const abstained = s.abstained ?? false;
  const factual = s.factual ?? (abstained ? 0 : 2);
  const dropped = s.dropped ?? 0;
  return {
    time: time.toISOString(),
    invocationId: `inv-${time.getTime()}`,
    model: s.model ?? 'extractive',
    retrieval: 'lexical',
    indexVersion: s.indexVersion ?? 'lexical@10',
    topic: s.topic === undefined ? 'hr' : s.topic,
    retrieved: s.retrieved ?? 6,
    coverage: s.coverage ?? (factual ? (factual - dropped) / factual : abstained ? 0 : 1),
    dropped,
    abstained,
    factual,
  };
}

export function repeat(n: number, spec: TurnSpec | ((i: number) => TurnSpec)): TurnSpec[] {
  return Array.from({ length: n }, (_, i) => (typeof spec === 'function' ? spec(i) : spec));
}
