// Indexing in the background (issue 10): on a fresh copy of the 18F handbook (248 files), the
// first index commits its lexical part and then fills in vectors in the index worker. While the
// vectors are still filling, the chat answers, and the answer says in words that retrieval is
// partial, with the figure; the status bar shows it too. Once the fill ends, answers no longer say
// so. The embedding is slowed ARTIFICIALLY: the model is a generated one with 8 identity matrix
// products per token (test/support/slowModel.ts), so that the fill lasts long enough to ask
// during it; nothing in the extension knows it is slow.

import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Settings } from '../../src/shared/ids';
import { makeSlowEmbeddingModel } from '../../test/support/slowModel';
import { ChatView } from '../lib/chatView';
import { handbookCorpus } from '../lib/paths';
import { copyWorkspace, session } from '../lib/session';
import { checkTitle, Workbench } from '../lib/workbench';

const QUESTION = 'How many hours of annual leave do employees earn per pay period?';

describe('indexing in the background (18F handbook workspace, embedding slowed by a generated 8-layer model)', function () {
  this.timeout(600_000);
  let wb: Workbench | undefined;

  after(async () => {
    await wb?.close();
  });

  it('answers while vectors fill in and says retrieval is partial with the figure (slowed artificially: 8 identity layers per token), then stops saying it', async function () {
    const s = session();
    const folder = await copyWorkspace(handbookCorpus, s.home, 'background');
    const model = await makeSlowEmbeddingModel(join(s.home, 'models'), 8);
    await mkdir(join(folder, '.vscode'), { recursive: true });
    await writeFile(
      join(folder, '.vscode', 'settings.json'),
      JSON.stringify({ [Settings.embeddingLocalPath]: model, [Settings.model]: 'extractive' }),
    );

    wb = await Workbench.open(s.browser, s.server.workbenchUrl(folder));
    s.current = wb;
    await wb.waitForExtensionContributions();
    const chat = new ChatView(await wb.openChatView());

    // The lexical part is committed: the progress box says questions are answered already.
    const hint = chat.byTestId('index-progress-hint');
    await hint
      .filter({ hasText: 'You can ask now' })
      .waitFor({ timeout: 240_000 })
      .catch(async () => {
        await wb!.screenshot(checkTitle(this), 'no-lexical-commit');
        throw new Error(
          `the chat never said that answers work while vectors fill in: ${await chat
            .byTestId('header-index')
            .textContent()
            .catch(() => '?')}`,
        );
      });
    assert.match((await hint.textContent()) ?? '', /their meaning for the \d+% of passages \([\d,]+ of [\d,]+\)/);
    assert.match(await wb.statusBarText(), /Evident: vectors \d+%/, 'the status bar shows the vector figure');

    const turn = await chat.ask(QUESTION);
    assert.equal(
      await chat.waitForStatus(turn, ['done', 'failed', 'cancelled'], 90_000),
      'done',
      (await turn.textContent()) ?? '',
    );
    const partial = turn.locator('[data-testid="partial-retrieval"]');
    await partial.waitFor({ timeout: 5_000 }).catch(async () => {
      await wb!.screenshot(checkTitle(this), 'not-partial');
      throw new Error(
        `the answer given while vectors filled in does not say retrieval is partial: ${await turn.textContent()}`,
      );
    });
    const text = (await partial.textContent()) ?? '';
    const figure = /Retrieval is partial: vectors for (\d+)% of passages \(([\d,]+) of ([\d,]+)\)/.exec(text);
    assert.ok(figure, text);
    const [percent, withVectors, passages] = [
      Number(figure[1]),
      Number(figure[2].replace(/,/g, '')),
      Number(figure[3].replace(/,/g, '')),
    ];
    assert.ok(withVectors < passages, text);
    assert.equal(percent, Math.floor((withVectors / passages) * 100), text);
    assert.equal(await partial.getAttribute('role'), 'note', 'said to screen readers as a note, not only shown');
    assert.ok(
      (await turn.locator('[data-testid="answer-body"]').count()) +
        (await turn.locator('[data-abstained="true"]').count()) >
        0,
      'the turn has an answer',
    );
    await wb.screenshot(checkTitle(this), 'partial');

    // The fill ends: the index is complete, and the next answer says nothing about partial retrieval.
    await chat.frame.locator('[data-testid="header-index"][data-state="indexed"]').waitFor({ timeout: 400_000 });
    const after = await chat.ask(QUESTION);
    assert.equal(await chat.waitForStatus(after, ['done', 'failed', 'cancelled'], 60_000), 'done');
    assert.equal(
      await after.locator('[data-testid="partial-retrieval"]').count(),
      0,
      'a complete index still says retrieval is partial',
    );
    assert.doesNotMatch(await wb.statusBarText(), /vectors \d+%/);
    await wb.screenshot(checkTitle(this), 'complete');
  });
});
