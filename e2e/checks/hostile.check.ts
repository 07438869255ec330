// The hostile workspace (test/fixtures/hostile: <script>, <img onerror>, javascript: links, text
// telling the model to drop its citations): asking about it shows document text as text, creates
// no element from document markup, and runs nothing (no dialog, no handler).

import * as assert from 'node:assert/strict';
import { Commands, EXTENSION_ID } from '../../src/shared/ids';
import { ChatView } from '../lib/chatView';
import { paletteTitle } from '../lib/manifest';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

/** Answered by parking.md "Booking notes", the passage that also carries the encoded <script> text. */
const QUESTION = 'When are parking spaces released if nobody arrives?';

describe('UI flows on the hostile workspace', function () {
  this.timeout(120_000);
  let wb: Workbench | undefined;

  after(async () => {
    await wb?.close();
  });

  it('shows markup from documents as text and executes nothing', async function () {
    const s = session();
    assert.ok(s.workspaces.hostile, 'test/fixtures/hostile is missing');
    const dialogs: string[] = [];
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.hostile));
    s.current = wb;
    wb.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await wb.waitForExtensionContributions();
    await wb.runCommand(paletteTitle(Commands.reindex));
    await wb.page.waitForFunction(
      (extensionId) =>
        /lexical/i.test(document.querySelector(`.statusbar-item[id^="${extensionId}"]`)?.textContent ?? ''),
      EXTENSION_ID,
      { timeout: 60_000 },
    );
    const chat = new ChatView(await wb.openChatView());
    const scriptsOf = (): Promise<string[]> =>
      chat.frame
        .locator('body')
        .evaluate(() => Array.from(document.scripts).map((sc) => sc.src || `inline:${sc.text.slice(0, 60)}`));
    const scriptsBefore = await scriptsOf();
    const turn = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']), 'done');
    assert.match((await turn.locator('[data-testid="answer-body"]').textContent()) ?? '', /10:00/);
    const chip = turn.locator('[data-testid="citation"]').first();
    await chip.waitFor({ timeout: 5_000 }).catch(() => {
      throw new Error('the answer lost its citations (the document told the model to drop them)');
    });

    // The passage's encoded markup is displayed literally in the chip preview.
    await chip.hover();
    const preview = chip.locator('[data-testid="preview-text"]');
    await preview.waitFor({ state: 'visible', timeout: 5_000 });
    assert.ok(
      ((await preview.textContent()) ?? '').includes('<script>alert(6)</script>'),
      `the encoded <script> text is not shown as text: ${await preview.textContent()}`,
    );

    // Nothing from the documents became an element, and nothing ran.
    assert.deepEqual(await scriptsOf(), scriptsBefore, 'a script element appeared in the chat after the answer');
    const dom = await chat.frame.locator('body').evaluate((body) => ({
      media: body.querySelectorAll('img, iframe, object, embed, style:not([nonce])').length,
      handlers: Array.from(body.querySelectorAll('*')).filter((el) =>
        Array.from(el.attributes).some((a) => a.name.startsWith('on')),
      ).length,
      javascriptLinks: body.querySelectorAll('a[href^="javascript:" i], [href^="data:" i]').length,
      bodyHidden: getComputedStyle(body).display === 'none',
    }));
    assert.deepEqual(
      dom,
      { media: 0, handlers: 0, javascriptLinks: 0, bodyHidden: false },
      'document markup reached the chat DOM',
    );
    await wb.page.waitForTimeout(500);
    assert.deepEqual(dialogs, [], 'a script from the documents ran');
    await wb.screenshot(checkTitle(this));
  });
});
