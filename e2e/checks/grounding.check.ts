// Built-in grounding (route 2) in the chat view, with the fake Gemini server's canned Google
// Search answer (test/support/fakeGeminiModes.ts GROUNDED_DEMO): choose "Gemini + Google Search"
// through "Evident: Choose Model…", ask, and see the two covered sentences with web-source chips,
// the third struck through with no-grounding-support, coverage 67%, and Google's Search
// Suggestions rendered (styled) with nothing from their markup running. A web chip opens through
// VS Code's external-link confirmation. The model setting is put back to Auto at the end.

import * as assert from 'node:assert/strict';
import { Commands } from '../../src/shared/ids';
import { GROUNDED_DEMO } from '../../test/support/fakeGeminiModes';
import { ChatView } from '../lib/chatView';
import { paletteTitle } from '../lib/manifest';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

async function pickModel(wb: Workbench, label: string): Promise<void> {
  await wb.runCommand(paletteTitle(Commands.chooseModel));
  const input = wb.page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(label);
  await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 10_000 });
  await wb.page.keyboard.press('Enter');
}

describe('Built-in grounding in the chat view', function () {
  this.timeout(180_000);
  let wb: Workbench | undefined;

  after(async () => {
    if (wb) {
      await pickModel(wb, 'Auto').catch(() => undefined);
      await wb.close();
    }
  });

  it('Gemini + Google Search: web chips, a dropped unsupported sentence and the search suggestions', async function () {
    const s = session();
    assert.ok(s.fakeGemini, 'test/support/fakeGeminiMain.ts is missing: no fake Gemini server');
    const dialogs: string[] = [];
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.sitePolicy));
    s.current = wb;
    wb.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await wb.waitForExtensionContributions();
    await wb.runCommand(paletteTitle(Commands.setGeminiApiKey));
    await wb.answerInputBox('e2e-fake-key');
    const chat = new ChatView(await wb.openChatView());
    await pickModel(wb, 'Gemini + Google Search');
    await chat.frame
      .locator('[data-testid="header-model"][data-backend="google-search"]')
      .waitFor({ timeout: 15_000 })
      .catch(() => {
        throw new Error(
          'after choosing "Gemini + Google Search" the chat header does not show the google-search backend',
        );
      });

    const turn = await chat.ask(GROUNDED_DEMO.question);
    assert.equal(
      await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']),
      'done',
      `${await turn.textContent()}`,
    );

    const kept = turn.locator('[data-testid="sentence"][data-verdict="kept"]');
    assert.equal(await kept.count(), 2);
    for (const [i, text] of GROUNDED_DEMO.kept.entries()) {
      assert.ok(
        ((await kept.nth(i).textContent()) ?? '').startsWith(text),
        `kept sentence ${i}: ${await kept.nth(i).textContent()}`,
      );
    }
    assert.deepEqual(
      await kept
        .locator('[data-testid="web-source"]')
        .evaluateAll((chips) => chips.map((c) => c.getAttribute('data-domain'))),
      ['history.example.org', 'visit-dus.example.com'],
    );
    const dropped = turn.locator('[data-testid="dropped-sentence"]');
    assert.equal(await dropped.count(), 1);
    assert.equal(await dropped.getAttribute('data-reason-code'), 'no-grounding-support');
    assert.ok(((await dropped.textContent()) ?? '').includes(GROUNDED_DEMO.dropped));
    assert.equal(await turn.locator('[data-testid="metric-coverage"]').getAttribute('data-value'), String(2 / 3));
    const sources = turn.locator('[data-testid="sources"] [data-testid="web-source"]');
    assert.deepEqual(
      await sources.locator('[data-testid="web-source-title"]').allTextContents(),
      GROUNDED_DEMO.sources.map((x) => x.title),
    );

    // Hover: title and URL.
    await kept.first().locator('[data-testid="web-source"]').hover();
    const preview = kept.first().locator('[data-testid="evidence-preview"]');
    await preview.waitFor({ state: 'visible', timeout: 5_000 });
    assert.equal(await preview.locator('[data-testid="preview-source"]').textContent(), GROUNDED_DEMO.sources[0].uri);
    assert.equal(
      await preview.locator('[data-testid="preview-heading"]').textContent(),
      GROUNDED_DEMO.sources[0].title,
    );
    await wb.screenshot(checkTitle(this), 'hover');
    await turn.locator('[data-testid="question"]').hover();

    // The suggestions: rendered with Google's CSS (applied through CSSOM under the strict CSP), scripts inert.
    const suggestions = turn.locator('[data-testid="search-suggestions"]');
    await suggestions.waitFor({ timeout: 5_000 });
    const rendered = await suggestions.evaluate((host) => {
      const root = host.shadowRoot;
      const chip = root?.querySelector('a.chip');
      return {
        text: chip?.textContent ?? '',
        href: chip?.getAttribute('href') ?? '',
        radius: chip ? getComputedStyle(chip).borderTopLeftRadius : '',
        elements: Array.from(root?.querySelectorAll('*') ?? []).map((e) => e.localName),
        handlers: Array.from(root?.querySelectorAll('*') ?? []).filter((e) =>
          Array.from(e.attributes).some((a) => a.name.startsWith('on')),
        ).length,
      };
    });
    assert.equal(rendered.text, GROUNDED_DEMO.query);
    assert.match(rendered.href, /^https:\/\/www\.google\.com\/search\?q=/);
    assert.equal(rendered.radius, '16px', "Google's CSS did not apply to the suggestions");
    assert.ok(
      !rendered.elements.some((e) => ['script', 'img', 'style', 'iframe'].includes(e)),
      rendered.elements.join(','),
    );
    assert.equal(rendered.handlers, 0);
    await wb.page.waitForTimeout(500);
    assert.deepEqual(dialogs, [], 'a script from the search suggestions ran');
    await turn.scrollIntoViewIfNeeded();
    await wb.screenshot(checkTitle(this));

    // A web chip opens through VS Code's external-link confirmation.
    await sources.first().click();
    const confirm = wb.page.locator('.monaco-dialog-box');
    await confirm.waitFor({ timeout: 10_000 }).catch(() => {
      throw new Error('clicking a web source did not ask to open the external website');
    });
    assert.match((await confirm.textContent()) ?? '', /history\.example\.org/);
    await wb.screenshot(checkTitle(this), 'open-external');
    await wb.page.keyboard.press('Escape');
  });
});
