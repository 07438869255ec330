// The dashboard's charts, drawn with uPlot (bundled into dist/metricsView.js only): a line chart
// per number over the turns, with a numbered marker where the model changed (dashed) or the index
// version changed (dotted) — the labels never overlap (markerLabels.ts) and the key under the
// charts says what each number is — and bar charts by topic and by model. uPlot's own legend
// (cursor values, empty until hovered) is off: each chart gets a legend of its own in the page
// (dashboardView.ts). Colours come from the VS Code theme's CSS variables, read when drawing (the
// dashboard redraws when the theme changes); the markers use the foreground colour, which holds
// 3:1 in every kind of theme. Each chart is an image to assistive technology (role="img" with a
// summary); the data tables carry the values.

import uPlot from 'uplot';
import type { MetricsChange, MetricsSummary, TimelinePoint } from '../../domain/metricsReport';
import { num, pct, SERIES } from './format';
import { placeMarkerLabels } from './markerLabels';

export interface Theme {
  foreground: string;
  background: string;
  grid: string;
  font: string;
  color(variable: string): string;
}

/** How each kind of change is drawn (the key under the charts uses the same). */
export const MARKER_DASH: Record<MetricsChange['kind'], number[]> = { model: [6, 4], index: [2, 3] };

export function readTheme(root: HTMLElement): Theme {
  const style = (root.ownerDocument.defaultView ?? window).getComputedStyle(root);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const foreground = v('--vscode-foreground', '#cccccc');
  return {
    foreground,
    background: v('--vscode-editor-background', '#1e1e1e'),
    grid: v('--vscode-editorWidget-border', v('--vscode-panel-border', '#80808040')),
    font: `${v('--vscode-font-size', '13px')} ${v('--vscode-font-family', 'sans-serif')}`,
    color: (name) => v(name, foreground),
  };
}

function axis(theme: Theme, values?: uPlot.Axis['values']): uPlot.Axis {
  return {
    stroke: theme.foreground,
    font: theme.font,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { stroke: theme.grid, width: 1 },
    ...(values ? { values } : {}),
  };
}

/**
 * A vertical line at each turn where the model (dashed) or the index version (dotted) changed,
 * with its number (1, 2… in the order of the changes) in a box at the top, on the first row where
 * it does not touch the box of a nearby marker.
 */
function markersPlugin(changes: MetricsChange[], theme: Theme): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u: uPlot) => {
          const ctx = u.ctx;
          const { top, height } = u.bbox;
          const dpr = devicePixelRatio;
          const fontPx = 11 * dpr;
          ctx.save();
          ctx.font = `${fontPx}px ${theme.font.split(' ').slice(1).join(' ')}`;
          const xs = changes.map((c) => Math.round(u.valToPos(c.turn - 0.5, 'x', true)));
          const boxW = (n: number) => ctx.measureText(String(n)).width + 6 * dpr;
          const widest = Math.max(0, ...changes.map((_, i) => boxW(i + 1)));
          const rows = placeMarkerLabels(xs, widest, 2 * dpr);
          const boxH = fontPx + 4 * dpr;
          changes.forEach((c, i) => {
            const x = xs[i];
            ctx.strokeStyle = theme.foreground;
            ctx.lineWidth = 1.5 * dpr;
            ctx.setLineDash(MARKER_DASH[c.kind].map((d) => d * dpr));
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            ctx.setLineDash([]);
            const y = top + 2 * dpr + rows[i] * (boxH + 2 * dpr);
            ctx.fillStyle = theme.background;
            ctx.fillRect(x, y, widest, boxH);
            ctx.lineWidth = dpr;
            ctx.strokeRect(x, y, widest, boxH);
            ctx.fillStyle = theme.foreground;
            ctx.textBaseline = 'middle';
            ctx.textAlign = 'left';
            ctx.fillText(String(i + 1), x + 3 * dpr, y + boxH / 2);
          });
          ctx.restore();
        },
      ],
    },
  };
}

export function lineChart(
  host: HTMLElement,
  timeline: TimelinePoint[],
  changes: MetricsChange[],
  series: (typeof SERIES)[number],
  theme: Theme,
  width: number,
): uPlot {
  const xs = timeline.map((p) => p.lastTurn);
  const ys = timeline.map((p) => {
    const v = p[series.key];
    return v === null ? null : series.rate ? v * 100 : v;
  });
  const last = [...ys].reverse().find((v) => v !== null);
  host.setAttribute('role', 'img');
  host.setAttribute(
    'aria-label',
    `${series.label} over ${xs.length ? xs[xs.length - 1] : 0} turns; latest ${last === undefined || last === null ? 'none' : series.rate ? `${last.toFixed(0)}%` : num(last)}. The values are in the data tables below.`,
  );
  const color = theme.color(series.color);
  return new uPlot(
    {
      width,
      height: 180,
      scales: {
        x: { time: false },
        y: series.rate ? { range: [0, 100] } : { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max))] },
      },
      axes: [axis(theme), axis(theme, (_u, vals) => vals.map((v) => (series.rate ? `${v}%` : String(v))))],
      series: [
        { label: 'turn' },
        {
          label: series.label,
          stroke: color,
          width: 2,
          points: { show: xs.length < 40 },
          value: (_u, v) => (v === null ? '—' : series.rate ? `${v.toFixed(1)}%` : num(v)),
        },
      ],
      // The page gives each chart its own legend (uPlot's shows cursor values: empty until hovered).
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      plugins: [markersPlugin(changes, theme)],
    },
    [xs, ys],
    host,
  );
}

export function barChart(
  host: HTMLElement,
  groups: [string, MetricsSummary][],
  title: string,
  theme: Theme,
  width: number,
): uPlot {
  const xs = groups.map((_, i) => i);
  const abst = groups.map(([, s]) => s.abstentionRate * 100);
  const drop = groups.map(([, s]) => (s.dropRate === null ? null : s.dropRate * 100));
  host.setAttribute('role', 'img');
  host.setAttribute(
    'aria-label',
    `${title}: ${groups.map(([name, s]) => `${name} abstention ${pct(s.abstentionRate)}, drop rate ${pct(s.dropRate)}`).join('; ')}.`,
  );
  const bars = (align: -1 | 1) => uPlot.paths.bars?.({ size: [0.35, 60], align });
  const label = (i: number) => {
    const name = groups[i]?.[0] ?? '';
    return name.length > 16 ? `${name.slice(0, 15)}…` : name;
  };
  return new uPlot(
    {
      width,
      height: 200,
      scales: { x: { time: false, range: [-0.6, groups.length - 0.4] }, y: { range: [0, 100] } },
      axes: [
        { ...axis(theme, (_u, vals) => vals.map((v) => (Number.isInteger(v) ? label(v) : ''))), grid: { show: false } },
        axis(theme, (_u, vals) => vals.map((v) => `${v}%`)),
      ],
      series: [
        {
          label: title.includes('topic') ? 'topic' : 'model',
          value: (_u, v) => (v === null ? '' : (groups[v]?.[0] ?? '')),
        },
        {
          label: 'Abstention rate',
          stroke: theme.color('--vscode-charts-orange'),
          fill: theme.color('--vscode-charts-orange'),
          paths: bars(-1),
          points: { show: false },
          value: (_u, v) => (v === null ? '—' : `${v.toFixed(1)}%`),
        },
        {
          label: 'Drop rate',
          stroke: theme.color('--vscode-charts-red'),
          fill: theme.color('--vscode-charts-red'),
          paths: bars(1),
          points: { show: false },
          value: (_u, v) => (v === null ? '—' : `${v.toFixed(1)}%`),
        },
      ],
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
    },
    [xs, abst, drop],
    host,
  );
}
