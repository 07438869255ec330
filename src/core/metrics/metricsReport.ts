// The metrics report of a turn log: totals and rates overall, per day, per model, per index
// version and per topic, the drift alerts, and what the dashboard draws (a timeline of the four
// numbers in buckets of turns, and the turns where the model or the index version changed).
// `evident metrics --json` prints it; the dashboard renders it. The report's types are the
// domain's (src/domain/metricsReport.ts).

import type { AlertSettings, MetricsChange, MetricsReport, TimelinePoint } from '../../domain/metricsReport';
import { detectAlerts, DEFAULT_ALERT_SETTINGS } from './alerts';
import { readLogText } from './logFile';
import { groupBy, summarize } from './summary';
import { parseMetricsLog, type TurnPoint } from './turnRecords';

export interface ReportOptions {
  /** Only turns at or after this time. */
  since?: Date;
  alerts?: Partial<AlertSettings>;
  /** Read only about the last this many bytes of the log (the most recent turns). */
  tailBytes?: number;
}

/** At most this many points on the timeline (turns are grouped into equal buckets). */
export const MAX_TIMELINE_POINTS = 60;

export async function readMetricsReport(metricsLog: string, options: ReportOptions = {}): Promise<MetricsReport> {
  return metricsReport(await readLogText(metricsLog, options.tailBytes), options);
}

export function metricsReport(logText: string, options: ReportOptions = {}): MetricsReport {
  const parsed = parseMetricsLog(logText);
  const since = options.since?.getTime();
  const turns = since === undefined ? parsed.turns : parsed.turns.filter((t) => t.time >= since);
  const alertSettings = { ...DEFAULT_ALERT_SETTINGS, ...options.alerts };
  const record = (key: (t: TurnPoint) => string) =>
    Object.fromEntries([...groupBy(turns, key)].map(([k, list]) => [k, summarize(list)]));
  return {
    turns: turns.length,
    overall: summarize(turns),
    byDay: [...groupBy(turns, dayOf)].map(([day, list]) => ({ day, ...summarize(list) })),
    byModel: record((t) => t.model),
    byIndexVersion: record((t) => t.indexVersion),
    byTopic: record((t) => t.topic),
    alerts: detectAlerts(turns, alertSettings),
    ...(turns.length ? { from: iso(turns[0].time), to: iso(turns[turns.length - 1].time) } : {}),
    timeline: timeline(turns),
    changes: changes(turns),
    alertSettings,
    skippedLines: parsed.skipped,
  };
}

function dayOf(t: TurnPoint): string {
  return iso(t.time).slice(0, 10);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function timeline(turns: readonly TurnPoint[]): TimelinePoint[] {
  const size = Math.max(1, Math.ceil(turns.length / MAX_TIMELINE_POINTS));
  const points: TimelinePoint[] = [];
  for (let start = 0; start < turns.length; start += size) {
    const bucket = turns.slice(start, start + size);
    const s = summarize(bucket);
    points.push({
      firstTurn: start + 1,
      lastTurn: start + bucket.length,
      from: iso(bucket[0].time),
      to: iso(bucket[bucket.length - 1].time),
      meanRetrieved: s.meanRetrieved,
      meanCoverage: s.meanCoverage,
      dropRate: s.dropRate,
      abstentionRate: s.abstentionRate,
    });
  }
  return points;
}

function changes(turns: readonly TurnPoint[]): MetricsChange[] {
  const out: MetricsChange[] = [];
  for (let i = 1; i < turns.length; i++) {
    const [a, b] = [turns[i - 1], turns[i]];
    if (a.model !== b.model) out.push({ turn: i + 1, time: iso(b.time), kind: 'model', from: a.model, to: b.model });
    if (a.indexVersion !== b.indexVersion) {
      out.push({ turn: i + 1, time: iso(b.time), kind: 'index', from: a.indexVersion, to: b.indexVersion });
    }
  }
  return out;
}
