// No dead ends (issue 24), on one page, in order, in a folder whose only Markdown file is 5 MB
// (over the index's 2 MB limit): the chat names that file and why it was skipped, offers the
// include/exclude settings (opened by id) and no example question that cannot work; a question
// fails with that cause in full and the same button; with the file gone, the chat says no
// Markdown was found; with a small file beside a big one, the header names the skipped one, once,
// dismissibly. Then the palette commands that used to do nothing visible or too much: Clear Chat
// History offers Undo, Clear Index asks first, the shared-index password commands and Stop
// Answering say when there is nothing to do.

import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Commands } from '../../src/shared/ids';
import { checksInOrder } from '../lib/checkOrder';
import { ChatView } from '../lib/chatView';
import { failures, measureChatContrast } from '../lib/contrast';
import { paletteTitle } from '../lib/manifest';
import { OVERSIZED_DOC, session } from '../lib/session';
import { THEMES } from '../lib/themes';
import { checkTitle, Workbench } from '../lib/workbench';

const QUESTION = 'How much annual leave do employees get?';
const SKIPPED_REASON = 'too large (5.0 MB; the limit is 2 MB)';

describe('no dead ends (a workspace whose only Markdown file is too large)', function () {
  this.timeout(180_000);
  const { needs } = checksInOrder();
  let wb: Workbench;
  let chat: ChatView;

  after(async () => {
    await wb?.close();
  });

  /** A notification toast with this text, and its buttons. */
  const toast = (text: RegExp) =>
    wb.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();

  async function expectToast(text: RegExp, what: string): Promise<void> {
    await toast(text)
      .waitFor({ timeout: 10_000 })
      .catch(async () => {
        throw new Error(
          `${what}: no notification matching ${text} (${
            (await wb.page
              .locator('.notifications-toasts')
              .textContent()
              .catch(() => '')) ?? ''
          })`,
        );
      });
  }

  /** The Settings editor shows the setting whose title contains `label` (not "No Settings Found"). */
  async function expectSetting(label: string, id: string): Promise<void> {
    await wb.page.locator('.settings-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    await wb.page
      .waitForFunction(
        (query) => (document.querySelector('.settings-editor .settings-header')?.textContent ?? '').includes(query),
        `@id:${id}`,
        { timeout: 10_000 },
      )
      .catch(() => {
        throw new Error(`the Settings editor was not opened on @id:${id}`);
      });
    await wb.page
      .locator('.settings-editor .setting-item-contents', { hasText: label })
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 })
      .catch(() => {
        throw new Error(`the Settings editor does not show "${label}"`);
      });
    assert.equal(
      await wb.page.locator('.settings-editor .no-results-message:visible').count(),
      0,
      '"No Settings Found"',
    );
  }

  it('the skipped file is named with its reason, with the include/exclude settings and no example that cannot work', async function () {
    const s = session();
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.deadEnds));
    s.current = wb;
    await wb.waitForExtensionContributions();
    chat = new ChatView(await wb.openChatView());
    await chat.frame.locator('[data-testid="header-index"][data-state="indexed"]').waitFor({ timeout: 60_000 });
    const why = chat.byTestId('empty-index-text');
    await why.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error('the empty chat does not say why nothing is indexed');
    });
    const text = (await why.textContent()) ?? '';
    assert.ok(
      text.includes(`${OVERSIZED_DOC} (${SKIPPED_REASON})`),
      `the skipped file and its reason are not named: ${text}`,
    );
    assert.doesNotMatch(text, /…/, 'the message is cut');
    assert.equal(
      await chat.byTestId('example-question').count(),
      0,
      'an example question is offered though nothing can answer it',
    );
    await wb.screenshot(checkTitle(this));
    await chat.byTestId('empty-action-index-settings').click();
    await expectSetting('Include', 'evident.index.include');
    await wb.screenshot(checkTitle(this), 'settings');
    await wb.runCommand('View: Close All Editors');
  });

  it('a question then fails with that cause in full and the button to the settings', async function () {
    needs(
      'the skipped file is named with its reason, with the include/exclude settings and no example that cannot work',
    );
    const turn = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'failed');
    const error = turn.locator('[data-testid="turn-error"]');
    assert.equal(await error.getAttribute('data-error-kind'), 'no-documents');
    const text = (await error.locator('[data-testid="error-text"]').textContent()) ?? '';
    assert.ok(text.includes(`${OVERSIZED_DOC} (${SKIPPED_REASON})`), `the error does not name the real cause: ${text}`);
    assert.match(
      text,
      /or change the include and exclude settings to index other files\.$/,
      `the error is cut or ends oddly: ${text}`,
    );
    await wb.screenshot(checkTitle(this));
    // The view with the error box in every kind of theme: text 4.5:1, the box's border 3:1 against the view.
    const problems: string[] = [];
    for (const theme of THEMES) {
      await wb.selectColorTheme(theme.label, theme.bodyClass);
      await wb.page.waitForTimeout(400);
      const samples = await measureChatContrast(chat.frame);
      assert.ok(
        samples.some((s) => s.kind === 'box-border') &&
          samples.some((s) => s.kind === 'text' && s.what.startsWith('error-text')),
        `${theme.label}: the error box was not measured`,
      );
      for (const s of failures(samples))
        problems.push(`${theme.label}: ${s.kind} ${s.what} ${s.ratio.toFixed(2)}:1 (${s.colour} on ${s.background})`);
      await wb.screenshotSideBar(checkTitle(this), theme.kind);
    }
    assert.deepEqual(problems, [], `contrast of the error box:\n${problems.join('\n')}`);
    await error.locator('[data-testid="error-index-settings"]').click();
    await expectSetting('Exclude', 'evident.index.exclude');
    await wb.runCommand('View: Close All Editors');
  });

  it('with the file gone, the chat says no Markdown was found; a small file beside a big one: the header names the skipped one, once, dismissibly', async function () {
    needs(
      'the skipped file is named with its reason, with the include/exclude settings and no example that cannot work',
    );
    const folder = session().workspaces.deadEnds;
    const big = join(folder, OVERSIZED_DOC);
    await rm(big);
    // There are turns now: the header says it (the empty state did before).
    const empty = chat.byTestId('empty-index-notice');
    await empty
      .filter({ hasText: 'No Markdown files were found' })
      .waitFor({ timeout: 20_000 })
      .catch(async () => {
        throw new Error(
          `after the only file was removed the chat does not say no Markdown was found: ${await empty.textContent().catch(() => '?')}`,
        );
      });
    assert.equal(await empty.locator('[data-testid="empty-index-notice-settings"]').count(), 1);
    assert.equal(await chat.byTestId('example-question').count(), 0);
    const turn = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'failed');
    assert.match(
      (await turn.locator('[data-testid="error-text"]').textContent()) ?? '',
      /^No Markdown files were found in this workspace/,
    );
    await wb.screenshot(checkTitle(this));

    // A policy that can be indexed, and the big file back: answers work, the header names the skipped file.
    await writeFile(
      join(folder, 'leave.md'),
      '# Leave\n\n## Annual leave\n\nEmployees get 25 days of annual leave per year.\n',
    );
    await writeFile(big, `# Exported handbook\n\n${'Employees accrue leave every pay period.\n\n'.repeat(130_000)}`);
    await wb.runCommand(paletteTitle(Commands.reindex));
    const notice = chat.byTestId('skipped-notice');
    await notice.waitFor({ timeout: 30_000 }).catch(() => {
      throw new Error('the header does not name the skipped file while other files are indexed');
    });
    assert.match(
      (await notice.textContent()) ?? '',
      new RegExp(`1 file was not indexed: ${OVERSIZED_DOC.replace('.', '\\.')} \\(too large`),
    );
    assert.equal(await notice.locator('[data-testid="skipped-notice-settings"]').count(), 1);
    const answered = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(answered, ['done', 'failed', 'cancelled']), 'done');
    assert.equal(await chat.byTestId('skipped-notice').count(), 1, 'the skipped file is named more than once');
    assert.equal(
      await answered.locator('[data-testid="notice"]', { hasText: OVERSIZED_DOC }).count(),
      0,
      'the skipped file is repeated under the answer',
    );
    await wb.screenshot(checkTitle(this), 'skipped-notice');
    await notice.locator('[data-testid="notice-dismiss"]').click();
    assert.equal(await chat.byTestId('skipped-notice').count(), 0);
  });

  it('Clear Chat History offers Undo, which brings the turns back', async function () {
    needs('a question then fails with that cause in full and the button to the settings');
    const before = await chat.turns().count();
    assert.ok(before >= 2);
    await wb.runCommand(paletteTitle(Commands.clearHistory));
    await expectToast(/chat history cleared/, 'Clear Chat History');
    await chat.byTestId('empty-state').waitFor({ timeout: 10_000 });
    assert.equal(await chat.turns().count(), 0);
    await wb.screenshot(checkTitle(this));
    await toast(/chat history cleared/)
      .locator('.monaco-button', { hasText: 'Undo' })
      .click();
    await chat
      .turns()
      .nth(before - 1)
      .waitFor({ timeout: 10_000 })
      .catch(async () => {
        throw new Error(`Undo did not bring the history back: ${await chat.turns().count()} of ${before} turns`);
      });
    assert.equal(await chat.turns().count(), before);
  });

  it('Clear Index asks first, and Cancel keeps the index', async function () {
    needs(
      'with the file gone, the chat says no Markdown was found; a small file beside a big one: the header names the skipped one, once, dismissibly',
    );
    await wb.runCommand(paletteTitle(Commands.clearIndex));
    const dialog = wb.page.locator('.monaco-dialog-box', { hasText: 'delete the index of this workspace' });
    await dialog.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error('Clear Index did not ask for confirmation');
    });
    assert.match((await dialog.textContent()) ?? '', /documents are not touched/);
    await wb.screenshot(checkTitle(this));
    await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
    await wb.page.waitForTimeout(500);
    assert.equal(
      await chat.frame.locator('[data-testid="header-index"]').getAttribute('data-state'),
      'indexed',
      'Cancel cleared the index anyway',
    );
  });

  it('the shared-index password commands and Stop Answering say when there is nothing to do', async function () {
    needs(
      'the skipped file is named with its reason, with the include/exclude settings and no example that cannot work',
    );
    await wb.runCommand(paletteTitle(Commands.setStorePassword));
    await expectToast(/no shared index is configured/, 'Set Shared Index Password');
    assert.equal(
      await wb.page.locator('.quick-input-widget input[type="password"]:visible').count(),
      0,
      'it asked for a password anyway',
    );
    assert.equal(
      await toast(/no shared index is configured/)
        .locator('.monaco-button', { hasText: 'Open Setting' })
        .count(),
      1,
    );
    await wb.runCommand(paletteTitle(Commands.clearStorePassword));
    await expectToast(/no shared index password is stored/, 'Clear Shared Index Password');
    assert.equal(await toast(/password cleared/).count(), 0, 'it said "cleared" though none was set');
    await wb.runCommand(paletteTitle(Commands.stop));
    await expectToast(/nothing to stop/, 'Stop Answering');
    await wb.screenshot(checkTitle(this));
  });
});
