// The walkthrough step "Index your documents" after the automatic first index, when the user opens
// the walkthrough only once indexing has finished (chat.check.ts covers the other order: open
// during the first index). A fresh page is a fresh browser context, so no walkthrough progress is
// stored yet, and VS Code's walkthrough service is created only when the walkthrough opens, after
// the `evident.indexed` context key turned true: VS Code never ticks an `onContext` step whose
// condition already held when the step registered, so this fails unless the host marks it done.
// Then a question asked in the chat (not through the Ask command) ticks "Ask a question".

import * as assert from 'node:assert/strict';
import { ChatView } from '../lib/chatView';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

/** Resolves once the walkthrough step titled `title` shows VS Code's check mark (`.codicon.complete`). */
async function stepTicked(wb: Workbench, title: string): Promise<void> {
  await wb.page.waitForFunction(
    (wanted) => {
      const el = Array.from(document.querySelectorAll('.getting-started-step')).find((e) =>
        (e.textContent ?? '').includes(wanted),
      );
      return el !== undefined && el.querySelector('.codicon.complete') !== null;
    },
    title,
    { timeout: 10_000 },
  );
}

describe('the getting-started walkthrough (fresh site-policy workspace)', function () {
  let wb: Workbench | undefined;

  after(async () => {
    await wb?.close();
  });

  it('opened only after the automatic first index, the step "Index your documents" is ticked', async function () {
    const s = session();
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.walkthrough));
    s.current = wb;
    await wb.waitForExtensionContributions();
    // Opening the view activates the extension, which indexes the new workspace for the first time.
    const chat = new ChatView(await wb.openChatView());
    await chat.frame.locator('[data-testid="header-index"][data-state="indexed"]').waitFor({ timeout: 120_000 });
    // No walkthrough was open so far in this browser context.
    assert.equal(await wb.page.locator('.getting-started-step').count(), 0, 'a walkthrough page was already open');
    await wb.runCommand('Welcome: Open Walkthrough...');
    const pick = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Evident' }).first();
    await pick.waitFor({ timeout: 10_000 });
    await pick.click();
    const step = wb.page.locator('.getting-started-step', { hasText: 'Index your documents' }).first();
    await step.waitFor({ timeout: 15_000 });
    const ticked = () => stepTicked(wb!, 'Index your documents');
    await ticked().catch(async () => {
      await wb!.screenshot(checkTitle(this), 'not-ticked');
      throw new Error(
        `the "Index your documents" step is not ticked: ${await step.evaluate((e) => e.outerHTML.slice(0, 400))}`,
      );
    });
    // Not every step: "Ask a question" completes only on its command, which nothing ran here.
    const ask = wb.page.locator('.getting-started-step', { hasText: 'Ask a question' }).first();
    assert.equal(
      await ask.evaluate((e) => e.querySelector('.codicon.complete') !== null),
      false,
      'the "Ask a question" step is ticked too: the check cannot tell steps apart',
    );
    await wb.screenshot(checkTitle(this));

    // A new window on the same, already indexed workspace and browser profile: still ticked.
    await wb.page.reload();
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await wb.waitForExtensionContributions();
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Evident' })
      .first()
      .click({ timeout: 10_000 });
    await step.waitFor({ timeout: 15_000 });
    await ticked().catch(() => {
      throw new Error('after a reload the "Index your documents" step is no longer ticked');
    });
    await wb.screenshot(checkTitle(this), 'after-reload');
  });

  it('the step "Ask a question" is ticked by a question asked in the chat (not only by the Ask command)', async function () {
    if (!wb) throw new Error('not run: needs the walkthrough page of the check before');
    const chat = new ChatView(await wb.openChatView());
    const turn = await chat.ask('What is a DMCA takedown notice?');
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    await stepTicked(wb, 'Ask a question').catch(async () => {
      await wb!.screenshot(checkTitle(this), 'not-ticked');
      throw new Error('asking in the chat did not tick "Ask a question"');
    });
    await wb.screenshot(checkTitle(this));
  });
});
