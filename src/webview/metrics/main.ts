// Entry point of the metrics dashboard webview (bundled with the chart library to
// dist/metricsView.js, loaded by nonce only when "Evident: Show Metrics" opens the panel): checks
// every message from the host with the metrics protocol guards, redraws on theme change and
// resize, and sends the ready handshake.

import 'uplot/dist/uPlot.min.css';
import './dashboard.css';
import { isMetricsHostToWebview, type MetricsWebviewToHost } from '../../shared/metricsProtocol';
import { DashboardView } from './dashboardView';

interface VsCodeApi {
  postMessage(message: MetricsWebviewToHost): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app');
if (!root) throw new Error('Evident metrics: #app element missing');

const view = new DashboardView(document, root, (action) => vscode.postMessage({ type: action }));

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isMetricsHostToWebview(message)) {
    console.warn('Evident metrics: ignored a malformed message from the host');
    return;
  }
  if (message.type === 'report') view.showReport(message.report, message.logFile);
  else view.showError(message.message);
});

// VS Code swaps the body's theme class (vscode-dark, vscode-light, vscode-high-contrast…).
new MutationObserver(() => view.render()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
// Redraw when the width changes (not the height, which the charts themselves change).
let resizeTimer: ReturnType<typeof setTimeout> | undefined;
let lastWidth = document.body.clientWidth;
new ResizeObserver(() => {
  if (document.body.clientWidth === lastWidth) return;
  lastWidth = document.body.clientWidth;
  if (resizeTimer) clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => view.render(), 150);
}).observe(document.body);

vscode.postMessage({ type: 'ready' });
