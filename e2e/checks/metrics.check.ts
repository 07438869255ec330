// The metrics dashboard in a real browser: two real turns asked in the chat (both abstain) after a
// turn log history written with the same fields the core's writer writes (50 answered turns, a
// model change and an index change, then 30 abstentions); the second real turn raises the
// abstention alert, whose notification (in plain words) opens the dashboard: alerts on top, saying
// what changed and what to do, four line charts with numbered change markers and their key, a
// legend under every chart, bars by topic and by model, and the data tables; then the same in
// every kind of theme (text 4.5:1, the markers' colour 3:1), with a screenshot of each.

import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import { contrastRatio, failures, flatten, measureChatContrast, parseColor } from '../lib/contrast';
import { recordLines, repeat } from '../../test/support/metricsRecords';
import { ChatView } from '../lib/chatView';
import { paletteTitle } from '../lib/manifest';
import { session } from '../lib/session';
import { THEMES } from '../lib/themes';
import { editUserSettings } from '../lib/userSettings';
import { checkTitle, Workbench } from '../lib/workbench';

const OFF_TOPIC = ['What is the dress code at the Mars office?', 'Which submarine does the Antarctic team use?'];

/** The extension's workspace storage folder whose index belongs to `docsRoot`. */
async function storageFor(userDataDir: string, docsRoot: string): Promise<string> {
  const root = join(userDataDir, 'User', 'workspaceStorage');
  for (const hash of await readdir(root)) {
    const dir = join(root, hash, EXTENSION_ID);
    const manifest = join(dir, 'index', 'manifest.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(await readFile(manifest, 'utf8')) as { docsRoot: string }).docsRoot === docsRoot
    )
      return dir;
  }
  throw new Error(`no Evident workspace storage with an index of ${docsRoot} under ${root}`);
}

describe('metrics dashboard', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;

  after(async () => {
    await wb?.close();
  });

  it('opens from the alert notification with charts, markers, bars, tables and the abstention alert on top', async function () {
    const s = session();
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.metrics));
    s.current = wb;
    await wb.waitForExtensionContributions();
    await wb.runCommand(paletteTitle(Commands.reindex));
    await wb.page.waitForFunction(
      (id) => /lexical/i.test(document.querySelector(`.statusbar-item[id^="${id}"]`)?.textContent ?? ''),
      EXTENSION_ID,
      { timeout: 60_000 },
    );
    const chat = new ChatView(await wb.openChatView());

    const first = await chat.ask(OFF_TOPIC[0]);
    assert.equal(await chat.waitForStatus(first, ['done', 'failed', 'cancelled']), 'done');
    assert.equal(
      await first.locator('[data-testid="answer"]').getAttribute('data-abstained'),
      'true',
      'the off-topic question should abstain',
    );

    // The real turn's line, with a history before it: 50 answered turns (model change at 26, index change at 46), then 30 abstentions.
    const storage = await storageFor(s.server.userDataDir, s.workspaces.metrics);
    const logFile = join(storage, 'metrics.jsonl');
    const real = JSON.parse((await readFile(logFile, 'utf8')).trim().split('\n').pop() ?? '{}') as {
      time: string;
      indexVersion: string;
      topic: string | null;
    };
    assert.match(real.indexVersion, /^lexical@\d+$/);
    const topics = ['Policies', 'Handbook', 'Runbooks'];
    const history = repeat(80, (i) => ({
      model: i < 25 ? 'gemini-2.5-flash' : 'extractive',
      indexVersion: i < 45 ? 'lexical@1200' : real.indexVersion,
      abstained: i >= 50 || i % 12 === 0,
      factual: 3,
      dropped: i < 25 && i % 4 === 0 ? 1 : 0,
      topic: i >= 50 ? (real.topic ?? 'Policies') : topics[i % 3],
      retrieved: 5 + (i % 3),
    }));
    const start = Date.parse(real.time) - 81 * 60_000;
    await writeFile(logFile, recordLines(history, start) + (await readFile(logFile, 'utf8')));

    const second = await chat.ask(OFF_TOPIC[1]);
    assert.equal(await chat.waitForStatus(second, ['done', 'failed', 'cancelled']), 'done');

    // A non-modal notification offers the dashboard.
    const toast = wb.page
      .locator('.notifications-toasts .notification-toast', { hasText: /More questions go unanswered/ })
      .first();
    await toast.waitFor({ timeout: 20_000 }).catch(() => {
      throw new Error('no notification about the abstention alert after the turn');
    });
    await toast.locator('a.monaco-button, .monaco-button', { hasText: 'Show Metrics' }).first().click();

    const dash = wb.page
      .frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]:not([src*="purpose=webviewView"])`)
      .frameLocator('iframe#active-frame');
    const byId = (id: string) => dash.locator(`[data-testid="${id}"]`);
    await byId('chart-line')
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => {
        throw new Error('the metrics dashboard did not draw its charts within 30 s');
      });
    assert.match((await byId('metrics-summary').textContent()) ?? '', /^82 turns/);
    const alerts = byId('metrics-alert');
    assert.ok((await alerts.count()) >= 1);
    assert.equal(
      await dash.locator('[data-testid="metrics-alert"][data-metric="abstained"][data-rule="recent"]').count(),
      1,
    );
    const recent = dash.locator('[data-testid="metrics-alert"][data-rule="recent"]');
    assert.equal(await recent.locator('[data-testid="alert-headline"]').textContent(), 'More questions go unanswered');
    assert.match(
      (await recent.locator('[data-testid="alert-detail"]').textContent()) ?? '',
      /^Recently, 100% of questions were not answered from the documents, up from \d+% before\.$/,
    );
    assert.match((await recent.locator('[data-testid="alert-advice"]').textContent()) ?? '', /^What to do: /);
    assert.match((await recent.textContent()) ?? '', /→ 100\.0%/);
    // Plain words on screen; the statistics behind a disclosure.
    assert.doesNotMatch(
      await dash.locator('body').evaluate((b) => (b as HTMLElement).innerText),
      /Welch|z-test|z = /,
      'statistics on screen',
    );
    assert.equal(await byId('chart-line').count(), 4);
    assert.equal(
      await dash.locator('[data-testid="chart-line"] canvas').count(),
      4,
      'each line chart is drawn on a canvas',
    );
    assert.equal(await dash.locator('[data-testid="chart-topic"] canvas').count(), 1);
    assert.equal(await dash.locator('[data-testid="chart-model"] canvas').count(), 1);
    assert.match(
      (await byId('chart-line').first().locator('[role="img"]').getAttribute('aria-label')) ?? '',
      /Abstention rate over 82 turns/,
    );
    // A legend under every chart, with what it shows (uPlot's own said "turn: -- | rate: —" until hovered).
    const legends = await byId('chart-legend').allTextContents();
    assert.equal(legends.length, 6, `legends: ${legends.join(' | ')}`);
    for (const legend of legends)
      assert.match(
        legend,
        /(rate|coverage|retrieved \(mean\)) · latest \d|Abstention rate.*Drop rate/i,
        `an empty or unreadable legend: ${legend}`,
      );
    assert.equal(await dash.locator('.u-legend').count(), 0, "uPlot's cursor legend is still shown");
    // The numbered change markers' key: one entry per change, in turn order.
    const key = await byId('chart-changes').locator('li').allTextContents();
    assert.deepEqual(
      key.map((k) => /^turn (\d+)/.exec(k)?.[1]),
      ['26', '46'],
      `the change key: ${key.join(' | ')}`,
    );
    assert.match(key[0], /the model changed from gemini-2\.5-flash to extractive/);
    // The tables behind the charts (for screen readers): changes and per-model rows.
    assert.deepEqual(
      await byId('table-changes')
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.textContent ?? '').filter((t) => /model|index/.test(t)).length),
      2,
    );
    assert.equal(await byId('table-model').locator('tbody th').count(), 2);
    // The charts use the theme's colours: the canvas has non-background pixels of the line colour.
    const drawn = await dash
      .locator('[data-testid="chart-line"] canvas')
      .first()
      .evaluate((c: HTMLCanvasElement) => {
        const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data;
        let painted = 0;
        if (data) for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
        return painted;
      });
    assert.ok(drawn > 500, `the first line chart has painted pixels (${drawn})`);
    await wb.screenshot(checkTitle(this));
    await byId('chart-topic').scrollIntoViewIfNeeded();
    await wb.screenshot(checkTitle(this), 'bars');

    // Every kind of theme: the dashboard redraws in its colours; text 4.5:1, the markers (foreground) 3:1.
    const foreground = () =>
      dash.locator('body').evaluate((b) => getComputedStyle(b).getPropertyValue('--vscode-foreground').trim());
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const theme of THEMES) {
      await wb.runCommand('Preferences: Color Theme');
      const input = wb.page.locator('.quick-input-widget input');
      await input.fill(theme.label);
      await wb.page
        .locator('.quick-input-list .monaco-list-row', { hasText: theme.label })
        .first()
        .waitFor({ timeout: 10_000 });
      await wb.page
        .locator('.quick-input-list .monaco-list-row', {
          has: wb.page.locator('.label-name', { hasText: new RegExp(`^${theme.label}$`) }),
        })
        .first()
        .click();
      await wb.page.waitForTimeout(800);
      await dash.locator('[data-testid="chart-line"] canvas').first().waitFor();
      seen.add(await foreground());
      const samples = await measureChatContrast(dash);
      problems.push(...failures(samples).map((f) => `${theme.label}: ${f.kind} ${f.ratio.toFixed(2)}:1 — ${f.what}`));
      // The markers are drawn in the foreground colour: against the chart's background.
      const marker = await dash
        .locator('[data-testid="chart-changes"] .change-line')
        .first()
        .evaluate((el) => {
          const layers: string[] = [];
          for (let e: Element | null = el; e; e = e.parentElement) layers.push(getComputedStyle(e).backgroundColor);
          return { colour: getComputedStyle(el).borderLeftColor, layers };
        });
      const ratio = contrastRatio(
        parseColor(marker.colour) ?? [0, 0, 0, 0],
        flatten(marker.layers.filter((c) => !/rgba\([^)]*,\s*0\)$/.test(c) && c !== 'transparent')),
      );
      if (ratio < 3) problems.push(`${theme.label}: change markers ${ratio.toFixed(2)}:1`);
      await byId('chart-line').first().scrollIntoViewIfNeeded();
      await wb.screenshot(checkTitle(this), theme.kind);
    }
    assert.equal(seen.size, THEMES.length, "the webview did not get each theme's colours");
    assert.deepEqual(problems, [], `contrast on the dashboard:\n${problems.join('\n')}`);
    await byId('metrics-alerts').scrollIntoViewIfNeeded();
    await wb.page.waitForTimeout(300);
    await wb.screenshot(checkTitle(this), 'alerts');
    await editUserSettings(wb, { 'workbench.colorTheme': undefined });
  });
});
