// The chat as people expect it (issue 14), on a fresh copy of the 18F handbook (248 files), in
// order on one page: the first index shown in the view; the walkthrough step ticked by it; a
// hung model (elapsed time, stage, time limit, Stop back to the input); a rejected API key in
// one sentence with ways forward; follow-up questions and suggestions; the not-found box; the
// sources, numbers and previews; feedback, Regenerate and the answer document's title; the
// keyboard path and the accessibility tree; contrast measured in all four kinds of theme; and
// the chat found again after a window reload and the side bar closed and reopened.
// Gemini here is the fake server, reached with keys that make it hang or reject the key.

import * as assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import { HANGING_API_KEY, LAUNDERED_SENTENCE, REJECTED_API_KEY } from '../../test/support/fakeGeminiModes';
import { ChatView } from '../lib/chatView';
import { failures, measureChatContrast, type ContrastSample } from '../lib/contrast';
import { paletteTitle } from '../lib/manifest';
import { session } from '../lib/session';
import { editUserSettings } from '../lib/userSettings';
import { checkTitle, Workbench } from '../lib/workbench';

const ANNUAL = 'How many hours of annual leave do employees earn per pay period?';
const FOLLOW_UP = 'and for sick leave?';
const ABSENT = 'What is the dress code for the Denver office?';

const THEMES = [
  { kind: 'light', label: 'Light Modern', bodyClass: 'vscode-light' },
  { kind: 'dark', label: 'Dark Modern', bodyClass: 'vscode-dark' },
  { kind: 'hc-dark', label: 'Dark High Contrast', bodyClass: 'vscode-high-contrast' },
  { kind: 'hc-light', label: 'Light High Contrast', bodyClass: 'vscode-high-contrast-light' },
] as const;

function formatSamples(samples: ContrastSample[]): string {
  return samples.map((s) => `  ${s.kind} ${s.ratio.toFixed(2)}:1 ${s.colour} on ${s.background} — ${s.what}`).join('\n');
}

describe('the chat as people expect it (18F handbook workspace)', function () {
  this.timeout(180_000);
  const passed = new Set<string>();
  let wb: Workbench;
  let chat: ChatView;

  function needs(...checks: string[]): void {
    const missing = checks.filter((c) => !passed.has(c));
    if (missing.length > 0) throw new Error(`not run: needs the check(s) "${missing.join('", "')}", which did not pass`);
  }

  const focusedTestId = (): Promise<string | null> => chat.frame.locator('body').evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

  async function setKey(key: string, backend: 'gemini' | 'extractive'): Promise<void> {
    await wb.runCommand(paletteTitle(Commands.setGeminiApiKey));
    await wb.answerInputBox(key);
    await chat.frame.locator(`[data-testid="header-model"][data-backend="${backend}"]`).waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error(`after setting the key the chat header does not show the ${backend} backend`);
    });
  }

  afterEach(function () {
    if (this.currentTest?.state === 'passed') passed.add(this.currentTest.title);
  });

  after(async () => {
    if (wb) {
      await editUserSettings(wb, { 'workbench.colorTheme': undefined, 'evident.model': undefined, 'evident.chat.timeoutSeconds': undefined }).catch(() => undefined);
      await wb.runCommand(paletteTitle(Commands.clearGeminiApiKey)).catch(() => undefined);
    }
    await wb?.close();
  });

  it('first index: the chat view shows its progress, in words, and what to do meanwhile', async function () {
    const s = session();
    assert.ok(s.workspaces.handbook, '../shared/data/corpora/18f-handbook is missing');
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.handbook));
    s.current = wb;
    await wb.waitForExtensionContributions();
    // Every progress message the notification shows, for the wording check.
    await wb.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { evidentProgress: string[] }).evidentProgress = seen;
      new MutationObserver(() => {
        for (const m of Array.from(document.querySelectorAll('.notifications-toasts .notification-list-item-message'))) {
          const text = m.textContent ?? '';
          if (text && seen[seen.length - 1] !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The walkthrough is open while the first index runs (VS Code creates its walkthrough
    // service on first use and only ticks a step for a context key that changes after that).
    await wb.runCommand('Welcome: Open Walkthrough...');
    const pick = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Evident' }).first();
    await pick.waitFor({ timeout: 10_000 });
    await pick.click();
    await wb.page.locator('.getting-started-step', { hasText: 'Index your documents' }).first().waitFor({ timeout: 15_000 });
    // Opening the view activates the extension, which indexes the workspace for the first time.
    chat = new ChatView(await wb.openChatView());
    const progress = chat.byTestId('index-progress');
    await progress.waitFor({ state: 'visible', timeout: 30_000 }).catch(() => {
      throw new Error('the chat view shows no progress while the workspace is first indexed');
    });
    assert.match((await progress.textContent()) ?? '', /type your question now/);
    // Read the progress as it moves (a lexical run: reading is most of the bar, no 49% → 95% jump).
    const readings: { text: string; percent: number }[] = [];
    for (const deadline = Date.now() + 150_000; Date.now() < deadline; await wb.page.waitForTimeout(250)) {
      const now = await chat.frame.locator('body').evaluate(() => ({
        state: document.querySelector('[data-testid="header-index"]')?.getAttribute('data-state') ?? '',
        text: document.querySelector('[data-testid="index-progress-text"]')?.textContent ?? null,
        percent: Number(document.querySelector('[data-testid="index-progress"] [role="progressbar"]')?.getAttribute('aria-valuenow') ?? -1),
      })).catch(() => undefined);
      if (!now) continue;
      if (now.state === 'indexed') break;
      if (now.text !== null && readings.at(-1)?.text !== now.text) readings.push({ text: now.text, percent: now.percent });
      if (readings.length === 3) await wb.screenshot(checkTitle(this));
    }
    await chat.frame.locator('[data-testid="header-index"][data-state="indexed"]').waitFor({ timeout: 30_000 });
    assert.ok(readings.some((r) => /Reading files \d+\/\d+ \(\d+%\)/.test(r.text)), `no "Reading files n/N" progress seen: ${readings.map((r) => r.text).join(' | ')}`);
    assert.ok(readings.some((r) => /Reading files/.test(r.text) && r.percent > 55), `reading never went past 55% (a lexical run used to stop at 49% and jump to 95%): ${readings.map((r) => r.text).join(' | ')}`);
    for (let i = 1; i < readings.length; i++) assert.ok(readings[i].percent >= readings[i - 1].percent, `progress went back: ${readings[i - 1].text} → ${readings[i].text}`);
    const messages = await wb.page.evaluate(() => (window as unknown as { evidentProgress: string[] }).evidentProgress);
    assert.ok(messages.every((m) => !/\b0\/0\b|Saving \d+\/\d+|Scanning \d+/.test(m)), `progress wording: ${messages.join(' | ')}`);
    if (readings.length < 3) await wb.screenshot(checkTitle(this));
    await wb.screenshot(checkTitle(this), 'indexed');
  });

  it('the walkthrough step "Index your documents" is ticked after the automatic index', async function () {
    needs('first index: the chat view shows its progress, in words, and what to do meanwhile');
    // The walkthrough opened before the first index (previous check).
    const step = wb.page.locator('.getting-started-step', { hasText: 'Index your documents' }).first();
    await step.waitFor({ timeout: 15_000 });
    await wb.page.waitForFunction(
      () => {
        const el = Array.from(document.querySelectorAll('.getting-started-step')).find((s) => (s.textContent ?? '').includes('Index your documents'));
        return el !== undefined && (el.classList.contains('complete') || el.querySelector('.codicon-pass-filled, .complete') !== null);
      },
      undefined,
      { timeout: 10_000 },
    ).catch(async () => {
      throw new Error(`the "Index your documents" step is not ticked: ${await step.evaluate((e) => e.outerHTML.slice(0, 400))}`);
    });
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
  });

  it('a hung model shows the stage and elapsed time, stops at the time limit with a clear message, and Stop returns to the input', async function () {
    needs('first index: the chat view shows its progress, in words, and what to do meanwhile');
    // Independent of the checks before: the model choice back to Auto (with a key: Gemini).
    await editUserSettings(wb, { 'evident.chat.timeoutSeconds': 6, 'evident.model': undefined });
    await setKey(HANGING_API_KEY, 'gemini');
    const turn = await chat.ask(ANNUAL);
    await wb.page.waitForTimeout(2_200);
    assert.equal(await turn.getAttribute('data-status'), 'pending');
    const first = Number.parseInt((await turn.locator('[data-testid="turn-elapsed"]').textContent()) ?? '', 10);
    await wb.page.waitForTimeout(1_200);
    const second = Number.parseInt((await turn.locator('[data-testid="turn-elapsed"]').textContent()) ?? '', 10);
    assert.ok(first >= 1 && second > first, `the elapsed time does not count up: ${first} s then ${second} s`);
    assert.match((await turn.locator('[data-testid="turn-stage"]').textContent()) ?? '', /Waiting for the model/);
    assert.match((await turn.locator('[data-testid="turn-stage-detail"]').textContent()) ?? '', /Gemini/);
    await wb.screenshot(checkTitle(this));
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled'], 20_000), 'failed');
    const error = turn.locator('[data-testid="turn-error"]');
    assert.equal(await error.getAttribute('data-error-kind'), 'timeout');
    assert.match((await error.locator('[data-testid="error-text"]').textContent()) ?? '', /did not answer within 6\ss/);
    await error.locator('[data-testid="error-timeout-setting"]').waitFor();
    await wb.screenshot(checkTitle(this), 'timeout');

    await editUserSettings(wb, { 'evident.chat.timeoutSeconds': undefined });
    const stopped = await chat.ask(ANNUAL);
    const stop = chat.byTestId('stop-button');
    await stop.waitFor({ state: 'visible', timeout: 10_000 });
    await wb.page.waitForTimeout(800);
    await stop.click();
    assert.equal(await chat.waitForStatus(stopped, ['done', 'failed', 'cancelled'], 15_000), 'cancelled');
    assert.equal(await focusedTestId(), 'chat-input', 'after Stop the focus is not back in the question box');
    await wb.screenshot(checkTitle(this), 'stopped');
  });

  it('a rejected API key is one plain sentence with "Set API key", "Switch to offline model" and "Show log"', async function () {
    needs('first index: the chat view shows its progress, in words, and what to do meanwhile');
    await setKey(REJECTED_API_KEY, 'gemini');
    const turn = await chat.ask(ANNUAL);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled'], 60_000), 'failed');
    const error = turn.locator('[data-testid="turn-error"]');
    assert.equal(await error.getAttribute('data-error-kind'), 'api-key');
    const text = (await error.locator('[data-testid="error-text"]').textContent()) ?? '';
    assert.equal(text, 'Gemini did not accept the API key: set a valid key, or switch to the offline model.');
    assert.doesNotMatch((await turn.textContent()) ?? '', /[{}]|INVALID_ARGUMENT|HTTP 400/, 'raw JSON or codes reached the chat');
    const labels = await error.locator('button').allTextContents();
    for (const label of ['Set API key', 'Switch to offline model', 'Show log']) assert.ok(labels.some((l) => l.includes(label)), `no "${label}" action: ${labels.join(', ')}`);
    await wb.screenshot(checkTitle(this));
    await error.locator('[data-testid="show-logs"]').click();
    await wb.page.locator('.part.panel .monaco-editor .view-lines', { hasText: 'failed' }).first().waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error('"Show log" did not show the Evident log with the failure');
    });
    await error.locator('[data-testid="error-offline"]').click();
    await chat.frame.locator('[data-testid="header-model"][data-backend="extractive"]').waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error('"Switch to offline model" did not make the offline model answer');
    });
    await wb.screenshot(checkTitle(this), 'offline');
  });

  it('a follow-up question continues the conversation, and the answer offers follow-ups from headings', async function () {
    needs('a rejected API key is one plain sentence with "Set API key", "Switch to offline model" and "Show log"');
    const first = await chat.ask(ANNUAL);
    assert.equal(await chat.waitForStatus(first, ['done', 'failed', 'cancelled']), 'done');
    assert.match((await first.locator('[data-testid="answer-body"]').textContent()) ?? '', /hours per pay period/);
    const followUp = await chat.ask(FOLLOW_UP);
    assert.equal(await chat.waitForStatus(followUp, ['done', 'failed', 'cancelled']), 'done');
    const body = (await followUp.locator('[data-testid="answer-body"]').textContent()) ?? '';
    assert.match(body, /sick leave per pay period|sick leave hours per pay period/, `the follow-up was not read with the question before it: ${body}`);
    assert.equal(await first.locator('[data-testid="follow-ups"]').count(), 0, 'follow-ups belong to the latest answer only');
    const suggestions = followUp.locator('[data-testid="follow-up"]');
    const count = await suggestions.count();
    assert.ok(count >= 2 && count <= 3, `expected 2–3 follow-up suggestions, got ${count}`);
    const suggestion = ((await suggestions.first().textContent()) ?? '').trim();
    assert.match(suggestion, /^What does “.+” say\?$/);
    await wb.screenshot(checkTitle(this));
    await suggestions.first().click();
    const asked = chat.turns().last();
    await asked.locator('[data-testid="question"]', { hasText: suggestion }).waitFor({ timeout: 10_000 });
    assert.equal(await chat.waitForStatus(asked, ['done', 'failed', 'cancelled']), 'done');
  });

  it('the not-found box shows what was searched, the closest passages as chips, and how to rephrase; lexical search is explained once, in the header', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turn = await chat.ask(ABSENT);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    const box = turn.locator('[data-testid="abstention"]');
    await box.waitFor();
    assert.match((await box.locator('[data-testid="abstention-searched"]').textContent()) ?? '', /Searched for: .*Denver/);
    const closest = box.locator('[data-testid="closest-passage"]');
    assert.ok((await closest.count()) >= 1, 'no closest passage shown');
    assert.match((await closest.first().textContent()) ?? '', /\.md/);
    assert.match((await box.locator('[data-testid="abstention-hint"]').textContent()) ?? '', /rephras/i);
    assert.equal(await chat.byTestId('lexical-hint').count(), 1, 'the lexical-search explanation is not in the header (once)');
    assert.match((await chat.byTestId('lexical-hint').textContent()) ?? '', /words/);
    assert.equal(await chat.byTestId('lexical-hint-action').count(), 1);
    assert.equal(await chat.frame.locator('[data-testid="notice"]', { hasText: /lexical/i }).count(), 0, 'the lexical notice is still repeated under answers');
    await wb.screenshot(checkTitle(this));
    await closest.first().click();
    await wb.page.locator('.editor-group-container.active .tab.active').waitFor({ timeout: 15_000 });
  });

  it('sources list file name first, the four numbers say what they count, previews are formatted text', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turn = chat.turns().filter({ has: chat.frame.locator('[data-testid="question"]', { hasText: ANNUAL }) }).last();
    const source = turn.locator('[data-testid="source"]').first();
    const name = ((await source.locator('[data-testid="source-name"]').textContent()) ?? '').trim();
    assert.match(name, /^[^/]+\.md$/, `the source row does not start with the file name: ${name}`);
    assert.match(((await source.locator('[data-testid="source-folder"]').textContent()) ?? '').trim(), /^pages\//);
    assert.match((await source.getAttribute('title')) ?? '', new RegExp(`pages/.+/${name.replace('.', '\\.')}, lines? \\d`));
    const nameBox = await source.locator('[data-testid="source-name"]').boundingBox();
    const folderBox = await source.locator('[data-testid="source-folder"]').boundingBox();
    assert.ok(nameBox && folderBox && nameBox.x < folderBox.x, 'the file name is not shown before the folder');
    const metrics = turn.locator('[data-testid="metrics"]');
    assert.match((await metrics.locator('[data-testid="metric-coverage"]').textContent()) ?? '', /^\d+ of \d+ sentences? kept$/);
    assert.match((await metrics.locator('[data-testid="metric-retrieved"]').textContent()) ?? '', /^\d+ passages? found$/);
    assert.match((await metrics.locator('[data-testid="metric-dropped"]').textContent()) ?? '', /^\d+ sentences? removed$/);
    for (const id of ['metric-retrieved', 'metric-coverage', 'metric-dropped', 'metric-abstained']) {
      assert.ok(((await metrics.locator(`[data-testid="${id}"]`).getAttribute('title')) ?? '').length > 30, `${id} has no tooltip defining it`);
    }
    const chip = turn.locator('[data-testid="answer-body"] [data-testid="citation"]').first();
    await chip.hover();
    const preview = chip.locator('[data-testid="evidence-preview"]');
    await preview.waitFor({ state: 'visible', timeout: 5_000 });
    const structure = await preview.locator('[data-testid="preview-text"]').evaluate((el) => ({
      blocks: el.querySelectorAll('.preview-line, li').length,
      markup: el.querySelectorAll('script, img, iframe, a, style').length,
      text: el.textContent ?? '',
    }));
    assert.ok(structure.blocks >= 1, 'the preview text is not laid out in blocks');
    assert.equal(structure.markup, 0);
    assert.doesNotMatch(structure.text, /\*\*|^#+ /m, 'raw Markdown syntax in the preview');
    await wb.screenshot(checkTitle(this));
    await wb.page.mouse.move(5, 450);
  });

  it('feedback is kept in the turn log, Regenerate answers again, and the answer document is titled by its question', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turn = chat.turns().filter({ has: chat.frame.locator('[data-testid="question"]', { hasText: ANNUAL }) }).last();
    const helpful = turn.locator('[data-testid="feedback-helpful"]');
    await helpful.click();
    await turn.locator('[data-testid="feedback-helpful"][aria-pressed="true"]').waitFor({ timeout: 10_000 });
    const storage = join(session().server.userDataDir, 'User', 'workspaceStorage');
    let feedbackLines: string[] = [];
    for (const deadline = Date.now() + 10_000; feedbackLines.length === 0 && Date.now() < deadline; await wb.page.waitForTimeout(300)) {
      for (const dir of await readdir(storage).catch(() => [] as string[])) {
        const log = await readFile(join(storage, dir, EXTENSION_ID, 'metrics.jsonl'), 'utf8').catch(() => '');
        feedbackLines = log.split('\n').filter((l) => l.includes('"feedback":"helpful"'));
        if (feedbackLines.length > 0) break;
      }
    }
    assert.equal(feedbackLines.length, 1, 'the feedback is not in the turn log (metrics.jsonl)');
    const record = JSON.parse(feedbackLines[0]) as { invocationId?: string; feedback?: string };
    assert.ok(record.invocationId && record.feedback === 'helpful');
    const before = await chat.turns().count();
    await turn.locator('[data-testid="regenerate"]').click();
    const regenerated = chat.turns().nth(before);
    await regenerated.waitFor({ timeout: 10_000 });
    assert.equal(((await regenerated.locator('[data-testid="question"]').textContent()) ?? '').trim(), ANNUAL);
    assert.equal(await chat.waitForStatus(regenerated, ['done', 'failed', 'cancelled']), 'done');
    await regenerated.locator('[data-testid="open-in-editor"]').click();
    await wb.page.waitForFunction(
      (title) => (document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label') ?? '').includes(title),
      'How many hours of annual leave do employees earn per pay',
      { timeout: 15_000 },
    ).catch(async () => {
      throw new Error(`the answer document is not titled by its question: ${await wb.page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label')}`);
    });
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
  });

  it('keyboard and screen readers: one Tab stop per answer, arrow keys between chips, Escape back to the input, questions as headings of labelled articles, a live region for the finished answer', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turns = await chat.turns().count();
    const input = chat.byTestId('chat-input');
    // Tab from the header reaches the input, passing at most three stops per turn (chips, actions, follow-ups).
    await chat.byTestId('toggle-dropped').focus();
    const path: string[] = [];
    for (let i = 0; i < turns * 3 + 10 && (await focusedTestId()) !== 'chat-input'; i++) {
      await wb.page.keyboard.press('Tab');
      path.push((await focusedTestId()) ?? '?');
    }
    assert.equal(await focusedTestId(), 'chat-input', `Tab never reached the input: ${path.join(' → ')}`);
    assert.ok(path.length <= turns * 3 + 3, `too many Tab stops (${path.length} for ${turns} turns): ${path.join(' → ')}`);
    assert.equal(path.filter((p) => p === 'citation').length <= turns, true, `more than one chip stop per answer: ${path.join(' → ')}`);
    // Shift+Tab from the input reaches the last answer's chips.
    const last = chat.turns().last();
    let steps = 0;
    while ((await focusedTestId()) !== 'citation' && steps < 4) {
      await wb.page.keyboard.press('Shift+Tab');
      steps++;
    }
    assert.equal(await focusedTestId(), 'citation', 'Shift+Tab from the input does not reach the last answer within 4 steps');
    const focusedIn = await last.evaluate((el) => el.contains(document.activeElement));
    assert.ok(focusedIn, 'the focused chip is not in the last answer');
    const firstChip = await chat.frame.locator('body').evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await last.locator('[data-testid="evidence-preview"]:visible').first().waitFor({ timeout: 5_000 }).catch(() => {
      throw new Error('keyboard focus on a chip does not open its preview');
    });
    await wb.page.keyboard.press('ArrowRight');
    const secondChip = await chat.frame.locator('body').evaluate(() => document.activeElement?.getAttribute('aria-label'));
    assert.equal(await focusedTestId(), 'citation');
    assert.notEqual(firstChip, undefined);
    const chips = await last.locator('[data-testid="citation"]').count();
    if (chips > 1) assert.ok(await last.evaluate((el) => el.contains(document.activeElement)), 'ArrowRight left the answer');
    void secondChip;
    await wb.screenshot(checkTitle(this), 'chip');
    await wb.page.keyboard.press('Escape');
    assert.equal(await focusedTestId(), 'chat-input', 'Escape does not return to the input');
    await input.waitFor();

    // The accessibility tree.
    const question = ((await last.locator('[data-testid="question"]').textContent()) ?? '').trim();
    const tree = await chat.byTestId('transcript').ariaSnapshot();
    assert.ok(tree.includes(`article "${question}"`), `the last turn is not an article labelled by its question:\n${tree.slice(-1500)}`);
    assert.ok(tree.includes(`heading "${question}" [level=3]`), `the question is not a heading:\n${tree.slice(-1500)}`);
    assert.match(tree, /button "Evidence E\d+: [^"]+\.md, lines? \d/);
    assert.equal(await chat.byTestId('transcript').getAttribute('aria-live'), null, 'the transcript is a live region (re-announced as it changes)');
    const announcer = chat.byTestId('announcer');
    assert.equal(await announcer.getAttribute('aria-live'), 'polite');
    assert.equal(await announcer.getAttribute('role'), 'status');
    assert.match((await announcer.textContent()) ?? '', /^(Answer: |Not found)/);
    const tabStops = await chat.frame.locator('[data-testid="answer"]').evaluateAll((answers) => answers.map((a) => a.querySelectorAll('.chip[tabindex="0"]').length));
    assert.ok(tabStops.every((n) => n <= 1), `answers with more than one chip Tab stop: ${tabStops.join(', ')}`);
    await wb.screenshot(checkTitle(this));
  });

  it('contrast holds in light, dark, high contrast dark and high contrast light themes (text 4.5:1, chip borders and focus 3:1)', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    // An answer with a dropped sentence (the fake Gemini launders one), then back offline.
    await editUserSettings(wb, { 'evident.model': undefined });
    await setKey('e2e-fake-key', 'gemini');
    const laundered = await chat.ask(ANNUAL);
    assert.equal(await chat.waitForStatus(laundered, ['done', 'failed', 'cancelled']), 'done');
    await laundered.locator('[data-testid="dropped-sentence"]', { hasText: LAUNDERED_SENTENCE.slice(0, 30) }).waitFor({ timeout: 5_000 });
    const report: string[] = [];
    const failing: string[] = [];
    for (const theme of THEMES) {
      await wb.selectColorTheme(theme.label, theme.bodyClass);
      await wb.page.waitForTimeout(400);
      const chip = laundered.locator('[data-testid="answer-body"] [data-testid="citation"]').first();
      await chip.scrollIntoViewIfNeeded();
      await chip.focus();
      await chip.locator('[data-testid="evidence-preview"]').waitFor({ state: 'visible', timeout: 5_000 });
      const samples = await measureChatContrast(chat.frame);
      const kinds = new Set(samples.map((s) => s.kind));
      assert.ok(kinds.has('text') && kinds.has('chip-border') && kinds.has('focus-ring'), `${theme.label}: not everything was measured (${[...kinds].join(', ')})`);
      assert.ok(samples.some((s) => /dropped-sentence|drop-reason/.test(s.what)), `${theme.label}: the dropped sentence was not measured`);
      assert.ok(samples.some((s) => /preview-text|preview-source/.test(s.what)), `${theme.label}: the open preview was not measured`);
      const bad = failures(samples);
      const lowest = (kind: ContrastSample['kind']) => Math.min(...samples.filter((s) => s.kind === kind).map((s) => s.ratio));
      report.push(`${theme.kind}: ${samples.length} samples; lowest text ${lowest('text').toFixed(2)}, chip border ${lowest('chip-border').toFixed(2)}, focus ring ${lowest('focus-ring').toFixed(2)}`);
      if (bad.length > 0) failing.push(`${theme.label}:\n${formatSamples(bad)}`);
      await wb.screenshot(checkTitle(this), theme.kind);
    }
    process.stdout.write(`      contrast: ${report.join('\n                ')}\n`);
    assert.deepEqual(failing, [], `contrast below the minimum:\n${failing.join('\n')}`);
    await editUserSettings(wb, { 'evident.model': 'extractive' });
    await chat.frame.locator('[data-testid="header-model"][data-backend="extractive"]').waitFor({ timeout: 15_000 });
  });

  it('after a window reload and the side bar closed and reopened, the harness finds the live chat with its history', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turnsBefore = await chat.turns().count();
    await wb.reload();
    chat = new ChatView(await wb.openChatView());
    await wb.runCommand('View: Close Primary Side Bar');
    await wb.page.waitForFunction(() => document.querySelector('.part.sidebar')?.getBoundingClientRect().width === 0 || !document.querySelector('.part.sidebar.visible'), undefined, { timeout: 5_000 }).catch(() => undefined);
    assert.equal(await wb.chatContainerShown(), false, 'the side bar did not close');
    chat = new ChatView(await wb.openChatView());
    await chat.turns().nth(turnsBefore - 1).waitFor({ timeout: 15_000 }).catch(async () => {
      throw new Error(`the history is not shown after the reload: ${await chat.turns().count()} of ${turnsBefore} turns`);
    });
    assert.equal(await chat.turns().count(), turnsBefore);
    const turn = await chat.ask(ANNUAL);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done', 'the chat found after the reload does not answer');
    await wb.screenshot(checkTitle(this));
  });
});
