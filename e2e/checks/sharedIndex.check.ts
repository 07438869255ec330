// The extension answering from a shared team index: a PostgreSQL with pgvector (PGlite behind
// pglite-socket on 127.0.0.1, started here; the real `pg` client of the engine talks to it),
// indexed by the CLI from a copy of the site-policy corpus. The user setting
// evident.store.connection points the extension at it; the workspace holds none of the indexed
// files, so a citation opens the passage read-only with its version. The setting is removed
// after, whatever happens.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Locator } from 'playwright-core';
import { Settings } from '../../src/shared/ids';
import { startTestPostgres, type TestPostgres } from '../../test/support/pgliteServer';
import { ChatView } from '../lib/chatView';
import { repoRoot } from '../lib/paths';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

const QUESTION = 'What is the minimum age to use GitHub Marketplace?';

describe('a shared team index (PostgreSQL + pgvector) answers in the editor', function () {
  this.timeout(180_000);
  let server: TestPostgres | undefined;
  let wb: Workbench | undefined;
  let settingsFile: string;
  let settingsBefore: string;
  let cited: { source: string; chip: Locator } | undefined;

  before(async () => {
    const s = session();
    server = await startTestPostgres();
    // Asynchronously: the server runs in this process and must keep answering meanwhile.
    await promisify(execFile)(
      process.execPath,
      [
        join(repoRoot, 'dist', 'cli.js'),
        'index',
        '--docs',
        s.workspaces.sitePolicy,
        '--store',
        server.url,
        '--no-embeddings',
      ],
      {
        env: { ...process.env, XDG_CACHE_HOME: join(s.home, 'cli-cache') },
      },
    ).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`evident index --store failed: ${error.stderr ?? error.message}`);
    });
    settingsFile = join(s.home, 'user-data', 'User', 'settings.json');
    settingsBefore = await readFile(settingsFile, 'utf8');
    await writeFile(
      settingsFile,
      JSON.stringify({ ...JSON.parse(settingsBefore), [Settings.storeConnection]: server.url }, null, 2),
    );
  });

  after(async () => {
    if (settingsBefore !== undefined) await writeFile(settingsFile, settingsBefore);
    await wb?.close();
    await server?.stop();
  });

  it('answers from the shared index, names it in the header, and opens a citation as the read-only passage with its version', async function () {
    const s = session();
    // A workspace without the indexed documents: its own Markdown is not what answers.
    const folder = join(s.home, 'workspaces', 'shared-index', 'notes');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'notes.md'), '# Team notes\n\nNothing about the Marketplace here.\n');
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(folder));
    s.current = wb;
    await wb.waitForExtensionContributions();
    const chat = new ChatView(await wb.openChatView());
    const header = chat.byTestId('header-store');
    await header.waitFor({ timeout: 60_000 }).catch(() => {
      throw new Error(
        'the chat header never named a shared index (is evident.store.connection read from the user settings?)',
      );
    });
    // The server's own user, host, port and database (a run database under CI's server), never its password.
    const url = new URL(server!.url);
    assert.equal(
      (await header.textContent()) ?? '',
      `shared index postgres://${url.username}@${url.hostname}:${url.port}${url.pathname}`,
    );

    const turn = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(turn, ['done', 'failed', 'cancelled'], 90_000), 'done');
    assert.equal(
      await turn.locator('[data-testid="answer"]').getAttribute('data-abstained'),
      'false',
      'the shared index did not answer',
    );
    const chip = turn.locator('[data-testid="citation"]').first();
    await chip.click();
    await wb.page
      .waitForFunction(
        () =>
          (document.querySelector('.editor-group-container.active .tab.active')?.getAttribute('aria-label') ?? '')
            .length > 0,
        undefined,
        { timeout: 15_000 },
      )
      .catch(() => undefined);
    const editor = await wb.activeEditor();
    // Monaco renders spaces as no-break spaces: \s matches both.
    assert.match(
      editor.text,
      /version\s[0-9a-f]{16}/,
      `the cited passage did not open with its version (editor "${editor.title}": ${editor.text.slice(0, 200)})`,
    );
    assert.match(editor.text, /From\sthe\sshared\sindex\spostgres:\/\//);
    await wb.screenshot(checkTitle(this));
    cited = { source: /^(\S+)\s·\slines/.exec(editor.text)?.[1] ?? '', chip };
    assert.ok(cited.source.endsWith('.md'), `the passage's first line names its source: ${editor.text.slice(0, 120)}`);
  });

  it('a workspace copy of the cited file with other text is not opened at the recorded lines; the same text is, highlighted', async function () {
    assert.ok(wb && cited, 'needs the answer of the check above');
    const s = session();
    const original = await readFile(join(s.workspaces.sitePolicy, cited.source), 'utf8');
    const copy = join(s.home, 'workspaces', 'shared-index', 'notes', cited.source);
    await mkdir(dirname(copy), { recursive: true });
    // Another version: a paragraph added under the title moves every recorded line down.
    const lines = original.split('\n');
    await writeFile(
      copy,
      [lines[0], '', 'A paragraph this workspace added: the lines below moved.', '', ...lines.slice(1)].join('\n'),
    );
    await cited.chip.click();
    await wb.page.waitForTimeout(1500);
    let editor = await wb.activeEditor();
    assert.match(
      editor.text,
      /version\s[0-9a-f]{16}/,
      `a changed copy opened instead of the read-only passage (editor "${editor.title}")`,
    );
    assert.match(
      editor.text,
      /does\s+not\s+have\s+the\s+file\s+at\s+that\s+version/,
      'the passage view says the workspace lacks that version',
    );

    // The indexed version itself: the workspace file opens at the passage, highlighted there.
    await writeFile(copy, original);
    const name = basename(cited.source);
    // The read-only passage's tab has the file's name too: the file is the one without the passage's header.
    const isFile = (e: { title: string; text: string }) =>
      e.title.startsWith(name) && !/version\s[0-9a-f]{16}/.test(e.text);
    // The editor may still hold the copy's text until it sees the file change on disk: click again until then.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await wb.page.waitForTimeout(1000)) {
      await cited.chip.click();
      await wb.page.waitForTimeout(500);
      editor = await wb.activeEditor();
      if (isFile(editor)) break;
    }
    assert.ok(
      isFile(editor),
      `the workspace file at the cited version did not open (editor "${editor.title}": ${editor.text.slice(0, 120)})`,
    );
    let highlightedLines: string[] = [];
    for (
      const deadline = Date.now() + 10_000;
      highlightedLines.length === 0 && Date.now() < deadline;
      await wb.page.waitForTimeout(200)
    ) {
      ({ highlightedLines } = await wb.activeEditorDecorations());
    }
    assert.ok(highlightedLines.length > 0, 'no highlighted line in the file at the cited version');
    await wb.screenshot(checkTitle(this));
  });
});
