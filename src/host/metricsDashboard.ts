// "Evident: Show Metrics": the metrics dashboard, a webview panel with the turn log's charts,
// tables and drift alerts (the report comes from core, through the lazily loaded engine bundle),
// and the notification that offers it when a new alert fires after a turn. The dashboard's own
// bundle (dist/metricsView.js, with the chart library) loads only when the panel opens.
// Strict CSP (nonce script, styles from the extension only), resources only from dist/, every
// inbound message checked against src/shared/metricsProtocol.ts.

import * as vscode from 'vscode';
import { Commands, METRICS_PANEL } from '../shared/ids';
import { describeAlert } from '../domain/alertWording';
import { isMetricsWebviewToHost, type MetricsHostToWebview, type MetricsReportView } from '../shared/metricsProtocol';
import type { ChatSession } from './chatSession';
import { loadEngineApi } from './engineLoader';
import { errorMessage } from './log';
import { readAlertSettings } from './settings';
import { webviewHtml } from './webviewHtml';
import type { WorkspaceIndex } from './workspaceIndex';

/**
 * After a turn, only the latest ~2 MB of the log (about 8,000 turns: far more than the alert
 * windows) are read, so the check stays quick however large the log grows; the dashboard reads it all.
 */
const AFTER_TURN_TAIL_BYTES = 2 * 1024 * 1024;

/** workspaceState key: the alerts already notified (so a standing alert is said once). */
const NOTIFIED_KEY = 'evident.metrics.notifiedAlerts';

export interface MetricsDashboardDeps {
  index: WorkspaceIndex;
  session: ChatSession;
  log: vscode.LogOutputChannel;
}

export class MetricsDashboard implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private panelDisposables: vscode.Disposable[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: MetricsDashboardDeps,
  ) {
    this.disposables.push(
      deps.session.onDidChange((event) => {
        if (event.type === 'turn' && event.turn.status === 'done' && event.turn.result) void this.afterTurn();
      }),
    );
  }

  /** Opens the dashboard (or brings it forward) and draws the latest report. */
  show(): void {
    if (this.panel) {
      this.panel.reveal();
      void this.send();
      return;
    }
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(METRICS_PANEL, 'Evident Metrics', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
      retainContextWhenHidden: false,
    });
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'media', 'evident.svg');
    this.panel = panel;
    this.ready = false;
    panel.webview.html = this.html(panel.webview);
    this.panelDisposables = [
      panel.webview.onDidReceiveMessage((message: unknown) => {
        if (!isMetricsWebviewToHost(message)) {
          this.deps.log.warn('Metrics dashboard: ignored a malformed message from the webview.');
          return;
        }
        if (message.type === 'ready') this.ready = true;
        if (message.type === 'openLog') void vscode.commands.executeCommand(Commands.openMetrics);
        else void this.send();
      }),
      panel.onDidDispose(() => {
        for (const d of this.panelDisposables) d.dispose();
        this.panelDisposables = [];
        this.panel = undefined;
        this.ready = false;
      }),
    ];
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }

  /** After each answered turn (chat view, @evident): redraw an open dashboard; notify (once) of alerts that are new. */
  async afterTurn(): Promise<void> {
    try {
      if (this.panel && this.ready) await this.send();
      const report = await this.report(AFTER_TURN_TAIL_BYTES);
      if (!report) return;
      const keys = report.alerts.map(alertKey);
      const notified = new Set(this.context.workspaceState.get<string[]>(NOTIFIED_KEY, []));
      // A key that stopped firing is forgotten, so a later return of the same alert is said again.
      await this.context.workspaceState.update(NOTIFIED_KEY, keys);
      const fresh = report.alerts.filter((a) => !notified.has(alertKey(a)));
      if (!fresh.length || !readAlertSettings().notify) return;
      const more =
        fresh.length > 1 ? ` (${fresh.length - 1} more alert${fresh.length > 2 ? 's' : ''} on the dashboard)` : '';
      this.deps.log.warn(`Metrics alert: ${fresh.map((a) => a.reason).join(' | ')}`);
      // What changed and what to do, in plain words (the statistics are in the log and on the dashboard).
      const words = describeAlert(fresh[0], report.changes);
      const choice = await vscode.window.showWarningMessage(
        `Evident: ${words.headline}. ${words.detail} ${words.advice}${more}`,
        'Show Metrics',
      );
      if (choice) this.show();
    } catch (error) {
      this.deps.log.warn(`Metrics after a turn: ${errorMessage(error)}`);
    }
  }

  private async report(tailBytes?: number): Promise<MetricsReportView | undefined> {
    const file = this.deps.index.metricsLogPath;
    if (!file) return undefined;
    return loadEngineApi().readMetricsReport(file, { alerts: readAlertSettings().thresholds, tailBytes });
  }

  private async send(): Promise<void> {
    if (!this.panel || !this.ready) return;
    try {
      const report = await this.report();
      if (!report) throw new Error('Open a folder first: the metrics come from the turns asked in a workspace.');
      this.post({ type: 'report', report, logFile: this.deps.index.metricsLogPath ?? '' });
    } catch (error) {
      this.deps.log.error(`Metrics dashboard: ${errorMessage(error)}`);
      this.post({ type: 'error', message: errorMessage(error) });
    }
  }

  private post(message: MetricsHostToWebview): void {
    void this.panel?.webview.postMessage(message);
  }

  private html(webview: vscode.Webview): string {
    return webviewHtml(webview, this.context.extensionUri, {
      title: 'Evident Metrics',
      stylesheets: [{ path: 'dist/metricsView.css' }],
      body: '<main id="app" data-testid="metrics-dashboard" aria-busy="true"><p>Loading metrics…</p></main>',
      script: 'dist/metricsView.js',
    });
  }
}

function alertKey(a: { rule: string; metric: string; topic?: string }): string {
  return `${a.rule}|${a.metric}|${a.topic ?? ''}`;
}

export function registerMetricsDashboard(
  context: vscode.ExtensionContext,
  deps: MetricsDashboardDeps,
): MetricsDashboard {
  const dashboard = new MetricsDashboard(context, deps);
  context.subscriptions.push(dashboard);
  return dashboard;
}
