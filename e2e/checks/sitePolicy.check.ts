// The user flows of the extension in a real workbench, on a copy of the site-policy corpus, in
// order on one page: palette reindex → progress and status bar; ask in the sidebar → cited
// answer; hover a chip → passage; click → source at the highlighted lines; open the answer in an
// editor → link and hover; then with Gemini (the fake server, key set through the command):
// stop a hanging turn, and see a laundered sentence struck through with its reason.
// A check whose prerequisite failed stops with "needs …" instead of a confusing error.

import * as assert from 'node:assert/strict';
import { basename } from 'node:path';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import { LAUNDERED_SENTENCE } from '../../test/support/fakeGeminiModes';
import { checksInOrder } from '../lib/checkOrder';
import { ChatView } from '../lib/chatView';
import { paletteTitle } from '../lib/manifest';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

/** Answered by the Marketplace terms ("you must be 13 years of age or older"). */
const QUESTION = 'What is the minimum age to use GitHub Marketplace?';
/** The topic exists (counter notices), the asked fact (a fee) does not. */
const UNANSWERABLE = 'What is the filing fee for a DMCA counter notice?';
/** The age is there; a price for a listing is not. */
const PARTLY_ANSWERED =
  'What is the minimum age to use GitHub Marketplace, and how much does GitHub charge for a Marketplace listing?';

function words(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? [])];
}

describe('UI flows on the site-policy workspace', function () {
  this.timeout(120_000);
  const { needs } = checksInOrder();
  let wb: Workbench;
  let chat: ChatView;
  /** Source path and passage text of the first chip of the offline answer. */
  let cited: { source: string; text: string } | undefined;

  after(async () => {
    await wb?.close();
  });

  it('loads the extension: Evident in the activity bar', async function () {
    const s = session();
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.sitePolicy));
    s.current = wb;
    await wb.waitForExtensionContributions();
    await wb.screenshot(checkTitle(this));
  });

  it('reindex from the palette shows progress, then the status bar says indexed, lexical only', async function () {
    needs('loads the extension: Evident in the activity bar');
    await wb.runCommand(paletteTitle(Commands.reindex));
    // Progress: the notification naming the indexing, or the status bar entry while indexing (polled every frame).
    const progress = await wb.page
      .waitForFunction(
        (extensionId) => {
          const toast = Array.from(document.querySelectorAll('.notifications-toasts .notification-toast')).find((t) =>
            /indexing/i.test(t.textContent ?? ''),
          );
          const item = document.querySelector(`.statusbar-item[id^="${extensionId}"]`);
          const indexing = item && /indexing/i.test(item.textContent ?? '') ? item.textContent : undefined;
          return toast
            ? `notification: ${toast.querySelector('.notification-list-item-message')?.textContent ?? ''}`
            : indexing
              ? `status bar: ${indexing}`
              : undefined;
        },
        EXTENSION_ID,
        { timeout: 30_000, polling: 'raf' },
      )
      .then((handle) => handle.jsonValue())
      .catch(() => undefined);
    assert.ok(
      progress,
      'no progress was shown while reindexing (no "indexing" notification, no indexing state in the status bar)',
    );
    await wb.screenshot(checkTitle(this), 'progress');
    await assert.doesNotReject(
      wb.page.waitForFunction(
        (extensionId) => {
          const item = document.querySelector(`.statusbar-item[id^="${extensionId}"]`);
          const text = `${item?.textContent ?? ''} ${item?.querySelector('a')?.getAttribute('aria-label') ?? ''}`;
          return /lexical/i.test(text) && !/indexing/i.test(text);
        },
        EXTENSION_ID,
        { timeout: 90_000 },
      ),
      'the Evident status bar entry never said "lexical" after the reindex',
    );
    const status = await wb.statusBarText();
    assert.match(status, /\d+/, `the status bar does not give the index size: "${status}"`);
    await wb.screenshot(checkTitle(this));
  });

  it('ask in the sidebar (offline, extractive) gives a cited answer', async function () {
    needs('reindex from the palette shows progress, then the status bar says indexed, lexical only');
    chat = new ChatView(await wb.openChatView());
    assert.equal(
      await chat.byTestId('header-model').getAttribute('data-backend'),
      'extractive',
      'without a key the offline extractive model must answer',
    );
    const turn = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    const answer = turn.locator('[data-testid="answer"]');
    assert.notEqual(
      await answer.getAttribute('data-abstained'),
      'true',
      `the offline model abstained: ${await answer.textContent()}`,
    );
    assert.match((await answer.locator('[data-testid="answer-body"]').textContent()) ?? '', /\b13\b/);
    const chips = turn.locator('[data-testid="citation"]');
    assert.ok((await chips.count()) > 0, 'the answer has no citation chip');
    assert.match((await chat.byTestId('header-retrieval').textContent()) ?? '', /lexical/i);
    await wb.screenshot(checkTitle(this));
  });

  it('hovering a citation chip previews its passage', async function () {
    needs('ask in the sidebar (offline, extractive) gives a cited answer');
    const chip = chat.turns().last().locator('[data-testid="citation"]').first();
    await chip.hover();
    const preview = chip.locator('[data-testid="evidence-preview"]');
    await preview.waitFor({ state: 'visible', timeout: 5_000 });
    const source = ((await preview.locator('[data-testid="preview-source"]').textContent()) ?? '')
      .split(' · ')[0]
      .trim();
    const text = (await preview.locator('[data-testid="preview-text"]').textContent()) ?? '';
    assert.match(source, /\.md$/, `the preview does not name the source file: "${source}"`);
    assert.ok(text.length > 20, `the preview shows no passage text: "${text}"`);
    const [chipBox, previewBox] = await Promise.all([chip.boundingBox(), preview.boundingBox()]);
    assert.ok(chipBox && previewBox);
    const covers =
      previewBox.y < chipBox.y + chipBox.height &&
      chipBox.y < previewBox.y + previewBox.height &&
      previewBox.x < chipBox.x + chipBox.width &&
      chipBox.x < previewBox.x + previewBox.width;
    assert.ok(
      !covers,
      `the preview covers its chip: chip ${JSON.stringify(chipBox)}, preview ${JSON.stringify(previewBox)}`,
    );
    cited = { source, text };
    await wb.screenshot(checkTitle(this));
  });

  it('clicking a chip opens the source at the cited lines, highlighted', async function () {
    needs('hovering a citation chip previews its passage');
    assert.ok(cited);
    const chip = chat.turns().last().locator('[data-testid="citation"]').first();
    await chip.click();
    await chip
      .locator('[data-testid="evidence-preview"]')
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => {
        throw new Error('the chip preview stayed open after the click that opened the source');
      });
    await wb.page
      .waitForFunction(
        (name) =>
          (
            document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label') ?? ''
          ).includes(name),
        basename(cited.source),
        { timeout: 15_000 },
      )
      .catch(() => {
        throw new Error(`clicking the chip did not open ${cited?.source} in the editor`);
      });
    // Decorations render after the editor has opened and scrolled to the range.
    let highlightedLines: string[] = [];
    for (
      const deadline = Date.now() + 10_000;
      highlightedLines.length === 0 && Date.now() < deadline;
      await wb.page.waitForTimeout(200)
    ) {
      ({ highlightedLines } = await wb.activeEditorDecorations());
    }
    const highlighted = words(highlightedLines.join(' '));
    const passage = words(cited.text);
    const overlap = passage.filter((w) => highlighted.includes(w));
    assert.ok(highlightedLines.length > 0, 'no highlighted line in the opened source');
    assert.ok(
      overlap.length >= 0.6 * passage.length,
      `the highlighted lines do not hold the passage (${overlap.length}/${passage.length} words): ${highlightedLines.join(' | ').slice(0, 300)}`,
    );
    await wb.screenshot(checkTitle(this));
  });

  it('open the answer in an editor: citations decorated, hover shows the passage, the link opens the source', async function () {
    needs('clicking a chip opens the source at the cited lines, highlighted');
    assert.ok(cited);
    await chat.turns().last().locator('[data-testid="open-in-editor"]').click();
    const token = wb.editorToken('E1');
    await token.waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error('the answer opened in the editor shows no [E1]');
    });
    await wb.page
      .locator('.editor-group-container.active .monaco-editor .view-lines span[class*="ced-"]')
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
    const { inline } = await wb.activeEditorDecorations();
    const decoratedCitations = inline.filter((d) => /^E\d+$/.test(d.text.trim()));
    assert.ok(
      decoratedCitations.length > 0,
      `the citations of the answer document are not decorated (decorated spans: ${JSON.stringify(inline).slice(0, 200)})`,
    );
    await token.hover();
    const hover = wb.page.locator('.monaco-hover:visible').first();
    await hover.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error('hovering [E1] in the answer document shows no hover');
    });
    const hoverWords = words((await hover.textContent()) ?? '');
    const passage = words(cited.text);
    assert.ok(
      passage.filter((w) => hoverWords.includes(w)).length >= Math.min(5, passage.length),
      `the hover does not show the passage: ${(await hover.textContent())?.slice(0, 200)}`,
    );
    await wb.screenshot(checkTitle(this), 'hover');
    // Move away so the hover closes and does not cover the token, then Ctrl+click it.
    await wb.page.mouse.move(5, 450);
    await hover.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    // Mouse events at the token's position (a Ctrl press re-renders the token as a link, so a locator click races it).
    const box = await token.boundingBox();
    assert.ok(box, '[E1] is not on screen');
    await wb.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await wb.page.keyboard.down('Control');
    await wb.page.mouse.down();
    await wb.page.mouse.up();
    await wb.page.keyboard.up('Control');
    await wb.page
      .waitForFunction(
        (name) =>
          (
            document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label') ?? ''
          ).includes(name),
        basename(cited.source),
        { timeout: 15_000 },
      )
      .catch(() => {
        throw new Error(`Ctrl+click on [E1] in the answer document did not open ${cited?.source}`);
      });
    await wb.screenshot(checkTitle(this), 'link');
  });

  it('an unanswerable question shows the not-found box with its reason', async function () {
    needs('ask in the sidebar (offline, extractive) gives a cited answer');
    const turn = await chat.ask(UNANSWERABLE);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    const answer = turn.locator('[data-testid="answer"]');
    assert.equal(
      await answer.getAttribute('data-abstained'),
      'true',
      `answered instead of abstaining: ${await answer.textContent()}`,
    );
    const box = answer.locator('[data-testid="abstention"]');
    await box.waitFor({ state: 'visible', timeout: 5_000 });
    const reason = (await box.locator('[data-testid="abstention-detail"]').textContent()) ?? '';
    // The reason says what the documents do mention and what they do not (the asked fee).
    assert.match(reason, /mention .*but not .*fee/i, `the not-found box gives no reason: "${reason}"`);
    await wb.screenshot(checkTitle(this));
  });

  it('a partly answered question says which part is missing', async function () {
    needs('ask in the sidebar (offline, extractive) gives a cited answer');
    const turn = await chat.ask(PARTLY_ANSWERED);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    const answer = turn.locator('[data-testid="answer"]');
    assert.notEqual(
      await answer.getAttribute('data-abstained'),
      'true',
      `abstained on a partly answerable question: ${await answer.textContent()}`,
    );
    assert.match((await answer.locator('[data-testid="answer-body"]').textContent()) ?? '', /\b13\b/);
    const part = answer.locator('[data-testid="relevance"][data-verdict="partial"]');
    await part.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match((await part.textContent()) ?? '', /not found: .*charge for a Marketplace listing/i);
    await wb.screenshot(checkTitle(this));
  });

  it('Gemini (fake server): the API key command switches the model', async function () {
    needs('ask in the sidebar (offline, extractive) gives a cited answer');
    assert.ok(session().fakeGemini, 'test/support/fakeGeminiMain.ts is missing: no fake Gemini server');
    await wb.runCommand(paletteTitle(Commands.setGeminiApiKey));
    await wb.answerInputBox('e2e-fake-key');
    await chat.frame
      .locator('[data-testid="header-model"][data-backend="gemini"]')
      .waitFor({ timeout: 15_000 })
      .catch(() => {
        throw new Error('after setting the API key the chat header does not show the Gemini backend');
      });
    await wb.screenshot(checkTitle(this));
  });

  it('Gemini (fake server): stop cancels a turn that hangs', async function () {
    needs('Gemini (fake server): the API key command switches the model');
    // The fake server holds its first reply (HANG_MS): this must be the first Gemini turn of the run.
    const turn = await chat.ask(QUESTION);
    const stop = chat.byTestId('stop-button');
    await stop.waitFor({ state: 'visible', timeout: 10_000 });
    await wb.page.waitForTimeout(1_000);
    assert.equal(await turn.getAttribute('data-status'), 'pending', 'the turn finished before it could be stopped');
    await stop.click();
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled'], 15_000), 'cancelled');
    await turn.locator('[data-testid="turn-cancelled"]').waitFor({ state: 'visible' });
    await wb.screenshot(checkTitle(this));
  });

  it('Gemini (fake server): a laundered sentence is struck through with its reason', async function () {
    needs('Gemini (fake server): the API key command switches the model');
    const turn = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    const dropped = turn.locator('[data-testid="dropped-sentence"]');
    await dropped
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(async () => {
        throw new Error(`no dropped sentence shown; answer: ${await turn.textContent()}`);
      });
    assert.ok(
      ((await dropped.first().textContent()) ?? '').includes(LAUNDERED_SENTENCE.slice(0, 40)),
      'the struck sentence is not the laundered one',
    );
    const decoration = await dropped
      .first()
      .evaluate((el) =>
        [el, ...Array.from(el.querySelectorAll('*'))].some((e) =>
          getComputedStyle(e).textDecorationLine.includes('line-through'),
        ),
      );
    assert.ok(decoration, 'the dropped sentence is not struck through');
    assert.match((await turn.locator('[data-testid="drop-reason"]').first().textContent()) ?? '', /dropped: \S/);
    assert.ok(
      (await turn.locator('[data-testid="sentence"][data-verdict="kept"] [data-testid="citation"]').count()) > 0,
      'the backed sentence was not kept with its citation',
    );
    assert.equal(await turn.locator('[data-testid="metric-dropped"]').getAttribute('data-value'), '1');
    await wb.screenshot(checkTitle(this));
  });
});
