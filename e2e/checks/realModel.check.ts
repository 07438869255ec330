// The extension with the real all-MiniLM-L6-v2 (the folder `npm run fetch-model` wrote, given by
// `evident.embedding.localModelPath`), on a copy of the samples' policies: it indexes with the
// model (the status bar says hybrid), answers, and answers a follow-up as a standalone question
// shown under the answer as "Answered as: …". Without the model the check fails with the way to
// get it (test/support/realModel.ts); it is never skipped.

import * as assert from 'node:assert/strict';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Settings } from '../../src/shared/ids';
import { requireRealModel } from '../../test/support/realModel';
import { ChatView } from '../lib/chatView';
import { repoRoot } from '../lib/paths';
import { session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

const QUESTION = 'If I cancel my monthly plan halfway through the month, do I get money back?';
const FOLLOW_UP = 'and for an annual plan?';

describe('the real embedding model in the editor (samples policies, all-MiniLM-L6-v2)', function () {
  this.timeout(600_000);
  const passed = new Set<string>();
  let wb: Workbench | undefined;
  let chat: ChatView;

  afterEach(function () {
    if (this.currentTest?.state === 'passed') passed.add(this.currentTest.title);
  });

  after(async () => {
    await wb?.close();
  });

  it('indexes with the real model set in evident.embedding.localModelPath: the status bar says hybrid', async function () {
    const model = requireRealModel();
    const s = session();
    const folder = join(s.home, 'workspaces', 'real-model', 'policies');
    await mkdir(join(s.home, 'workspaces', 'real-model'), { recursive: true });
    await cp(resolve(repoRoot, 'samples', 'policies'), folder, { recursive: true });
    await mkdir(join(folder, '.vscode'), { recursive: true });
    await writeFile(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({ [Settings.embeddingLocalPath]: model, [Settings.model]: 'extractive' }),
    );

    wb = await Workbench.open(s.browser, s.server.workbenchUrl(folder));
    s.current = wb;
    await wb.waitForExtensionContributions();
    chat = new ChatView(await wb.openChatView());
    await chat.frame.locator('[data-testid="header-index"][data-state="indexed"]').waitFor({ timeout: 300_000 });
    const status = await wb.statusBarText();
    assert.match(status, /passages · hybrid/, `the status bar does not say hybrid: ${status}`);
    await wb.screenshot(checkTitle(this));
  });

  it('answers a follow-up as a standalone question and shows it under the answer ("Answered as")', async function () {
    assert.ok(
      passed.has('indexes with the real model set in evident.embedding.localModelPath: the status bar says hybrid'),
      'not run: needs the indexing check',
    );
    const first = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(first, ['done', 'failed', 'cancelled'], 120_000), 'done');
    assert.match((await first.locator('[data-testid="answer-body"]').textContent()) ?? '', /monthly plan/i);
    assert.equal(
      await first.locator('[data-testid="answered-as"]').count(),
      0,
      'a first question was shown as rewritten',
    );

    const followUp = await chat.ask(FOLLOW_UP);
    assert.equal(await chat.waitForStatus(followUp, ['done', 'failed', 'cancelled'], 120_000), 'done');
    const note = followUp.locator('[data-testid="answered-as"]');
    await note.waitFor({ timeout: 5_000 });
    const text = (await note.textContent()) ?? '';
    assert.equal(text.trim(), `Answered as: ${QUESTION.replace(/\?$/, '')} — ${FOLLOW_UP}`);
    assert.equal(await note.getAttribute('role'), 'note');
    const body = (await followUp.locator('[data-testid="answer-body"]').textContent()) ?? '';
    assert.match(
      body,
      /annual plans? (?:are|is) refundable/i,
      `the follow-up was not answered for the annual plan: ${body}`,
    );
    await wb!.screenshot(checkTitle(this));
  });
});
