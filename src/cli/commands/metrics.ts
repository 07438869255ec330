// `evident metrics (--docs DIR | --store URL) [--index-dir DIR] [--since DATE] [--json]`: reads the turn log of
// that index and prints totals and rates overall, per day, model, index version and topic, with
// the drift alerts (thresholds as flags). Reads only: it never opens or builds the index.

import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError, type CliCommand } from '../io';
import { numberFlag, resolveIndexDir, storeLogDir, turnLogPaths } from '../setup';
import type { AlertSettings, MetricsReport, MetricsSummary } from '../../domain/metricsReport';
import { readMetricsReport } from '../../core/metrics/metricsReport';
import { DEFAULT_ALERT_SETTINGS } from '../../core/metrics/alerts';

const d = DEFAULT_ALERT_SETTINGS;
const HELP = `Usage: evident metrics --docs DIR [--index-dir DIR] [--since DATE] [--json]
       evident metrics --store postgres://… [--index-dir DIR] [--since DATE] [--json]

Reads the turn log kept with the index of DIR (or this machine's log of a shared index) (every "ask" and "eval" adds one line per turn) and
prints the four numbers per turn as totals and rates: overall, per day, per model, per index
version and per topic (the area of the documents an answer cited), and the drift alerts.

Options:
  --docs DIR             the docs folder whose index keeps the log
  --store URL            a shared index: the log "evident ask --store URL" keeps on this machine
  --index-dir DIR        the index folder, when it is not the default cache folder
  --since DATE           only turns at or after DATE (YYYY-MM-DD, or an ISO time)
  --json                 print the report as one JSON object
Alert thresholds (an alert needs the minimum counts on both sides, |z| and the change):
  --recent-turns N       turns in the recent window (default ${d.recentTurns})
  --baseline-turns N     at most this many turns of baseline before it (default ${d.baselineTurns})
  --min-turns N          turns needed on each side (default ${d.minTurns})
  --min-sentences N      factual sentences needed on each side for the drop rate (default ${d.minSentences})
  --z N                  |z| of the test at or above which a change counts (default ${d.z})
  --min-change N         smallest change of a rate that counts, 0..1 (default ${d.minChange})
  -h, --help             show this help
`;

const ALERT_FLAGS = {
  'recent-turns': ['recentTurns', 1, 100_000],
  'baseline-turns': ['baselineTurns', 1, 1_000_000],
  'min-turns': ['minTurns', 2, 100_000],
  'min-sentences': ['minSentences', 2, 1_000_000],
  z: ['z', 0, 100],
  'min-change': ['minChange', 0, 1],
} as const satisfies Record<string, [keyof AlertSettings, number, number]>;

export const metrics: CliCommand = async (argv, io) => {
  const alertOptions = Object.fromEntries(Object.keys(ALERT_FLAGS).map((k) => [k, { type: 'string' as const }]));
  const { values } = parseArgs({
    args: argv,
    options: {
      docs: { type: 'string' },
      store: { type: 'string' },
      'index-dir': { type: 'string' },
      since: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...alertOptions,
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  if (values.store !== undefined && values.docs !== undefined) {
    throw new CliError('give one of --docs DIR or --store URL.');
  }
  const indexDir = values.store !== undefined ? storeLogDir(values, io) : resolveIndexDir(values, io).indexDir;
  const alerts: Partial<AlertSettings> = {};
  for (const [flag, [field, min, max]] of Object.entries(ALERT_FLAGS)) {
    const v = numberFlag((values as Record<string, string | undefined>)[flag], flag, min, max);
    if (v !== undefined) alerts[field] = v;
  }
  const since = values.since === undefined ? undefined : parseSince(values.since);
  const { metricsLog } = turnLogPaths(indexDir);
  if (!existsSync(metricsLog)) {
    io.stderr(`evident: no turn log yet at ${metricsLog} (each "ask" adds one line per turn).\n`);
  }
  const report = await readMetricsReport(metricsLog, { since, alerts });
  if (report.skippedLines) {
    io.stderr(`evident: skipped ${report.skippedLines} line(s) of ${metricsLog} that are not metrics records.\n`);
  }
  io.stdout(values.json ? `${JSON.stringify(report)}\n` : formatReport(report, metricsLog));
  return 0;
};

function parseSince(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) {
    throw new CliError(`--since must be a date (YYYY-MM-DD) or an ISO time (got "${value}").`);
  }
  return date;
}

const pct = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(1)}%`);

export function formatReport(report: MetricsReport, logFile: string): string {
  const lines: string[] = [];
  const span =
    report.from && report.to
      ? ` from ${report.from.slice(0, 16).replace('T', ' ')} to ${report.to.slice(0, 16).replace('T', ' ')} UTC`
      : '';
  lines.push(`Turns: ${report.turns}${span}`, `Log: ${logFile}`, '');
  if (report.alerts.length) {
    lines.push(`ALERTS (${report.alerts.length})`);
    for (const a of report.alerts) lines.push(`  ! [${a.rule}${a.topic ? `: ${a.topic}` : ''}] ${a.reason}`);
  } else {
    lines.push('No alerts.');
  }
  lines.push('');
  const sections: [string, [string, MetricsSummary][]][] = [
    ['OVERALL', [['all turns', report.overall]]],
    ['BY DAY', report.byDay.map((r) => [r.day, r])],
    ['BY MODEL', Object.entries(report.byModel)],
    ['BY INDEX VERSION', Object.entries(report.byIndexVersion)],
    ['BY TOPIC', Object.entries(report.byTopic)],
  ];
  for (const [title, rows] of sections) {
    if (!rows.length) continue;
    lines.push(title, ...table(rows), '');
  }
  return `${lines.join('\n')}\n`;
}

function table(rows: [string, MetricsSummary][]): string[] {
  const header = ['', 'turns', 'abstained', 'abstention', 'drop rate', 'coverage', 'retrieved'];
  const body = rows.map(([name, s]) => [
    name,
    String(s.turns),
    String(s.abstained),
    pct(s.abstentionRate),
    pct(s.dropRate),
    pct(s.meanCoverage),
    s.meanRetrieved.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    `  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`.trimEnd();
  return [fmt(header), ...body.map(fmt)];
}
