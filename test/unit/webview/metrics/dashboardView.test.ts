// The metrics dashboard under jsdom (no canvas here: the charts are checked in the real browser by
// e2e/checks/metrics.check.ts): the protocol guards, alerts on top, the data tables, text from the
// log kept as text, the empty state and the buttons.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { metricsReport } from '../../../../src/core/metrics/metricsReport';
import {
  isMetricsHostToWebview,
  isMetricsReportView,
  isMetricsWebviewToHost,
  type MetricsReportView,
} from '../../../../src/shared/metricsProtocol';
import { DashboardView, type DashboardAction } from '../../../../src/webview/metrics/dashboardView';
import { recordLines, repeat } from '../../../support/metricsRecords';

function setup() {
  const dom = new JSDOM('<!doctype html><html><body><main id="app"></main></body></html>');
  const doc = dom.window.document;
  const root = doc.getElementById('app') as HTMLElement;
  const actions: DashboardAction[] = [];
  const view = new DashboardView(doc, root, (a) => actions.push(a));
  const $$ = (id: string) => Array.from(root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`));
  return { root, view, actions, $$ };
}

describe('metrics dashboard view', () => {
  it("the protocol: core's report passes the guard; broken reports and unknown messages do not", () => {
    const report = metricsReport(recordLines([...repeat(40, {}), ...repeat(40, { abstained: true })]));
    assert.ok(isMetricsReportView(report));
    assert.ok(isMetricsHostToWebview({ type: 'report', report, logFile: '/x/metrics.jsonl' }));
    assert.ok(
      !isMetricsHostToWebview({
        type: 'report',
        report: { ...report, overall: { ...report.overall, abstentionRate: 2 } },
        logFile: '',
      }),
    );
    assert.ok(
      !isMetricsHostToWebview({ type: 'report', report: { ...report, alerts: [{ metric: 'nope' }] }, logFile: '' }),
    );
    assert.ok(!isMetricsHostToWebview({ type: 'script', code: 'x' }));
    assert.ok(isMetricsWebviewToHost({ type: 'refresh' }));
    assert.ok(!isMetricsWebviewToHost({ type: 'openLog', path: '/etc/passwd' }));
    assert.ok(!isMetricsWebviewToHost('ready'));
  });

  it('an empty log: no alerts, an empty state, working buttons', () => {
    const { view, $$, actions } = setup();
    view.showReport(metricsReport('') as MetricsReportView, '/x/metrics.jsonl');
    assert.equal($$('metrics-no-alerts').length, 1);
    assert.match($$('metrics-empty')[0].textContent ?? '', /No turns yet/);
    $$('refresh')[0].click();
    $$('open-log')[0].click();
    assert.deepEqual(actions, ['refresh', 'openLog']);
  });

  it('alerts come first with their rates, and tables carry every group; names from the log stay text', () => {
    const { root, view, $$ } = setup();
    const hostile = '<img src=x onerror=alert(1)>';
    const report = metricsReport(
      recordLines([...repeat(40, { model: hostile }), ...repeat(40, { abstained: true, topic: 'security' })]),
    ) as MetricsReportView;
    // Charts need a canvas (absent in jsdom): draw the rest by leaving the timeline empty.
    view.showReport({ ...report, timeline: [], byTopic: {}, byModel: {}, turns: report.turns }, '/x/metrics.jsonl');
    const sections = Array.from(root.children).map((e) => (e as HTMLElement).dataset.testid ?? e.tagName.toLowerCase());
    assert.deepEqual(sections.slice(0, 2), ['header', 'metrics-alerts'], 'alerts right under the header');
    const alert = $$('metrics-alert').find((a) => a.dataset.rule === 'recent');
    assert.ok(alert);
    assert.equal(alert.dataset.metric, 'abstained');
    // What changed and what to do, in plain words; the statistics only under "How this was measured".
    const part = (id: string) => alert.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
    assert.equal(part('alert-headline'), 'More questions go unanswered');
    assert.equal(
      part('alert-detail'),
      'Recently, 100% of questions were not answered from the documents, up from 20% before.',
    );
    assert.match(part('alert-advice'), /^What to do: .*add the documents that are missing/);
    assert.doesNotMatch(
      `${part('alert-headline')} ${part('alert-detail')} ${part('alert-advice')}`,
      /z =|z-test|Welch|threshold/,
      'statistics in the plain words',
    );
    assert.match(part('alert-reason'), /z = \d/, 'the statistics are still there, for whoever wants them');
    assert.equal(alert.querySelector('details')?.open, false);
    assert.match(alert.textContent ?? '', /20\.0% → 100\.0%/);
    assert.match($$('metrics-summary')[0].textContent ?? '', /^80 turns .* abstention 50\.0%/);
    const rows = Array.from(root.querySelectorAll('[data-testid="table-index"] tbody tr')).map((r) => r.textContent);
    assert.equal(rows.length, 1);
    assert.equal(root.querySelectorAll('img').length, 0);
  });
});
