// The chat as people expect it (issues 14 and 24), on a fresh copy of the 18F handbook (248
// files), in order on one page: the first index shown in the view (its figure once, the same as
// the status bar's); the walkthrough step ticked by it; Gemini chosen without a key (a button,
// not a command to type); a hung model (elapsed time, stage, time limit, Stop back to the input);
// a rejected API key in one sentence with ways forward; follow-up questions and suggestions; the
// not-found box and "Enable semantic search" opening its settings; the sources, numbers and
// previews; the clicked chip's passage picked out in its file; feedback, Regenerate, Copy and the
// answer document; the keyboard path ("Focus on Chat View", no invisible Tab stop, Escape) and
// the accessibility tree; the layout and contrast at 250, 300 and 700 px in all four kinds of
// theme; and the history shown at once after a window reload.
// Gemini here is the fake server, reached with keys that make it hang or reject the key.

import * as assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Commands, EXTENSION_ID, Views } from '../../src/shared/ids';
import { HANGING_API_KEY, LAUNDERED_SENTENCE, REJECTED_API_KEY } from '../../test/support/fakeGeminiModes';
import { checksInOrder } from '../lib/checkOrder';
import { ChatView } from '../lib/chatView';
import { failures, measureChatContrast, type ContrastSample } from '../lib/contrast';
import { THEMES } from '../lib/themes';
import { layoutProblems, measureChatLayout } from '../lib/layout';
import { paletteTitle } from '../lib/manifest';
import { session } from '../lib/session';
import { editUserSettings } from '../lib/userSettings';
import { checkTitle, Workbench } from '../lib/workbench';

const ANNUAL = 'How many hours of annual leave do employees earn per pay period?';
const FOLLOW_UP = 'and for sick leave?';
const ABSENT = 'What is the dress code for the Denver office?';
/** Answered (offline) from two passages of one file: pages/travel-and-leave/leave.md, lines 62–70 and 100–108. */
const TWO_PASSAGES = 'How many hours of annual leave and sick leave do employees earn per pay period?';

const WIDTHS = [250, 300, 700] as const;

function formatSamples(samples: ContrastSample[]): string {
  return samples
    .map((s) => `  ${s.kind} ${s.ratio.toFixed(2)}:1 ${s.colour} on ${s.background} — ${s.what}`)
    .join('\n');
}

describe('the chat as people expect it (18F handbook workspace)', function () {
  this.timeout(180_000);
  const { needs } = checksInOrder();
  let wb: Workbench;
  let chat: ChatView;

  const focusedTestId = (): Promise<string | null> =>
    chat.frame.locator('body').evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

  async function setKey(key: string, backend: 'gemini' | 'extractive'): Promise<void> {
    await wb.runCommand(paletteTitle(Commands.setGeminiApiKey));
    await wb.answerInputBox(key);
    await chat.frame
      .locator(`[data-testid="header-model"][data-backend="${backend}"]`)
      .waitFor({ timeout: 15_000 })
      .catch(() => {
        throw new Error(`after setting the key the chat header does not show the ${backend} backend`);
      });
  }

  after(async () => {
    if (wb) {
      await editUserSettings(wb, {
        'workbench.colorTheme': undefined,
        'evident.model': undefined,
        'evident.chat.timeoutSeconds': undefined,
      }).catch(() => undefined);
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
        for (const m of Array.from(
          document.querySelectorAll('.notifications-toasts .notification-list-item-message'),
        )) {
          const text = m.textContent ?? '';
          if (text && seen[seen.length - 1] !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The walkthrough is open while the first index runs (walkthrough.check.ts covers opening it
    // only after the index finished).
    await wb.runCommand('Welcome: Open Walkthrough...');
    const pick = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Evident' }).first();
    await pick.waitFor({ timeout: 10_000 });
    await pick.click();
    await wb.page
      .locator('.getting-started-step', { hasText: 'Index your documents' })
      .first()
      .waitFor({ timeout: 15_000 });
    // Opening the view activates the extension, which indexes the workspace for the first time.
    chat = new ChatView(await wb.openChatView());
    const progress = chat.byTestId('index-progress');
    await progress.waitFor({ state: 'visible', timeout: 30_000 }).catch(() => {
      throw new Error('the chat view shows no progress while the workspace is first indexed');
    });
    assert.match((await progress.textContent()) ?? '', /type your question now/);
    // Read the progress as it moves (a lexical run: reading is most of the bar, no 49% → 95% jump).
    const readings: { text: string; percent: number }[] = [];
    const figures: { chat: number; shown: number; at: number }[] = [];
    // Every figure the status bar showed, and when (ms).
    const statusBarSeen: { figure: number; at: number }[] = [];
    const statusFigure = async () => {
      const figure = /indexing (\d+)%/.exec(await wb.statusBarText())?.[1];
      return figure === undefined ? undefined : Number(figure);
    };
    for (const deadline = Date.now() + 150_000; Date.now() < deadline; await wb.page.waitForTimeout(250)) {
      // The status bar read just before and just after the chat: the chat's figure lies between.
      const before = await statusFigure();
      const now = await chat.frame
        .locator('body')
        .evaluate(() => ({
          state: document.querySelector('[data-testid="header-index"]')?.getAttribute('data-state') ?? '',
          text: document.querySelector('[data-testid="index-progress-text"]')?.textContent ?? null,
          percent: Number(
            document
              .querySelector('[data-testid="index-progress"] [role="progressbar"]')
              ?.getAttribute('aria-valuenow') ?? -1,
          ),
          // Every figure the view shows as text (the bar's value is not text).
          figures: (document.body.innerText.match(/\d+\s?%/g) ?? []).length,
        }))
        .catch(() => undefined);
      const after = await statusFigure();
      const at = Date.now();
      for (const figure of [before, after]) if (figure !== undefined) statusBarSeen.push({ figure, at });
      if (!now) continue;
      if (now.state === 'indexed') break;
      if (now.text !== null) figures.push({ chat: now.percent, shown: now.figures, at });
      if (now.text !== null && readings.at(-1)?.text !== now.text)
        readings.push({ text: now.text, percent: now.percent });
      if (readings.length === 3) await wb.screenshot(checkTitle(this));
    }
    await chat.frame.locator('[data-testid="header-index"][data-state="indexed"]').waitFor({ timeout: 30_000 });
    assert.ok(
      readings.some((r) => /Reading files \d+\/\d+ \(\d+%\)/.test(r.text)),
      `no "Reading files n/N" progress seen: ${readings.map((r) => r.text).join(' | ')}`,
    );
    assert.ok(
      readings.some((r) => /Reading files/.test(r.text) && r.percent > 55),
      `reading never went past 55% (a lexical run used to stop at 49% and jump to 95%): ${readings.map((r) => r.text).join(' | ')}`,
    );
    for (let i = 1; i < readings.length; i++)
      assert.ok(
        readings[i].percent >= readings[i - 1].percent,
        `progress went back: ${readings[i - 1].text} → ${readings[i].text}`,
      );
    // The figure once in the view (not in the header badge, the box and the empty state at once),
    // and the status bar's the same one (read a moment apart, so it may have moved on a little).
    assert.ok(
      figures.length > 0 && figures.every((f) => f.shown === 1),
      `the chat shows the indexing figure ${[...new Set(figures.map((f) => f.shown))].join(' or ')} times`,
    );
    // Each side hears of progress through its own message, so on a loaded machine one may trail the
    // other for a moment: the chat's figure lies among the status bar's figures of the 3 s around it
    // (between the lowest and the highest of them, a point or two either side).
    assert.ok(statusBarSeen.length > 0, 'the status bar never showed "indexing n%"');
    const apart = figures.flatMap((f) => {
      const near = statusBarSeen.filter((s) => Math.abs(s.at - f.at) <= 3_000).map((s) => s.figure);
      const inside = near.length > 0 && f.chat >= Math.min(...near) - 2 && f.chat <= Math.max(...near) + 2;
      return inside ? [] : [{ chat: f.chat, statusBar: near }];
    });
    assert.deepEqual(apart, [], 'the chat shows a figure the status bar did not show within 3 s (its figures then)');
    const messages = await wb.page.evaluate(() => (window as unknown as { evidentProgress: string[] }).evidentProgress);
    assert.ok(
      messages.every((m) => !/\b0\/0\b|Saving \d+\/\d+|Scanning \d+/.test(m)),
      `progress wording: ${messages.join(' | ')}`,
    );
    if (readings.length < 3) await wb.screenshot(checkTitle(this));
    await wb.screenshot(checkTitle(this), 'indexed');
  });

  it('the walkthrough step "Index your documents" is ticked after the automatic index', async function () {
    needs('first index: the chat view shows its progress, in words, and what to do meanwhile');
    // The walkthrough opened before the first index (previous check).
    const step = wb.page.locator('.getting-started-step', { hasText: 'Index your documents' }).first();
    await step.waitFor({ timeout: 15_000 });
    await wb.page
      .waitForFunction(
        () => {
          const el = Array.from(document.querySelectorAll('.getting-started-step')).find((s) =>
            (s.textContent ?? '').includes('Index your documents'),
          );
          return (
            el !== undefined &&
            (el.classList.contains('complete') || el.querySelector('.codicon-pass-filled, .complete') !== null)
          );
        },
        undefined,
        { timeout: 10_000 },
      )
      .catch(async () => {
        throw new Error(
          `the "Index your documents" step is not ticked: ${await step.evaluate((e) => e.outerHTML.slice(0, 400))}`,
        );
      });
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
  });

  it('Gemini chosen without a key: the header says so once, with a button that opens the key prompt; nothing is repeated under answers', async function () {
    needs('first index: the chat view shows its progress, in words, and what to do meanwhile');
    await editUserSettings(wb, { 'evident.model': 'gemini' });
    const notice = chat.byTestId('model-notice');
    await notice.waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error('no notice in the header while Gemini is chosen without a key');
    });
    assert.match((await notice.textContent()) ?? '', /no API key is set/);
    const turn = await chat.ask(ANNUAL);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    assert.equal(
      await chat.frame.locator('[data-testid="notice"]', { hasText: /API key/ }).count(),
      0,
      'the notice is repeated under the answer',
    );
    assert.equal(await chat.byTestId('model-notice').count(), 1);
    await wb.screenshot(checkTitle(this));
    await notice.locator('[data-testid="model-notice-action"]').click();
    const prompt = wb.page.locator('.quick-input-widget', { hasText: 'Gemini API Key' });
    await prompt.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {
      throw new Error('"Set Gemini API key" did not open the key prompt');
    });
    await wb.page.keyboard.press('Escape');
    // Dismissed, it stays away.
    await chat.byTestId('model-notice').locator('[data-testid="notice-dismiss"]').click();
    assert.equal(await chat.byTestId('model-notice').count(), 0);
    assert.equal(await focusedTestId(), 'chat-input', 'the focus goes to the question box, not nowhere');
    await editUserSettings(wb, { 'evident.model': undefined });
  });

  it('a hung model shows the stage and elapsed time, stops at the time limit with a clear message, and Stop returns to the input', async function () {
    needs('first index: the chat view shows its progress, in words, and what to do meanwhile');
    // Independent of the checks before: the model choice back to Auto (with a key: Gemini).
    // A limit long enough that a loaded machine still reads the pending turn before it fires.
    await editUserSettings(wb, { 'evident.chat.timeoutSeconds': 12, 'evident.model': undefined });
    await setKey(HANGING_API_KEY, 'gemini');
    const turn = await chat.ask(ANNUAL);
    await wb.page.waitForTimeout(2_200);
    assert.equal(await turn.getAttribute('data-status'), 'pending');
    assert.match((await turn.locator('[data-testid="turn-stage"]').textContent()) ?? '', /Waiting for the model/);
    assert.match((await turn.locator('[data-testid="turn-stage-detail"]').textContent()) ?? '', /Gemini/);
    const first = Number.parseInt((await turn.locator('[data-testid="turn-elapsed"]').textContent()) ?? '', 10);
    await wb.page.waitForTimeout(1_200);
    const second = Number.parseInt((await turn.locator('[data-testid="turn-elapsed"]').textContent()) ?? '', 10);
    assert.ok(first >= 1 && second > first, `the elapsed time does not count up: ${first} s then ${second} s`);
    await wb.screenshot(checkTitle(this));
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled'], 30_000), 'failed');
    const error = turn.locator('[data-testid="turn-error"]');
    assert.equal(await error.getAttribute('data-error-kind'), 'timeout');
    assert.match(
      (await error.locator('[data-testid="error-text"]').textContent()) ?? '',
      /did not answer within 12\ss/,
    );
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
    assert.doesNotMatch(
      (await turn.textContent()) ?? '',
      /[{}]|INVALID_ARGUMENT|HTTP 400/,
      'raw JSON or codes reached the chat',
    );
    const labels = await error.locator('button').allTextContents();
    for (const label of ['Set API key', 'Switch to offline model', 'Show log'])
      assert.ok(
        labels.some((l) => l.includes(label)),
        `no "${label}" action: ${labels.join(', ')}`,
      );
    await wb.screenshot(checkTitle(this));
    await error.locator('[data-testid="show-logs"]').click();
    await wb.page
      .locator('.part.panel .monaco-editor .view-lines', { hasText: 'failed' })
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {
        throw new Error('"Show log" did not show the Evident log with the failure');
      });
    await error.locator('[data-testid="error-offline"]').click();
    await chat.frame
      .locator('[data-testid="header-model"][data-backend="extractive"]')
      .waitFor({ timeout: 15_000 })
      .catch(() => {
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
    assert.match(
      body,
      /sick leave per pay period|sick leave hours per pay period/,
      `the follow-up was not read with the question before it: ${body}`,
    );
    assert.equal(
      await first.locator('[data-testid="follow-ups"]').count(),
      0,
      'follow-ups belong to the latest answer only',
    );
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
    assert.match(
      (await box.locator('[data-testid="abstention-searched"]').textContent()) ?? '',
      /Searched for: .*Denver/,
    );
    const closest = box.locator('[data-testid="closest-passage"]');
    assert.ok((await closest.count()) >= 1, 'no closest passage shown');
    assert.match((await closest.first().textContent()) ?? '', /\.md/);
    assert.match((await box.locator('[data-testid="abstention-hint"]').textContent()) ?? '', /rephras/i);
    assert.equal(
      await chat.byTestId('lexical-hint').count(),
      1,
      'the lexical-search explanation is not in the header (once)',
    );
    assert.match((await chat.byTestId('lexical-hint').textContent()) ?? '', /words/);
    assert.equal(await chat.byTestId('lexical-hint-action').count(), 1);
    assert.equal(
      await chat.frame.locator('[data-testid="notice"]', { hasText: /lexical/i }).count(),
      0,
      'the lexical notice is still repeated under answers',
    );
    await wb.screenshot(checkTitle(this));
    await closest.first().click();
    await wb.page.locator('.editor-group-container.active .tab.active').waitFor({ timeout: 15_000 });
  });

  it('"Enable semantic search" opens the embedding settings by id in the tab where they apply (Remote in code-server), not "No Settings Found"', async function () {
    needs(
      'the not-found box shows what was searched, the closest passages as chips, and how to rephrase; lexical search is explained once, in the header',
    );
    await chat.byTestId('lexical-hint-action').click();
    const editor = wb.page.locator('.settings-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 15_000 });
    const query = wb.page
      .locator(
        '.settings-editor .suggest-input-container .view-lines, .settings-editor .settings-header .monaco-editor .view-lines',
      )
      .first();
    await wb.page
      .waitForFunction(
        () =>
          /@id:evident\.embedding\.model/.test(
            document.querySelector('.settings-editor .settings-header')?.textContent ?? '',
          ),
        undefined,
        { timeout: 10_000 },
      )
      .catch(async () => {
        throw new Error(
          `the Settings editor was not opened on the setting's id: ${await query.textContent().catch(() => '?')}`,
        );
      });
    const rows = wb.page.locator('.settings-editor .setting-item-contents', { hasText: 'Embedding' });
    await rows
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 })
      .catch(async () => {
        throw new Error(
          `the Settings editor shows no embedding setting: ${
            (await wb.page
              .locator('.settings-editor .no-results-message')
              .textContent()
              .catch(() => '')) ?? ''
          }`,
        );
      });
    assert.equal(
      await wb.page.locator('.settings-editor .no-results-message:visible').count(),
      0,
      '"No Settings Found"',
    );
    // code-server is a remote window: these machine-overridable settings live in its Remote tab.
    const tab = (
      (await wb.page
        .locator('.settings-editor .settings-tabs-widget .action-label.checked')
        .first()
        .textContent({ timeout: 5_000 })
        .catch(() => '')) ?? ''
    ).trim();
    assert.match(tab, /^Remote/, `the settings opened in the "${tab}" tab`);
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
  });

  it('sources list file name first, the four numbers say what they count, previews are formatted text', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turn = chat
      .turns()
      .filter({ has: chat.frame.locator('[data-testid="question"]', { hasText: ANNUAL }) })
      .last();
    const source = turn.locator('[data-testid="source"]').first();
    const name = ((await source.locator('[data-testid="source-name"]').textContent()) ?? '').trim();
    assert.match(name, /^[^/]+\.md$/, `the source row does not start with the file name: ${name}`);
    assert.match(((await source.locator('[data-testid="source-folder"]').textContent()) ?? '').trim(), /^pages\//);
    assert.match(
      (await source.getAttribute('title')) ?? '',
      new RegExp(`pages/.+/${name.replace('.', '\\.')}, lines? \\d`),
    );
    const nameBox = await source.locator('[data-testid="source-name"]').boundingBox();
    const folderBox = await source.locator('[data-testid="source-folder"]').boundingBox();
    // In reading order: beside it, or (in a narrow side bar) on the line below.
    assert.ok(
      nameBox && folderBox && (nameBox.x < folderBox.x || nameBox.y + nameBox.height <= folderBox.y + 1),
      'the file name is not shown before the folder',
    );
    const metrics = turn.locator('[data-testid="metrics"]');
    assert.match(
      (await metrics.locator('[data-testid="metric-coverage"]').textContent()) ?? '',
      /^\d+ of \d+ sentences? kept$/,
    );
    assert.match(
      (await metrics.locator('[data-testid="metric-retrieved"]').textContent()) ?? '',
      /^\d+ passages? found$/,
    );
    assert.match(
      (await metrics.locator('[data-testid="metric-dropped"]').textContent()) ?? '',
      /^\d+ sentences? removed$/,
    );
    for (const id of ['metric-retrieved', 'metric-coverage', 'metric-dropped', 'metric-abstained']) {
      assert.ok(
        ((await metrics.locator(`[data-testid="${id}"]`).getAttribute('title')) ?? '').length > 30,
        `${id} has no tooltip defining it`,
      );
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

  it('clicking a chip opens its file with that passage picked out from the other passages the answer cites', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    // An answer citing two passages of one file (leave.md, lines 62–70 and 100–108 of the handbook).
    await wb.runCommand('View: Close All Editors');
    const turn = await chat.ask(TWO_PASSAGES);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    const rows = await turn
      .locator('[data-testid="source"]')
      .evaluateAll((els) => els.map((e) => (e.getAttribute('title') ?? '').split(', line')[0]));
    const file = rows.find((f, i) => rows.indexOf(f) !== i);
    assert.ok(file, `the answer does not cite two passages of one file: ${rows.join(', ')}`);
    const fileName = file.split('/').pop() ?? '';
    const ranges = await turn.locator('[data-testid="source"]').evaluateAll(
      (els, wanted) =>
        els
          .filter((e) => (e.getAttribute('title') ?? '').split(', line')[0] === wanted)
          .map((e) => {
            const [, from, to] = /lines? (\d+)(?:–(\d+))?/.exec(e.getAttribute('title') ?? '') ?? [];
            return { from: Number(from), to: Number(to ?? from) };
          }),
      file,
    );
    // The second passage is opened; the first is the other cited one.
    const [other, range] = ranges;
    const chip = turn
      .locator('[data-testid="source"]')
      .filter({ has: chat.frame.locator(`[data-testid="source-lines"]`, { hasText: `${range.from}–` }) })
      .locator('[data-testid="citation"]');
    await chip.click();
    await wb.page
      .locator('.editor-group-container.active .tab.active', { hasText: fileName })
      .waitFor({ timeout: 15_000 });
    await wb.page.waitForTimeout(600);
    // Each highlighted line on screen (by its number in the gutter) and the colour of its highlight.
    const highlighted = () =>
      wb.page.evaluate(() => {
        const editor = document.querySelector('.editor-group-container.active .monaco-editor');
        if (!editor) return [];
        const numberAt = new Map<string, number>();
        for (const n of Array.from(editor.querySelectorAll<HTMLElement>('.margin-view-overlays > div'))) {
          const text = n.querySelector('.line-numbers')?.textContent?.trim();
          if (text) numberAt.set(n.style.top, Number(text));
        }
        const out: { line: number; colour: string }[] = [];
        for (const overlay of Array.from(editor.querySelectorAll<HTMLElement>('.view-overlays > div'))) {
          const colours = Array.from(overlay.querySelectorAll<HTMLElement>('[class*="ced-"]'))
            .map((d) => getComputedStyle(d).backgroundColor)
            .filter((c) => !['transparent', 'rgba(0, 0, 0, 0)'].includes(c));
          const line = numberAt.get(overlay.style.top);
          if (colours.length && line !== undefined) out.push({ line, colour: colours.join(' + ') });
        }
        return out;
      });
    const lines = await highlighted();
    // The other passage of the file, brought on screen (the cursor moves; the highlights stay).
    await wb.runCommand('Go to Line/Column...');
    await wb.page.locator('.quick-input-widget input').waitFor();
    await wb.page.keyboard.type(String(other.from));
    await wb.page.keyboard.press('Enter');
    await wb.page.waitForTimeout(400);
    lines.push(...(await highlighted()));
    const inside = lines.filter((l) => l.line >= range.from && l.line <= range.to);
    const outside = lines.filter((l) => l.line < range.from || l.line > range.to);
    assert.ok(
      inside.length > 0,
      `the opened passage (lines ${range.from}–${range.to}) is not highlighted: ${JSON.stringify(lines)}`,
    );
    const opened = new Set(inside.map((l) => l.colour));
    assert.equal(opened.size, 1, `the opened passage is not highlighted in one colour: ${JSON.stringify(inside)}`);
    assert.ok(
      outside.some((l) => l.line >= other.from && l.line <= other.to),
      `the other cited passage of ${file} (lines ${other.from}–${other.to}) is not highlighted: ${JSON.stringify(lines)}`,
    );
    for (const l of outside)
      assert.ok(
        !opened.has(l.colour),
        `line ${l.line} of another cited passage looks like the opened one (${l.colour})`,
      );
    process.stdout.write(
      `      opened passage lines ${range.from}–${range.to} in ${[...opened][0]}; ${outside.length} line(s) of other cited passages in ${[...new Set(outside.map((l) => l.colour))].join(', ') || '(none visible)'}\n`,
    );
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
  });

  it('feedback is kept in the turn log, Regenerate answers again, and the answer document is titled by its question', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turn = chat
      .turns()
      .filter({ has: chat.frame.locator('[data-testid="question"]', { hasText: ANNUAL }) })
      .last();
    const helpful = turn.locator('[data-testid="feedback-helpful"]');
    await helpful.click();
    await turn.locator('[data-testid="feedback-helpful"][aria-pressed="true"]').waitFor({ timeout: 10_000 });
    const storage = join(session().server.userDataDir, 'User', 'workspaceStorage');
    let feedbackLines: string[] = [];
    for (
      const deadline = Date.now() + 10_000;
      feedbackLines.length === 0 && Date.now() < deadline;
      await wb.page.waitForTimeout(300)
    ) {
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
    await wb.page
      .waitForFunction(
        (title) =>
          (
            document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label') ?? ''
          ).includes(title),
        'How many hours of annual leave do employees earn per pay period?',
        { timeout: 15_000 },
      )
      .catch(async () => {
        throw new Error(
          `the answer document is not titled by its question: ${await wb.page.locator('.editor-group-container.active .tab.active').getAttribute('aria-label')}`,
        );
      });
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
  });

  it('keyboard and screen readers: "Focus on Chat View" then typing lands in the input; one Tab stop per answer and none invisible; arrow keys between chips; Escape from a preview back to its chip, then to the input; questions as headings of labelled articles; a live region for the finished answer', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turns = await chat.turns().count();
    const input = chat.byTestId('chat-input');
    // Nothing focused in the view, focus elsewhere in the workbench; then the palette command and typing.
    await chat.frame.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await wb.runCommand('View: Focus Active Editor Group');
    await wb.runCommand(`${Views.containerTitle}: Focus on Chat View`);
    await wb.page.waitForTimeout(300);
    await wb.page.keyboard.type('where is');
    assert.equal(
      await input.inputValue(),
      'where is',
      `after "Focus on Chat View" the typing went elsewhere (focus on ${await focusedTestId()})`,
    );
    await input.fill('');

    // Each Tab or Shift+Tab stop is something visible (a preview closing as its chip loses focus left one that was not).
    const stop = () =>
      chat.frame.locator('body').evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return { testId: 'body', visible: false };
        const rect = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        const onScreen =
          rect.bottom > 0 && rect.top < window.innerHeight && rect.right > 0 && rect.left < window.innerWidth;
        const visible =
          rect.width > 0 &&
          rect.height > 0 &&
          style.visibility !== 'hidden' &&
          el.closest('[hidden]') === null &&
          onScreen;
        return { testId: el.getAttribute('data-testid') ?? `${el.tagName.toLowerCase()}.${el.className}`, visible };
      });
    // Tab from the header reaches the input, passing at most three stops per turn (chips, actions, follow-ups).
    await chat.byTestId('toggle-dropped').focus();
    const path: string[] = [];
    const invisible: string[] = [];
    for (let i = 0; i < turns * 3 + 10 && (await focusedTestId()) !== 'chat-input'; i++) {
      await wb.page.keyboard.press('Tab');
      const now = await stop();
      path.push(now.testId);
      if (!now.visible) invisible.push(`Tab ${i + 1}: ${now.testId}`);
    }
    assert.equal(await focusedTestId(), 'chat-input', `Tab never reached the input: ${path.join(' → ')}`);
    assert.ok(
      path.length <= turns * 3 + 3,
      `too many Tab stops (${path.length} for ${turns} turns): ${path.join(' → ')}`,
    );
    assert.equal(
      path.filter((p) => p === 'citation').length <= turns,
      true,
      `more than one chip stop per answer: ${path.join(' → ')}`,
    );
    // And back to the header with Shift+Tab.
    const back: string[] = [];
    for (let i = 0; i < turns * 3 + 10 && (await focusedTestId()) !== 'toggle-dropped'; i++) {
      await wb.page.keyboard.press('Shift+Tab');
      const now = await stop();
      back.push(now.testId);
      if (!now.visible) invisible.push(`Shift+Tab ${i + 1}: ${now.testId}`);
    }
    assert.equal(
      await focusedTestId(),
      'toggle-dropped',
      `Shift+Tab never got back to the header: ${back.join(' → ')}`,
    );
    assert.deepEqual(invisible, [], `invisible Tab stops: ${invisible.join('; ')}`);
    await input.focus();
    // Shift+Tab from the input reaches the last answer's chips.
    const last = chat.turns().last();
    let steps = 0;
    while ((await focusedTestId()) !== 'citation' && steps < 4) {
      await wb.page.keyboard.press('Shift+Tab');
      steps++;
    }
    assert.equal(
      await focusedTestId(),
      'citation',
      'Shift+Tab from the input does not reach the last answer within 4 steps',
    );
    const focusedIn = await last.evaluate((el) => el.contains(document.activeElement));
    assert.ok(focusedIn, 'the focused chip is not in the last answer');
    await last
      .locator('[data-testid="evidence-preview"]:visible')
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => {
        throw new Error('keyboard focus on a chip does not open its preview');
      });
    await wb.page.keyboard.press('ArrowRight');
    assert.equal(await focusedTestId(), 'citation');
    const chips = await last.locator('[data-testid="citation"]').count();
    if (chips > 1)
      assert.ok(await last.evaluate((el) => el.contains(document.activeElement)), 'ArrowRight left the answer');
    const focusedChip = () =>
      chat.frame.locator('body').evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
    const onChip = await focusedChip();
    await last.locator('[data-testid="evidence-preview"]:visible').first().waitFor({ timeout: 5_000 });
    await wb.screenshot(checkTitle(this), 'chip');
    // Escape from a preview: it closes, and the focus stays on its chip; Escape again: the input.
    await wb.page.keyboard.press('Escape');
    assert.equal(await focusedChip(), onChip, 'Escape from the preview did not leave the focus on its chip');
    assert.equal(
      await last.locator('[data-testid="evidence-preview"]:visible').count(),
      0,
      'the preview is still open after Escape',
    );
    await wb.page.keyboard.press('Escape');
    assert.equal(await focusedTestId(), 'chat-input', 'Escape from a chip does not return to the input');
    // With the pointer: a click in the preview (to select its text), then Escape: back on the chip.
    const chip = last.locator('[data-testid="answer-body"] [data-testid="citation"]').first();
    await chip.hover();
    const preview = chip.locator('[data-testid="evidence-preview"]');
    await preview.waitFor({ state: 'visible', timeout: 5_000 });
    await preview.locator('[data-testid="preview-text"]').click();
    assert.equal(
      await chat.frame
        .locator('body')
        .evaluate(() => document.activeElement?.closest('[data-testid="evidence-preview"]') !== null),
      true,
      'a click in the preview does not put the focus there',
    );
    await wb.page.keyboard.press('Escape');
    assert.equal(await focusedTestId(), 'citation', 'Escape from inside a preview does not return to its chip');
    assert.equal(await preview.isVisible(), false);
    await wb.page.mouse.move(5, 450);
    await input.focus();

    // The accessibility tree.
    const question = ((await last.locator('[data-testid="question"]').textContent()) ?? '').trim();
    const tree = await chat.byTestId('transcript').ariaSnapshot();
    assert.ok(
      tree.includes(`article "${question}"`),
      `the last turn is not an article labelled by its question:\n${tree.slice(-1500)}`,
    );
    assert.ok(tree.includes(`heading "${question}" [level=3]`), `the question is not a heading:\n${tree.slice(-1500)}`);
    assert.match(tree, /button "Evidence E\d+: [^"]+\.md, lines? \d/);
    assert.equal(
      await chat.byTestId('transcript').getAttribute('aria-live'),
      null,
      'the transcript is a live region (re-announced as it changes)',
    );
    const announcer = chat.byTestId('announcer');
    assert.equal(await announcer.getAttribute('aria-live'), 'polite');
    assert.equal(await announcer.getAttribute('role'), 'status');
    assert.match((await announcer.textContent()) ?? '', /^(Answer: |Not found)/);
    const tabStops = await chat.frame
      .locator('[data-testid="answer"]')
      .evaluateAll((answers) => answers.map((a) => a.querySelectorAll('.chip[tabindex="0"]').length));
    assert.ok(
      tabStops.every((n) => n <= 1),
      `answers with more than one chip Tab stop: ${tabStops.join(', ')}`,
    );
    await wb.screenshot(checkTitle(this));
  });

  it('Copy says so (visibly and to screen readers) and copies the answer as Markdown with its sources', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    await wb.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session().server.url).origin });
    const turn = chat
      .turns()
      .filter({ has: chat.frame.locator('[data-testid="question"]', { hasText: ANNUAL }) })
      .last();
    const copy = turn.locator('[data-testid="copy-answer"]');
    await copy.click();
    await turn
      .locator('[data-testid="copy-answer"][data-copied="true"]')
      .waitFor({ timeout: 10_000 })
      .catch(() => {
        throw new Error('the Copy button does not say the answer was copied');
      });
    assert.equal(((await copy.textContent()) ?? '').trim(), 'Copied');
    await chat
      .byTestId('announcer')
      .filter({ hasText: 'Answer copied' })
      .waitFor({ timeout: 5_000 })
      .catch(() => {
        throw new Error('the copy is not announced to screen readers');
      });
    await wb.screenshot(checkTitle(this));
    const copied = await wb.page.evaluate(() => navigator.clipboard.readText());
    const body = ((await turn.locator('[data-testid="answer-body"]').textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(copied, /\[E\d+\]/, `the copy lost its evidence ids: ${copied}`);
    assert.match(
      copied,
      /\n\nSources:\n\n- \[E\d+\] pages\/.+\.md, lines? \d+/,
      `the copy has no sources list: ${copied}`,
    );
    for (const id of new Set(copied.split('Sources:')[0].match(/E\d+/g) ?? []))
      assert.ok(copied.includes(`- [${id}] `), `${id} is cited but not listed under Sources: ${copied}`);
    assert.ok(body.includes('hours per pay period') && copied.includes('hours per pay period'), copied);
  });

  it('at 250, 300 and 700 px in light, dark, high contrast dark and high contrast light themes: no sideways overflow, one vertical scrollbar, whole file names and line ranges, text 4.5:1 (placeholder too), borders and focus rings 3:1 (checkbox too)', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    // An answer with a dropped sentence (the fake Gemini launders one), then back offline.
    await editUserSettings(wb, { 'evident.model': undefined });
    await setKey('e2e-fake-key', 'gemini');
    const laundered = await chat.ask(ANNUAL);
    assert.equal(await chat.waitForStatus(laundered, ['done', 'failed', 'cancelled']), 'done');
    await laundered
      .locator('[data-testid="dropped-sentence"]', { hasText: LAUNDERED_SENTENCE.slice(0, 30) })
      .waitFor({ timeout: 5_000 });
    assert.ok((await chat.byTestId('closest-passage').count()) > 0, 'no not-found box with closest passages on screen');
    const report: string[] = [];
    const failing: string[] = [];
    const checkbox = chat.byTestId('toggle-dropped');
    const headers: string[] = [];
    for (const theme of THEMES) {
      await wb.selectColorTheme(theme.label, theme.bodyClass);
      await wb.page.waitForTimeout(400);
      for (const width of WIDTHS) {
        await wb.setSideBarWidth(width);
        await wb.page.waitForTimeout(250);
        const where = `${theme.label} at ${width} px`;
        const layout = await measureChatLayout(chat.frame);
        assert.ok(layout.sources.length >= 4, `${where}: only ${layout.sources.length} sources measured`);
        for (const problem of layoutProblems(layout)) failing.push(`${where}: ${problem}`);
        if (theme.kind === 'light') headers.push(`${width} px: ${layout.headerPx} px`);
        if (width === WIDTHS[0]) {
          await chat.byTestId('scroller').evaluate((el) => el.scrollTo({ top: 0 }));
          await wb.screenshotSideBar(checkTitle(this), `${theme.kind}.${width}.top`);
        }
        // The checkbox's focus ring, reached by the keyboard (as a focus ring is seen).
        await checkbox.focus();
        await wb.page.keyboard.press('Tab');
        await wb.page.keyboard.press('Shift+Tab');
        const ring = (await measureChatContrast(chat.frame)).filter((s) => s.kind === 'focus-ring');
        assert.ok(
          ring.length === 1 && /toggle-dropped/.test(ring[0].what),
          `${where}: the checkbox's focus ring was not measured: ${formatSamples(ring)}`,
        );
        const chip = laundered.locator('[data-testid="answer-body"] [data-testid="citation"]').first();
        await chip.scrollIntoViewIfNeeded();
        await chip.focus();
        await chip.locator('[data-testid="evidence-preview"]').waitFor({ state: 'visible', timeout: 5_000 });
        const samples = [...(await measureChatContrast(chat.frame)), ...ring];
        const kinds = new Set(samples.map((s) => s.kind));
        for (const kind of ['text', 'placeholder', 'chip-border', 'checkbox-border', 'focus-ring'] as const)
          assert.ok(kinds.has(kind), `${where}: no ${kind} measured (${[...kinds].join(', ')})`);
        assert.ok(
          samples.some((s) => /dropped-sentence|drop-reason/.test(s.what)),
          `${where}: the dropped sentence was not measured`,
        );
        assert.ok(
          samples.some((s) => /preview-text|preview-source/.test(s.what)),
          `${where}: the open preview was not measured`,
        );
        const bad = failures(samples);
        if (bad.length > 0) failing.push(`${where}:\n${formatSamples(bad)}`);
        const lowest = (kind: ContrastSample['kind']) =>
          Math.min(...samples.filter((s) => s.kind === kind).map((s) => s.ratio)).toFixed(2);
        if (width === WIDTHS[0]) {
          report.push(
            `${theme.kind}: ${samples.length} samples; lowest text ${lowest('text')}, placeholder ${lowest('placeholder')}, chip border ${lowest('chip-border')}, checkbox border ${lowest('checkbox-border')}, focus ring ${lowest('focus-ring')} (checkbox ${ring[0].ratio.toFixed(2)})`,
          );
        }
        await wb.screenshotSideBar(checkTitle(this), `${theme.kind}.${width}`);
      }
    }
    process.stdout.write(
      `      contrast: ${report.join('\n                ')}\n      header height (model, retrieval, index, the lexical notice): ${headers.join(', ')}\n`,
    );
    await wb.setSideBarWidth(WIDTHS[1]);
    assert.deepEqual(failing, [], `layout or contrast problems:\n${failing.join('\n')}`);
  });

  it("the answer document wraps the dropped sentence's note with its line and keeps the question mark in its tab title", async function () {
    needs(
      'at 250, 300 and 700 px in light, dark, high contrast dark and high contrast light themes: no sideways overflow, one vertical scrollbar, whole file names and line ranges, text 4.5:1 (placeholder too), borders and focus rings 3:1 (checkbox too)',
    );
    const laundered = chat.turns().last();
    await laundered.locator('[data-testid="open-in-editor"]').click();
    const tab = wb.page.locator('.editor-group-container.active .tab.active');
    await tab.waitFor({ timeout: 15_000 });
    assert.match(
      (await tab.getAttribute('aria-label')) ?? '',
      /per pay period\?/,
      'the tab title lost the question mark',
    );
    const note = wb.page
      .locator('.editor-group-container.active .monaco-editor .view-line', { hasText: '⟵ dropped' })
      .first();
    await note.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error("the dropped sentence's note is not text of the answer document");
    });
    const fits = await wb.page.evaluate(() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      const area = editor?.querySelector('.lines-content')?.getBoundingClientRect();
      const box = editor?.getBoundingClientRect();
      const lines = Array.from(editor?.querySelectorAll<HTMLElement>('.view-line') ?? []).map((l) => {
        const spans = Array.from(l.querySelectorAll('span span'));
        return Math.max(0, ...spans.map((s) => s.getBoundingClientRect().right));
      });
      return { right: Math.max(...lines), editorRight: box?.right ?? 0, scrolledX: area ? box!.left - area.left : 0 };
    });
    assert.ok(
      fits.right <= fits.editorRight && fits.scrolledX <= 1,
      `the answer document runs off the right edge (text to ${Math.round(fits.right)} px, editor to ${Math.round(fits.editorRight)} px)`,
    );
    await wb.screenshot(checkTitle(this));
    await wb.runCommand('View: Close All Editors');
    await editUserSettings(wb, { 'evident.model': 'extractive' });
    await chat.frame.locator('[data-testid="header-model"][data-backend="extractive"]').waitFor({ timeout: 15_000 });
  });

  it('after a window reload the history is there as soon as the chat is (no blank view), and after the side bar is closed and reopened', async function () {
    needs('a follow-up question continues the conversation, and the answer offers follow-ups from headings');
    const turnsBefore = await chat.turns().count();
    await wb.reload();
    const reloaded = Date.now();
    chat = new ChatView(await wb.openChatView());
    // The moment the view shows its input, the turns are there too (from the view's own saved state).
    const atOnce = await chat.turns().count();
    process.stdout.write(
      `      after the reload: the chat with ${atOnce} of ${turnsBefore} turns ${Date.now() - reloaded} ms after the workbench\n`,
    );
    assert.equal(
      atOnce,
      Math.min(turnsBefore, 20),
      'the chat is shown before its history (a blank view after a reload)',
    );
    await wb.runCommand('View: Close Primary Side Bar');
    await wb.page
      .waitForFunction(
        () =>
          document.querySelector('.part.sidebar')?.getBoundingClientRect().width === 0 ||
          !document.querySelector('.part.sidebar.visible'),
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    assert.equal(await wb.chatContainerShown(), false, 'the side bar did not close');
    chat = new ChatView(await wb.openChatView());
    await chat
      .turns()
      .nth(turnsBefore - 1)
      .waitFor({ timeout: 15_000 })
      .catch(async () => {
        throw new Error(
          `the history is not shown after the reload: ${await chat.turns().count()} of ${turnsBefore} turns`,
        );
      });
    assert.equal(await chat.turns().count(), turnsBefore);
    const turn = await chat.ask(ANNUAL);
    assert.equal(
      await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']),
      'done',
      'the chat found after the reload does not answer',
    );
    await wb.screenshot(checkTitle(this));
  });
});
