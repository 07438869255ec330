// The metrics dashboard ⇄ host messages, with runtime guards for both directions. The report's
// types are the domain's (src/domain/metricsReport.ts); the view is the part the dashboard reads.
// The host passes core's report through, and the webview checks it before drawing. Model
// names and topics come from a log file: the webview shows them as text, never as markup.

import {
  ALERT_METRICS,
  ALERT_RULES,
  CHANGE_KINDS,
  type MetricsAlert,
  type MetricsChange,
  type MetricsReport,
  type MetricsSummary,
  type TimelinePoint,
} from '../domain/metricsReport';
import {
  isArrayOf,
  isFiniteNumber,
  isNonNegativeInteger,
  isOneOf,
  isOptional,
  isRecord,
  isShape,
  isString,
  type Guard,
} from './guards';

/** A drift alert as far as the dashboard reads it. */
export type AlertView = Omit<MetricsAlert, 'z' | 'since'>;

/** The report as far as the dashboard reads it (what the guard below checks). */
export type MetricsReportView = Pick<
  MetricsReport,
  'turns' | 'from' | 'to' | 'overall' | 'byModel' | 'byTopic' | 'byIndexVersion' | 'timeline' | 'changes'
> & {
  alerts: AlertView[];
};

export type MetricsHostToWebview =
  { type: 'report'; report: MetricsReportView; logFile: string } | { type: 'error'; message: string };

export type MetricsWebviewToHost = { type: 'ready' } | { type: 'refresh' } | { type: 'openLog' };

const isRate = (v: unknown): v is number => isFiniteNumber(v) && v >= 0 && v <= 1;
const isRateOrNull = (v: unknown): v is number | null => v === null || isRate(v);
const isNonNegative = (v: unknown): v is number => isFiniteNumber(v) && v >= 0;

const isSummary = isShape<MetricsSummary>({
  turns: isNonNegativeInteger,
  abstained: isNonNegativeInteger,
  abstentionRate: isRate,
  factualSentences: isNonNegativeInteger,
  dropped: isNonNegativeInteger,
  dropRate: isRateOrNull,
  meanCoverage: isRateOrNull,
  meanRetrieved: isNonNegative,
});

function isRecordOf<T>(item: Guard<T>): Guard<Record<string, T>> {
  return (v: unknown): v is Record<string, T> => isRecord(v) && Object.values(v).every((x) => item(x));
}

const isTimelinePoint = isShape<TimelinePoint>({
  firstTurn: isNonNegativeInteger,
  lastTurn: isNonNegativeInteger,
  from: isString,
  to: isString,
  meanRetrieved: isNonNegative,
  meanCoverage: isRateOrNull,
  dropRate: isRateOrNull,
  abstentionRate: isRate,
});

const isChange = isShape<MetricsChange>({
  turn: isNonNegativeInteger,
  time: isString,
  kind: isOneOf(CHANGE_KINDS),
  from: isString,
  to: isString,
});
const isSide = isShape<{ rate: number; n: number }>({ rate: isRate, n: isNonNegativeInteger });
const isAlert = isShape<AlertView>({
  metric: isOneOf(ALERT_METRICS),
  baseline: isSide,
  recent: isSide,
  reason: isString,
  rule: isOneOf(ALERT_RULES),
  topic: isOptional(isString),
});

export const isMetricsReportView = isShape<MetricsReportView>({
  turns: isNonNegativeInteger,
  from: isOptional(isString),
  to: isOptional(isString),
  overall: isSummary,
  byModel: isRecordOf(isSummary),
  byTopic: isRecordOf(isSummary),
  byIndexVersion: isRecordOf(isSummary),
  timeline: (v): v is TimelinePoint[] => isArrayOf(v, isTimelinePoint),
  changes: (v): v is MetricsChange[] => isArrayOf(v, isChange),
  alerts: (v): v is AlertView[] => isArrayOf(v, isAlert),
});

export function isMetricsHostToWebview(value: unknown): value is MetricsHostToWebview {
  if (!isRecord(value)) return false;
  if (value.type === 'report') return isMetricsReportView(value.report) && isString(value.logFile);
  if (value.type === 'error') return isString(value.message);
  return false;
}

export function isMetricsWebviewToHost(value: unknown): value is MetricsWebviewToHost {
  return (
    isRecord(value) &&
    (value.type === 'ready' || value.type === 'refresh' || value.type === 'openLog') &&
    Object.keys(value).length === 1
  );
}
