// The metrics report of a turn log as data: the four numbers of a group of turns, the timeline
// and the changes the dashboard draws, the drift alerts and their settings, and the report that
// holds them. Defined once here: core builds the report (src/core/metrics/), `evident metrics
// --json` prints it, and the dashboard's protocol (src/shared/metricsProtocol.ts) checks the part
// the dashboard reads. Closed sets of values are const lists, so the guards check the same values.

/** The four numbers of a group of turns, as totals and rates. */
export interface MetricsSummary {
  turns: number;
  abstained: number;
  abstentionRate: number;
  factualSentences: number;
  dropped: number;
  /** Dropped / factual sentences; null when no factual sentence was written. */
  dropRate: number | null;
  /** Mean citation coverage of the turns that answered; null when none answered. */
  meanCoverage: number | null;
  meanRetrieved: number;
}

export interface DaySummary extends MetricsSummary {
  /** UTC day, YYYY-MM-DD. */
  day: string;
}

export interface TimelinePoint {
  /** Turn numbers (1-based, inclusive) this point covers. */
  firstTurn: number;
  lastTurn: number;
  /** Time of the bucket's first and last turn (ISO). */
  from: string;
  to: string;
  meanRetrieved: number;
  meanCoverage: number | null;
  dropRate: number | null;
  abstentionRate: number;
}

export const CHANGE_KINDS = ['model', 'index'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface MetricsChange {
  /** 1-based number of the first turn after the change. */
  turn: number;
  time: string;
  kind: ChangeKind;
  from: string;
  to: string;
}

export const ALERT_METRICS = ['abstained', 'dropped', 'coverage'] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];
export const ALERT_RULES = ['recent', 'model-change', 'index-change', 'topic'] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

export interface MetricsAlert {
  metric: AlertMetric;
  baseline: { rate: number; n: number };
  recent: { rate: number; n: number };
  reason: string;
  rule: AlertRule;
  topic?: string;
  /** The test statistic (recent minus baseline, in standard errors); ±99 when a side has no variance. */
  z: number;
  /** Time of the first turn of the recent window (ISO). */
  since: string;
}

export interface AlertSettings {
  /** Turns in the recent window (rules "recent" and "topic"). */
  recentTurns: number;
  /** At most this many turns of baseline before a window. */
  baselineTurns: number;
  /** Each side needs at least this many turns (answered turns for coverage). */
  minTurns: number;
  /** Each side needs at least this many factual sentences (drop rate). */
  minSentences: number;
  /** |z| at or above this is significant (3 ≈ two-sided p 0.003). */
  z: number;
  /** Smallest change of rate worth an alert (absolute, 0..1). */
  minChange: number;
}

export interface MetricsReport {
  turns: number;
  overall: MetricsSummary;
  byDay: DaySummary[];
  byModel: Record<string, MetricsSummary>;
  byIndexVersion: Record<string, MetricsSummary>;
  byTopic: Record<string, MetricsSummary>;
  alerts: MetricsAlert[];
  // Additions to the CLI contract's fields:
  /** First and last turn time (ISO), when there are turns. */
  from?: string;
  to?: string;
  timeline: TimelinePoint[];
  changes: MetricsChange[];
  alertSettings: AlertSettings;
  /** Lines of the log that were not metrics records (skipped). */
  skippedLines: number;
}
