// The metrics dashboard ⇄ host messages, with runtime guards for both directions. The report's
// shape is core's MetricsReport (src/core/metrics/metricsReport.ts) as far as the dashboard reads
// it; the host passes core's report through, and the webview checks it before drawing. Model
// names and topics come from a log file: the webview shows them as text, never as markup.

import { isArrayOf, isFiniteNumber, isNonNegativeInteger, isOneOf, isOptional, isRecord, isShape, isString, type Guard } from './guards';

export interface SummaryView {
  turns: number;
  abstained: number;
  abstentionRate: number;
  factualSentences: number;
  dropped: number;
  dropRate: number | null;
  meanCoverage: number | null;
  meanRetrieved: number;
}

export interface TimelinePointView {
  firstTurn: number;
  lastTurn: number;
  from: string;
  to: string;
  meanRetrieved: number;
  meanCoverage: number | null;
  dropRate: number | null;
  abstentionRate: number;
}

export interface ChangeView {
  turn: number;
  time: string;
  kind: 'model' | 'index';
  from: string;
  to: string;
}

export interface AlertView {
  metric: 'abstained' | 'dropped' | 'coverage';
  baseline: { rate: number; n: number };
  recent: { rate: number; n: number };
  reason: string;
  rule: 'recent' | 'model-change' | 'index-change' | 'topic';
  topic?: string;
}

export interface MetricsReportView {
  turns: number;
  from?: string;
  to?: string;
  overall: SummaryView;
  byModel: Record<string, SummaryView>;
  byTopic: Record<string, SummaryView>;
  byIndexVersion: Record<string, SummaryView>;
  timeline: TimelinePointView[];
  changes: ChangeView[];
  alerts: AlertView[];
}

export type MetricsHostToWebview =
  | { type: 'report'; report: MetricsReportView; logFile: string }
  | { type: 'error'; message: string };

export type MetricsWebviewToHost = { type: 'ready' } | { type: 'refresh' } | { type: 'openLog' };

const isRate = (v: unknown): v is number => isFiniteNumber(v) && v >= 0 && v <= 1;
const isRateOrNull = (v: unknown): v is number | null => v === null || isRate(v);
const isNonNegative = (v: unknown): v is number => isFiniteNumber(v) && v >= 0;

const isSummary = isShape<SummaryView>({
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

const isTimelinePoint = isShape<TimelinePointView>({
  firstTurn: isNonNegativeInteger,
  lastTurn: isNonNegativeInteger,
  from: isString,
  to: isString,
  meanRetrieved: isNonNegative,
  meanCoverage: isRateOrNull,
  dropRate: isRateOrNull,
  abstentionRate: isRate,
});

const isChange = isShape<ChangeView>({ turn: isNonNegativeInteger, time: isString, kind: isOneOf(['model', 'index'] as const), from: isString, to: isString });
const isSide = isShape<{ rate: number; n: number }>({ rate: isRate, n: isNonNegativeInteger });
const isAlert = isShape<AlertView>({
  metric: isOneOf(['abstained', 'dropped', 'coverage'] as const),
  baseline: isSide,
  recent: isSide,
  reason: isString,
  rule: isOneOf(['recent', 'model-change', 'index-change', 'topic'] as const),
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
  timeline: (v): v is TimelinePointView[] => isArrayOf(v, isTimelinePoint),
  changes: (v): v is ChangeView[] => isArrayOf(v, isChange),
  alerts: (v): v is AlertView[] => isArrayOf(v, isAlert),
});

export function isMetricsHostToWebview(value: unknown): value is MetricsHostToWebview {
  if (!isRecord(value)) return false;
  if (value.type === 'report') return isMetricsReportView(value.report) && isString(value.logFile);
  if (value.type === 'error') return isString(value.message);
  return false;
}

export function isMetricsWebviewToHost(value: unknown): value is MetricsWebviewToHost {
  return isRecord(value) && (value.type === 'ready' || value.type === 'refresh' || value.type === 'openLog') && Object.keys(value).length === 1;
}
