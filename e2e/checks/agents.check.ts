// Evident as a tool for agents, seen in a real workbench on a copy of the site-policy corpus:
// "Check Text Against the Docs" on an answer pasted into a new editor (one backed sentence, one
// with a planted figure): the summary notification, the status bar, the two highlights in their
// colours, the hover quoting the backing passage, the Problems entry (screenshots of each). Then
// VS Code itself as an MCP client: `.vscode/mcp.json` registering `evident mcp` (the built CLI),
// started from its code lens, lists Evident's two tools; and the extension's features list its
// two language model tools (code-server has no Copilot, so agent mode itself cannot run here).

import * as assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Commands } from '../../src/shared/ids';
import { checksInOrder } from '../lib/checkOrder';
import { paletteTitle } from '../lib/manifest';
import { repoRoot } from '../lib/paths';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

const ANSWER = [
  'Here is what I found:',
  '',
  'To use GitHub Marketplace you must be 13 years of age or older.',
  '',
  'To use GitHub Marketplace you must be 21 years of age or older.',
].join('\n');

/** Each highlighted range of the active editor (VS Code's `ced-*` overlays) with its line's text and its background colour. */
async function highlights(wb: Workbench): Promise<{ line: string; background: string }[]> {
  return wb.page.evaluate(() => {
    const editor = document.querySelector('.editor-group-container.active .monaco-editor');
    if (!editor) return [];
    const lineByTop = new Map<string, string>();
    for (const line of Array.from(editor.querySelectorAll<HTMLElement>('.view-lines > .view-line')))
      lineByTop.set(line.style.top, line.textContent ?? '');
    const out: { line: string; background: string }[] = [];
    for (const overlay of Array.from(editor.querySelectorAll<HTMLElement>('.view-overlays > div'))) {
      for (const d of Array.from(overlay.querySelectorAll<HTMLElement>('[class*="ced-"]'))) {
        const background = getComputedStyle(d).backgroundColor;
        if (!['transparent', 'rgba(0, 0, 0, 0)'].includes(background))
          out.push({ line: (lineByTop.get(overlay.style.top) ?? '').replace(/\u00a0/g, ' '), background });
      }
    }
    return out;
  });
}

describe('Evident for agents and any text (site-policy workspace)', function () {
  this.timeout(180_000);
  const { needs } = checksInOrder();
  let wb: Workbench;

  after(async () => {
    await wb?.close();
  });

  it('Check Text marks a pasted answer: the backed sentence tinted, the planted figure highlighted, summary 1 of 2', async function () {
    const s = session();
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(s.workspaces.agents));
    s.current = wb;
    await wb.waitForExtensionContributions();
    await wb.runCommand('File: New Untitled Text File');
    await wb.page.locator('.editor-group-container.active .monaco-editor textarea').first().waitFor();
    await wb.page.keyboard.type(ANSWER);
    await wb.runCommand(paletteTitle(Commands.checkText));
    // The first check indexes the workspace first (a progress notification), then checks.
    const summary = wb.page.locator('.notifications-toasts .notification-list-item', {
      hasText: '1 of 2 factual sentences backed by the docs; 1 not backed',
    });
    await summary.waitFor({ timeout: 150_000 });
    await wb.page.locator('.statusbar-item', { hasText: '1/2 backed' }).first().waitFor({ timeout: 10_000 });
    const marks = await highlights(wb);
    const backed = marks.filter((m) => m.line.includes('13 years'));
    const unbacked = marks.filter((m) => m.line.includes('21 years'));
    assert.equal(backed.length, 1, `the backed sentence is not highlighted once: ${JSON.stringify(marks)}`);
    assert.equal(unbacked.length, 1, `the unbacked sentence is not highlighted once: ${JSON.stringify(marks)}`);
    assert.notEqual(backed[0].background, unbacked[0].background, 'backed and unbacked look the same');
    assert.ok(!marks.some((m) => m.line.includes('Here is what I found')), 'the exempt sentence is highlighted');
    await wb.screenshot(checkTitle(this));
  });

  it('hovering the backed sentence quotes its passage with a link to its lines', async function () {
    needs(
      'Check Text marks a pasted answer: the backed sentence tinted, the planted figure highlighted, summary 1 of 2',
    );
    await wb.page.locator('.editor-group-container.active .view-lines span', { hasText: '13 years' }).first().hover();
    const hover = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: 'Evident: backed by the docs' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /github-marketplace-terms-of-service\.md/);
    assert.match(text, /you must be 13 years of age or older/);
    assert.match(text, /Open lines \d+–\d+/);
    await wb.screenshot(checkTitle(this));
  });

  it('the planted figure is a Problems entry naming what the passage says', async function () {
    needs(
      'Check Text marks a pasted answer: the backed sentence tinted, the planted figure highlighted, summary 1 of 2',
    );
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Toggle Problems');
    const problem = wb.page
      .locator('.markers-panel .monaco-list-row', {
        hasText: "Not backed by the docs: value-mismatch: '21 years' — the passage says 13 years",
      })
      .first();
    await problem.waitFor({ timeout: 15_000 });
    await wb.screenshot(checkTitle(this));
  });

  it('VS Code as an MCP client: .vscode/mcp.json starts evident mcp, which lists search_docs and check_answer', async function () {
    const s = session();
    const mcpJson = join(s.workspaces.agents, '.vscode', 'mcp.json');
    await mkdir(join(s.workspaces.agents, '.vscode'), { recursive: true });
    // VS Code checks each MCP tool's input schema against the draft-07 meta-schema, which it
    // fetches from json-schema.org: offline, every tool would be "invalid". This machine has no
    // network, so the workspace maps that address to the copy the ajv package ships.
    const metaSchema = JSON.parse(
      await readFile(
        createRequire(join(repoRoot, 'package.json')).resolve('ajv/lib/refs/json-schema-draft-07.json'),
        'utf8',
      ),
    ) as object;
    await writeFile(
      join(s.workspaces.agents, '.vscode', 'settings.json'),
      JSON.stringify({ 'json.schemas': [{ url: 'https://json-schema.org/draft-07/schema', schema: metaSchema }] }),
    );
    await writeFile(
      mcpJson,
      `${JSON.stringify({ servers: { evident: { type: 'stdio', command: process.execPath, args: [join(repoRoot, 'dist', 'cli.js'), 'mcp', '--docs', '${workspaceFolder}', '--no-embeddings'] } } }, null, 2)}\n`,
    );
    await wb.runCommand('View: Toggle Problems');
    await wb.page.keyboard.press('Control+P');
    await wb.page.locator('.quick-input-widget input').fill('mcp.json');
    await wb.page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'mcp.json' })
      .first()
      .click({ timeout: 10_000 });
    const start = wb.page.locator('.codelens-decoration a', { hasText: 'Start' }).first();
    await start.waitFor({ timeout: 20_000 });
    await start.click();
    const tools = wb.page.locator('.codelens-decoration', { hasText: /2 tools/ }).first();
    await tools.waitFor({ timeout: 60_000 });
    await wb.screenshot(checkTitle(this));
  });

  it("VS Code lists Evident's two language model tools among the extension's features", async function () {
    await wb.page.keyboard.press('Escape');
    await wb.page.keyboard.press('Control+Shift+X');
    const search = wb.page
      .locator(
        '.extensions-viewlet .suggest-input-container textarea, .extensions-viewlet .suggest-input-container input',
      )
      .first();
    await search.waitFor({ timeout: 15_000 });
    await wb.page.keyboard.type('@installed evident');
    await wb.page
      .locator('.extensions-list .monaco-list-row', { hasText: 'Evident' })
      .first()
      .click({ timeout: 15_000 });
    await wb.page
      .locator('.extension-editor .action-label', { hasText: 'Features' })
      .first()
      .click({ timeout: 15_000 });
    await wb.page
      .locator('.extension-editor .monaco-list-row', { hasText: 'Language Model Tools' })
      .first()
      .click({ timeout: 15_000 });
    const table = wb.page.locator('.extension-editor', { hasText: 'evident_checkAnswer' }).first();
    await table.waitFor({ timeout: 15_000 });
    const text = await table.innerText();
    assert.match(text, /evident_searchDocs\s+Search the Docs \(Evident\)/);
    assert.match(text, /evident_checkAnswer\s+Check an Answer Against the Docs \(Evident\)/);
    await wb.screenshot(checkTitle(this));
  });
});
