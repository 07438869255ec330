// Workspace trust and where the index lives, in a real workbench.
// 1. An untrusted folder (its own code-server with workspace trust on; the folder opens in
//    Restricted Mode) whose `.vscode/settings.json` sets the support threshold to 0 and points the
//    embedding model at a model folder inside the repository: Evident runs (limited support),
//    ignores those workspace settings (retrieval stays lexical, the log says why), answers, and
//    drops a sentence Gemini (the fake server) invents; once the user trusts the folder, the
//    workspace's model is used (hybrid) and the threshold of 0 is raised to the floor, so the
//    invented sentence is still dropped.
// 2. A workspace folder that contains VS Code's storage (the server's user-data folder): the
//    index would land inside the documents, so Evident refuses with an error and writes nothing.

import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Commands, EXTENSION_ID, Settings } from '../../src/shared/ids';
import { WORKSPACE_THRESHOLD_FLOOR } from '../../src/domain/threshold';
import { makeTinyEmbeddingModel } from '../../test/support/tinyModels';
import { functionCallReply, textReply } from '../../test/support/fakeGemini';
import { SEARCH_TOOL } from '../../test/support/fakeGeminiModes';
import { ChatView } from '../lib/chatView';
import { CodeServer } from '../lib/codeServer';
import { FakeGeminiProcess } from '../lib/fakeGeminiProcess';
import { extensionDir } from '../lib/paths';
import { paletteTitle } from '../lib/manifest';
import { PROFILE_SETTINGS, session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

const LEAVE = `# Annual leave

Employees receive 25 days of annual leave per calendar year.
Unused leave of up to five days carries over to the next year.
`;

/** A sentence the leave passage does not back: kept at a threshold of 0, dropped at the floor (WORKSPACE_THRESHOLD_FLOOR). */
const INVENTED = 'Employees also receive a company car for personal trips [E1].';
const GEMINI_ANSWER = `Employees receive 25 days of annual leave per calendar year [E1]. ${INVENTED}`;

const TRAVEL = `# Travel

Economy class is required for flights shorter than six hours.
`;

/**
 * Waits until the Evident status bar entry's text matches `pattern`, and returns that text as it
 * was when it matched (another index run may change it a moment later).
 */
async function waitForStatus(wb: Workbench, pattern: RegExp, timeout = 90_000): Promise<string> {
  const matched = await wb.page
    .waitForFunction(
      ({ extensionId, source }) => {
        const text = document.querySelector(`.statusbar-item[id^="${extensionId}"]`)?.textContent ?? '';
        return new RegExp(source, 'i').test(text) ? text : undefined;
      },
      { extensionId: EXTENSION_ID, source: pattern.source },
      { timeout },
    )
    .catch(async () => {
      throw new Error(`the Evident status bar never matched ${pattern} (it says "${await wb.statusBarText()}")`);
    });
  return String(await matched.jsonValue());
}

/** The text of the Evident output channel log of `server` (empty when not written yet). */
async function evidentLog(server: CodeServer): Promise<string> {
  const logs = await server.extensionHostLogs();
  const evident = logs.find((l) => l.includes(server.extensionId));
  return evident ? readFile(evident, 'utf8') : '';
}

async function waitForLog(server: CodeServer, pattern: RegExp, timeout = 30_000): Promise<string> {
  const deadline = Date.now() + timeout;
  let text = '';
  while (Date.now() < deadline) {
    text = await evidentLog(server);
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the Evident log never matched ${pattern}; it reads:\n${text.split('\n').slice(-30).join('\n')}`);
}

/** The Evident index folders in a VS Code workspace-storage folder. */
async function indexFolders(storageRoot: string): Promise<string[]> {
  const stores = existsSync(storageRoot) ? await readdir(storageRoot) : [];
  return stores
    .map((store) => join(storageRoot, store, EXTENSION_ID, 'index'))
    .filter((dir) => existsSync(dir))
    .sort();
}

describe('workspace trust and the index location', function () {
  this.timeout(180_000);
  let trustServer: CodeServer | undefined;
  let gemini: FakeGeminiProcess | undefined;
  let wb: Workbench | undefined;

  after(async () => {
    await wb?.close();
    await trustServer?.stop();
    await gemini?.stop();
  });

  /** Asks in the chat (Gemini answers GEMINI_ANSWER) and checks the invented sentence is dropped. */
  async function assertInventedSentenceDropped(chat: ChatView, when: string): Promise<void> {
    const turn = await chat.ask('How much annual leave do employees get?');
    assert.equal(
      await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']),
      'done',
      `${when}: ${await turn.textContent()}`,
    );
    const dropped = turn.locator('[data-testid="dropped-sentence"]');
    await dropped
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(async () => {
        throw new Error(
          `${when}: the invented sentence was kept (the workspace's threshold of 0 was applied); answer: ${await turn.textContent()}`,
        );
      });
    assert.match((await dropped.first().textContent()) ?? '', /company car/, when);
    assert.match((await turn.locator('[data-testid="drop-reason"]').first().textContent()) ?? '', /low-support/, when);
    assert.match(
      (await turn.locator('[data-testid="sentence"][data-verdict="kept"]').first().textContent()) ?? '',
      /25 days/,
      when,
    );
  }

  it('in an untrusted folder, ignores the workspace model and threshold settings, then honours them once trusted', async function () {
    const s = session();
    const home = join(s.home, 'trust');
    const folder = join(home, 'workspaces', 'untrusted-repo');
    await mkdir(join(folder, '.vscode'), { recursive: true });
    await writeFile(join(folder, 'leave.md'), LEAVE);
    await writeFile(join(folder, 'travel.md'), TRAVEL);
    // A model folder inside the repository: the native runtime would load it if the workspace could choose it.
    const repoModel = await makeTinyEmbeddingModel(join(folder, 'models'));
    await writeFile(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({
        [Settings.supportThreshold]: 0,
        [Settings.embeddingModel]: 'repo/tiny-embedding',
        [Settings.embeddingLocalPath]: repoModel,
      }),
    );
    // Gemini (the fake server) writes one backed and one invented sentence, once per question below.
    const geminiTurn = [functionCallReply(SEARCH_TOOL, { query: 'annual leave' }), textReply(GEMINI_ANSWER)];
    gemini = await FakeGeminiProcess.start({
      home,
      mode: 'cite-first-evidence',
      script: [...geminiTurn, ...geminiTurn],
    });
    trustServer = await CodeServer.start({
      home,
      extensionDir,
      workspaceTrust: true,
      env: { GOOGLE_GEMINI_BASE_URL: gemini.baseUrl },
      // The user's own settings: no embedding model (lexical only), so any hybrid retrieval comes from the workspace.
      settings: {
        ...PROFILE_SETTINGS,
        'security.workspace.trust.enabled': true,
        'security.workspace.trust.startupPrompt': 'never',
        'security.workspace.trust.untrustedFiles': 'open',
        [Settings.embeddingModel]: '',
      },
    });
    wb = await Workbench.open(s.browser, trustServer.workbenchUrl(folder));
    s.current = wb;
    // Limited support: the extension loads in Restricted Mode (else its view container is absent).
    await wb.waitForExtensionContributions();
    await wb.runCommand(paletteTitle(Commands.reindex));
    const restricted = await waitForStatus(wb, /passages · (lexical only|hybrid)/);
    assert.match(restricted, /lexical only/, 'the workspace chose the embedding model in an untrusted folder');
    const log = await waitForLog(trustServer, /Restricted Mode: .* are read from your user settings only/);
    const note = log.split('\n').find((l) => l.includes('Restricted Mode:')) ?? '';
    for (const key of [
      Settings.supportThreshold,
      Settings.embeddingLocalPath,
      Settings.embeddingModel,
      Settings.entailmentModel,
    ])
      assert.ok(note.includes(key), `${key} missing from: ${note}`);

    const chat = new ChatView(await wb.openChatView());
    const turn = await chat.ask('How many days of annual leave do employees receive?');
    assert.equal(
      await chat.waitForStatus(turn, ['done', 'failed', 'cancelled']),
      'done',
      'Evident answers in Restricted Mode',
    );
    assert.match((await turn.locator('[data-testid="answer-body"]').textContent()) ?? '', /25 days/);
    await wb.runCommand(paletteTitle(Commands.setGeminiApiKey));
    await wb.answerInputBox('e2e-fake-key');
    await chat.frame.locator('[data-testid="header-model"][data-backend="gemini"]').waitFor({ timeout: 15_000 });
    await assertInventedSentenceDropped(chat, 'in Restricted Mode');
    await wb.screenshot(checkTitle(this), 'restricted');

    // The user trusts the folder: its settings now count (the threshold bounded by the floor).
    await wb.runCommand('Workspaces: Manage Workspace Trust');
    const trustButton = wb.page.locator('.workspace-trust-buttons-row .monaco-button').first();
    await trustButton.waitFor({ timeout: 20_000 });
    await trustButton.click();
    const trusted = await waitForStatus(wb, /passages · hybrid/);
    assert.match(trusted, /hybrid/);
    const floor = String(WORKSPACE_THRESHOLD_FLOOR).replace('.', '\\.');
    await waitForLog(trustServer, new RegExp(`under the floor of ${floor} a workspace may set: ${floor} is used`));
    await assertInventedSentenceDropped(chat, 'trusted, threshold 0 raised to the floor');
    await wb.screenshot(checkTitle(this), 'trusted');
    await wb.close();
    wb = undefined;
    await trustServer.stop();
    trustServer = undefined;
    await gemini.stop();
    gemini = undefined;
  });

  it('refuses to keep the index in a workspace folder that contains VS Code’s storage, writing nothing there', async function () {
    const s = session();
    const folder = s.server.userDataDir;
    const storageRoot = join(folder, 'User', 'workspaceStorage');
    // Earlier checks' workspaces have their indexes in this storage: only a new one would be ours.
    const indexesBefore = await indexFolders(storageRoot);
    wb = await Workbench.open(s.browser, s.server.workbenchUrl(folder));
    s.current = wb;
    await wb.waitForExtensionContributions();
    await wb.runCommand(paletteTitle(Commands.reindex));
    const status = await waitForStatus(wb, /index error|passages/);
    assert.match(status, /index error/, `the index was built inside the workspace folder (status: ${status})`);
    const log = await waitForLog(s.server, /The index would be written inside the workspace folder/);
    assert.match(log, /Evident never writes inside your documents/);
    // No index folder was created in this workspace's storage, which lies inside the folder.
    assert.deepEqual(
      await indexFolders(storageRoot),
      indexesBefore,
      'an index was written inside the workspace folder',
    );
    await wb.screenshot(checkTitle(this));
    await wb.close();
    wb = undefined;
  });
});
