// The metrics dashboard's DOM: the alerts on top, then line charts of the four numbers over the
// turns (with model and index markers), bars by topic and by model, and the same data as tables
// (the accessible alternative to the charts). Every text from the report (model names, topics,
// reasons) goes in through textContent: nothing from the log becomes markup.
//
// Stable selectors for end-to-end tests (data-testid): metrics-dashboard · metrics-summary ·
// metrics-alerts · metrics-alert [data-metric][data-rule] · metrics-no-alerts · metrics-empty ·
// metrics-error · chart-line [data-series] · chart-topic · chart-model · chart-legend ·
// chart-changes (the key of the markers: change [data-kind]) · alert-headline · alert-detail ·
// alert-advice · alert-reason · metrics-tables · table-timeline · table-topic · table-model ·
// table-index · refresh · open-log

import type uPlot from 'uplot';
import type { MetricsChange, MetricsSummary, TimelinePoint } from '../../domain/metricsReport';
import { describeAlert } from '../../domain/alertWording';
import type { MetricsReportView } from '../../shared/metricsProtocol';
import { barChart, lineChart, readTheme } from './charts';
import { num, pct, RULE_LABEL, SERIES, shortTime } from './format';

export type DashboardAction = 'refresh' | 'openLog';

/** The bar charts' two series (the colours charts.ts draws them in). */
const BAR_SERIES: [string, string][] = [
  ['Abstention rate', '--vscode-charts-orange'],
  ['Drop rate', '--vscode-charts-red'],
];

export class DashboardView {
  private charts: uPlot[] = [];
  private report: MetricsReportView | undefined;
  private logFile = '';

  constructor(
    private readonly doc: Document,
    private readonly root: HTMLElement,
    private readonly act: (action: DashboardAction) => void,
  ) {}

  showReport(report: MetricsReportView, logFile: string): void {
    this.report = report;
    this.logFile = logFile;
    this.render();
  }

  showError(message: string): void {
    this.clear();
    this.root.append(
      this.header(),
      this.el('p', { testid: 'metrics-error', className: 'error', role: 'alert' }, message),
    );
    this.root.removeAttribute('aria-busy');
  }

  /** Redraws with the current theme and width (theme change, resize). */
  render(): void {
    const report = this.report;
    if (!report) return;
    this.clear();
    this.root.removeAttribute('aria-busy');
    this.root.append(this.header(report));
    this.root.append(this.alerts(report));
    if (report.turns === 0) {
      this.root.append(
        this.el(
          'p',
          { testid: 'metrics-empty', className: 'empty' },
          'No turns yet. Each question asked in this workspace adds its four numbers to the log; come back after a few answers.',
        ),
      );
      return;
    }
    const theme = readTheme(this.doc.body);
    const width = Math.max(280, Math.min(this.root.clientWidth - 24, 1200));
    const lineWidth = width >= 760 ? Math.floor((width - 24) / 2) : width;

    const lines = this.section(
      'Over time',
      `Turns 1–${report.turns}, ${report.timeline.length} points${report.timeline.length && report.timeline.length < report.turns ? ` (each the mean of ${report.timeline[0].lastTurn} turns)` : ''}.${report.changes.length ? ' Numbered lines mark a change of model (dashed) or of the index (dotted); the key is below the charts.' : ''}`,
    );
    const grid = this.el('div', { className: 'grid' });
    for (const series of report.timeline.length ? SERIES : []) {
      const figure = this.el('figure', { testid: 'chart-line', className: 'chart' });
      figure.dataset.series = series.key;
      figure.append(this.el('figcaption', {}, series.label));
      const plot = this.el('div', { className: 'plot' });
      figure.append(plot, this.lineLegend(series, report.timeline));
      grid.append(figure);
      this.charts.push(lineChart(plot, report.timeline, report.changes, series, theme, lineWidth));
    }
    lines.append(grid);
    if (report.changes.length) lines.append(this.changesKey(report.changes));
    this.root.append(lines);

    const groups = this.el('div', { className: 'grid' });
    const topics = sortedGroups(report.byTopic);
    const models = sortedGroups(report.byModel);
    groups.append(
      this.bars('chart-topic', 'Abstention and drop rate by topic', topics, lineWidth),
      this.bars('chart-model', 'Abstention and drop rate by model', models, lineWidth),
    );
    const bySection = this.section(
      'By topic and model',
      'Topic: the top folder (or first heading) of the documents an answer cited, or retrieved for an abstention.',
    );
    bySection.append(groups);
    this.root.append(bySection);
    this.root.append(this.tables(report));
  }

  dispose(): void {
    this.clear();
  }

  private clear(): void {
    for (const c of this.charts) c.destroy();
    this.charts = [];
    this.root.replaceChildren();
  }

  private header(report?: MetricsReportView): HTMLElement {
    const header = this.el('header', { className: 'header' });
    header.append(this.el('h1', {}, 'Evident Metrics'));
    if (report) {
      const o = report.overall;
      const span = report.from && report.to ? ` from ${shortTime(report.from)} to ${shortTime(report.to)} UTC` : '';
      header.append(
        this.el(
          'p',
          { testid: 'metrics-summary', className: 'summary' },
          `${report.turns} turns${span} · abstention ${pct(o.abstentionRate)} · drop rate ${pct(o.dropRate)} · coverage ${pct(o.meanCoverage)} · ${num(o.meanRetrieved)} passages retrieved per turn`,
        ),
      );
    }
    const actions = this.el('div', { className: 'actions' });
    actions.append(
      this.button('refresh', 'Refresh', () => this.act('refresh')),
      this.button('open-log', 'Open Raw Log', () => this.act('openLog')),
    );
    if (this.logFile) actions.title = this.logFile;
    header.append(actions);
    return header;
  }

  /** Under a line chart: its colour and name, and its latest value (uPlot's legend was empty until hovered). */
  private lineLegend(series: (typeof SERIES)[number], timeline: TimelinePoint[]): HTMLElement {
    const legend = this.el('p', { testid: 'chart-legend', className: 'legend' });
    const swatch = this.el('span', { className: 'swatch' });
    swatch.style.background = `var(${series.color})`;
    swatch.setAttribute('aria-hidden', 'true');
    const last = [...timeline].reverse().find((p) => p[series.key] !== null)?.[series.key];
    const value = last === undefined || last === null ? 'no value yet' : series.rate ? pct(last) : num(last);
    legend.append(swatch, this.el('span', {}, `${series.label} · latest ${value}`));
    return legend;
  }

  /** What each numbered marker on the charts stands for. */
  private changesKey(changes: MetricsChange[]): HTMLElement {
    const key = this.el('ol', { testid: 'chart-changes', className: 'changes-key' });
    key.setAttribute('aria-label', 'Changes marked on the charts');
    for (const c of changes) {
      const item = this.el('li', { className: `change change-${c.kind}` });
      item.dataset.kind = c.kind;
      const what =
        c.kind === 'model' ? `the model changed from ${c.from} to ${c.to}` : `the index changed (${c.from} → ${c.to})`;
      item.append(
        this.el('span', { className: 'change-line' }),
        this.el('span', {}, `turn ${c.turn}, ${shortTime(c.time)} UTC: ${what}`),
      );
      key.append(item);
    }
    return key;
  }

  private alerts(report: MetricsReportView): HTMLElement {
    const section = this.el('section', { testid: 'metrics-alerts', className: 'alerts' });
    section.setAttribute('aria-label', 'Alerts');
    if (!report.alerts.length) {
      section.append(
        this.el(
          'p',
          { testid: 'metrics-no-alerts', className: 'no-alerts' },
          'No alerts: no rate has moved for the worse by more than chance would.',
        ),
      );
      return section;
    }
    section.setAttribute('role', 'region');
    section.append(this.el('h2', {}, `${report.alerts.length} alert${report.alerts.length > 1 ? 's' : ''}`));
    const list = this.el('ul', {});
    for (const a of report.alerts) {
      const item = this.el('li', { testid: 'metrics-alert', className: 'alert' });
      item.dataset.metric = a.metric;
      item.dataset.rule = a.rule;
      // What changed and what to do, in plain words; the statistics behind it on request.
      const words = describeAlert(a, report.changes);
      const title = this.el('strong', { testid: 'alert-headline' }, words.headline);
      const where = this.el(
        'span',
        { className: 'rule' },
        `${RULE_LABEL[a.rule]}${a.topic ? ` “${a.topic}”` : ''} · ${pct(a.baseline.rate)} → ${pct(a.recent.rate)}`,
      );
      const advice = this.el('p', { testid: 'alert-advice', className: 'advice' });
      advice.append(this.el('strong', {}, 'What to do: '), this.doc.createTextNode(words.advice));
      const how = this.el('details', { className: 'how' });
      how.append(this.el('summary', {}, 'How this was measured'), this.el('p', { testid: 'alert-reason' }, a.reason));
      item.append(title, where, this.el('p', { testid: 'alert-detail' }, words.detail), advice, how);
      list.append(item);
    }
    section.append(list);
    return section;
  }

  private bars(testid: string, title: string, groups: [string, MetricsSummary][], width: number): HTMLElement {
    const figure = this.el('figure', { testid, className: 'chart' });
    figure.append(this.el('figcaption', {}, title));
    const plot = this.el('div', { className: 'plot' });
    figure.append(plot);
    if (groups.length) {
      this.charts.push(barChart(plot, groups, title, readTheme(this.doc.body), width));
      const legend = this.el('p', { testid: 'chart-legend', className: 'legend' });
      for (const [label, colour] of BAR_SERIES) {
        const swatch = this.el('span', { className: 'swatch' });
        swatch.style.background = `var(${colour})`;
        swatch.setAttribute('aria-hidden', 'true');
        const entry = this.el('span', {});
        entry.append(swatch, this.doc.createTextNode(label));
        legend.append(entry);
      }
      figure.append(legend);
    } else figure.append(this.el('p', { className: 'note' }, 'No turns yet.'));
    return figure;
  }

  private tables(report: MetricsReportView): HTMLElement {
    const details = this.el('details', { testid: 'metrics-tables', className: 'tables' });
    details.append(this.el('summary', {}, 'Data tables (the values behind the charts)'));
    details.append(
      this.table(
        'table-timeline',
        'Over time',
        ['Turns', 'From', 'Abstention rate', 'Drop rate', 'Coverage', 'Retrieved'],
        report.timeline.map((p) => [
          p.firstTurn === p.lastTurn ? String(p.firstTurn) : `${p.firstTurn}–${p.lastTurn}`,
          shortTime(p.from),
          pct(p.abstentionRate),
          pct(p.dropRate),
          pct(p.meanCoverage),
          num(p.meanRetrieved),
        ]),
      ),
      this.table(
        'table-changes',
        'Changes',
        ['Turn', 'Time', 'What', 'From', 'To'],
        report.changes.map((c) => [
          String(c.turn),
          shortTime(c.time),
          c.kind === 'model' ? 'model' : 'index version',
          c.from,
          c.to,
        ]),
      ),
      this.summaryTable('table-topic', 'By topic', 'Topic', report.byTopic),
      this.summaryTable('table-model', 'By model', 'Model', report.byModel),
      this.summaryTable('table-index', 'By index version', 'Index version', report.byIndexVersion),
    );
    return details;
  }

  private summaryTable(
    testid: string,
    caption: string,
    first: string,
    groups: Record<string, MetricsSummary>,
  ): HTMLElement {
    return this.table(
      testid,
      caption,
      [first, 'Turns', 'Abstained', 'Abstention rate', 'Drop rate', 'Coverage', 'Retrieved'],
      sortedGroups(groups).map(([name, s]) => [
        name,
        String(s.turns),
        String(s.abstained),
        pct(s.abstentionRate),
        pct(s.dropRate),
        pct(s.meanCoverage),
        num(s.meanRetrieved),
      ]),
    );
  }

  private table(testid: string, caption: string, head: string[], rows: string[][]): HTMLElement {
    const table = this.el('table', { testid });
    table.append(this.el('caption', {}, caption));
    const thead = this.el('thead', {});
    const hr = this.el('tr', {});
    for (const h of head) {
      const th = this.el('th', {}, h);
      th.setAttribute('scope', 'col');
      hr.append(th);
    }
    thead.append(hr);
    const tbody = this.el('tbody', {});
    for (const r of rows) {
      const tr = this.el('tr', {});
      r.forEach((cell, i) => {
        const td = this.el(i === 0 ? 'th' : 'td', {}, cell);
        if (i === 0) td.setAttribute('scope', 'row');
        tr.append(td);
      });
      tbody.append(tr);
    }
    if (!rows.length) {
      const tr = this.el('tr', {});
      const td = this.el('td', {}, 'none');
      td.setAttribute('colspan', String(head.length));
      tr.append(td);
      tbody.append(tr);
    }
    table.append(thead, tbody);
    return table;
  }

  private section(title: string, note: string): HTMLElement {
    const section = this.el('section', { className: 'section' });
    section.append(this.el('h2', {}, title), this.el('p', { className: 'note' }, note));
    return section;
  }

  private button(testid: string, label: string, onClick: () => void): HTMLButtonElement {
    const b = this.el('button', { testid }, label);
    b.type = 'button';
    b.addEventListener('click', onClick);
    return b;
  }

  private el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    opts: { testid?: string; className?: string; role?: string },
    text?: string,
  ): HTMLElementTagNameMap[K] {
    const e = this.doc.createElement(tag);
    if (opts.testid) e.dataset.testid = opts.testid;
    if (opts.className) e.className = opts.className;
    if (opts.role) e.setAttribute('role', opts.role);
    if (text !== undefined) e.textContent = text;
    return e;
  }
}

/** Largest groups first (the ones that matter most), then by name. */
function sortedGroups(groups: Record<string, MetricsSummary>): [string, MetricsSummary][] {
  return Object.entries(groups).sort((a, b) => b[1].turns - a[1].turns || a[0].localeCompare(b[0]));
}
