// The dashboard charts' theme (src/webview/metrics/charts.ts) under jsdom: colours and font from
// the VS Code theme's CSS variables, with fallbacks when a theme leaves one unset. (The charts
// themselves need a canvas: e2e/checks/metrics.check.ts draws them in a real browser.)

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { MARKER_DASH, readTheme } from '../../../../src/webview/metrics/charts';

function rootWith(style: string): HTMLElement {
  const dom = new JSDOM(`<!doctype html><html><body><main id="app" style="${style}"></main></body></html>`);
  return dom.window.document.getElementById('app') as HTMLElement;
}

describe('metrics charts theme', () => {
  it("reads the theme's colours and font, and a chart colour by its variable", () => {
    const theme = readTheme(
      rootWith(
        '--vscode-foreground: #111111; --vscode-editor-background: #fafafa; --vscode-editorWidget-border: #cccccc; --vscode-font-size: 12px; --vscode-font-family: Inter; --vscode-charts-red: #e51400',
      ),
    );
    assert.equal(theme.foreground, '#111111');
    assert.equal(theme.background, '#fafafa');
    assert.equal(theme.grid, '#cccccc');
    assert.equal(theme.font, '12px Inter');
    assert.equal(theme.color('--vscode-charts-red'), '#e51400');
  });

  it('falls back when the theme leaves a variable unset: the panel border for the grid, the foreground for a chart colour', () => {
    const theme = readTheme(rootWith('--vscode-foreground: #222222; --vscode-panel-border: #333333'));
    assert.equal(theme.grid, '#333333');
    assert.equal(theme.color('--vscode-charts-green'), '#222222');
    const bare = readTheme(rootWith(''));
    assert.deepEqual(
      [bare.foreground, bare.background, bare.grid, bare.font],
      ['#cccccc', '#1e1e1e', '#80808040', '13px sans-serif'],
    );
  });

  it('draws model changes dashed and index changes dotted (two different patterns)', () => {
    assert.notDeepEqual(MARKER_DASH.model, MARKER_DASH.index);
    assert.ok(MARKER_DASH.model[0] > MARKER_DASH.index[0], 'the model marker has the longer dashes');
  });
});
