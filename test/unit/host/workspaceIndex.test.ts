// The workspace index's state machine (src/host/workspaceIndex.ts) in plain Node: a real engine
// and a real index on disk over a small temporary folder; only the editor side (folders,
// notifications, file watchers, the context key) is faked (test/support/fakeIndexHost.ts).

import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Engine } from '../../../src/core/engine';
import type { IndexView } from '../../../src/shared/protocol';
import { WorkspaceIndex } from '../../../src/host/workspaceIndex';
import { fakeIndexHost, memoryLog, type FakeIndexHost } from '../../support/fakeIndexHost';
import { removeDir, tempDir, writeDocs } from '../../support/workspace';

const DOCS = {
  'leave.md': '# Leave\n\n## Employees\n\nEmployees get 25 days of annual leave per year.\n',
  'travel.md': '# Travel\n\nEconomy class is required for flights shorter than six hours.\n',
};

describe('workspace index state machine (real engine and index on disk; fake editor host)', function () {
  this.timeout(60_000);
  let work: string;
  let docs: string;
  const open: WorkspaceIndex[] = [];

  beforeEach(async () => {
    work = await tempDir('evident-workspace-index-');
    docs = path.join(work, 'docs');
    await writeDocs(docs, DOCS);
  });
  afterEach(async () => {
    for (const index of open.splice(0)) index.dispose();
    await removeDir(work);
  });

  function workspaceIndex(host: FakeIndexHost): {
    index: WorkspaceIndex;
    states: IndexView[];
    log: ReturnType<typeof memoryLog>;
  } {
    const log = memoryLog();
    const index = new WorkspaceIndex(host, log);
    open.push(index);
    const states: IndexView[] = [];
    index.onDidChange((view) => states.push(view));
    return { index, states, log };
  }

  it('with no folder open: "no-folder", and a question fails saying to open a folder (nothing is written)', async () => {
    const host = fakeIndexHost({ docs: undefined, storage: work });
    const { index } = workspaceIndex(host);
    assert.equal(index.status.state, 'no-folder');
    assert.equal(index.folder, undefined);
    await index.warmUp();
    assert.equal(host.engines.length, 0, 'warm-up opens nothing without a folder');
    await assert.rejects(index.ready(), /Open a folder to use Evident/);
    assert.equal(index.status.state, 'error');
    assert.deepEqual(index.logPaths, {
      metrics: path.join(work, 'global', 'no-folder', 'metrics.jsonl'),
      audit: path.join(work, 'global', 'no-folder', 'audit.jsonl'),
    });
  });

  it('goes not-indexed → indexing → indexed on the first use, with a progress notification, the context key and the walkthrough step', async () => {
    const host = fakeIndexHost({ docs, storage: work });
    const { index, states } = workspaceIndex(host);
    assert.equal(index.status.state, 'not-indexed');
    let indexingSaid = 0;
    const engine = await index.ready(() => indexingSaid++);
    assert.equal(indexingSaid, 1);
    assert.deepEqual(host.notifications, ['Evident: indexing workspace docs']);
    // Answers may start at the lexical commit; the run itself ends after.
    assert.ok(engine.status().indexed);
    await index.reindex({ notify: false });
    const seen = states.map((s) => s.state).filter((s, i, all) => s !== all[i - 1]);
    assert.deepEqual(seen.slice(0, 3), ['not-indexed', 'indexing', 'indexed']);
    assert.equal(index.status.state, 'indexed');
    assert.equal(index.status.documents, 2);
    assert.ok(index.status.passages >= 2, `passages: ${index.status.passages}`);
    assert.equal(index.status.retrieval, 'lexical');
    assert.equal(host.indexedKey.at(-1), true);
    assert.ok(host.indexedStepMarked);
    // A second use of an indexed workspace runs nothing more.
    await index.ready(() => indexingSaid++);
    assert.equal(indexingSaid, 1);
  });

  it('a failed run keeps what was committed, says the failure, and the next run recovers (a wrapped real engine fails its second run)', async () => {
    let runs = 0;
    const host = fakeIndexHost({
      docs,
      storage: work,
      wrap: (engine) =>
        new Proxy(engine, {
          get(target, key, receiver) {
            if (key === 'index') {
              return (...args: Parameters<Engine['index']>) =>
                ++runs === 2 ? Promise.reject(new Error('disk full')) : target.index(...args);
            }
            const value: unknown = Reflect.get(target, key, receiver);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }),
    });
    const { index, log } = workspaceIndex(host);
    await index.warmUp();
    const committed = { documents: index.status.documents, passages: index.status.passages };
    assert.equal(index.status.state, 'indexed');
    await assert.rejects(index.reindex({ notify: false }), /disk full/);
    assert.equal(index.status.state, 'error');
    assert.equal(index.status.message, 'Indexing failed: disk full');
    assert.ok(log.lines.includes('error: Indexing failed: disk full'));
    // What the first run committed still answers: the engine's index is untouched.
    const engine = await index.engine();
    assert.deepEqual({ documents: engine.status().documents, passages: engine.status().passages }, committed);
    assert.ok((await engine.searchPassages('annual leave', 3)).some((p) => p.text.includes('25 days')));
    await index.reindex({ notify: false });
    assert.equal(index.status.state, 'indexed');
    assert.equal(index.status.message, undefined);
  });

  it('a run queued while one runs waits for it, then indexes what changed (both reports, in order)', async () => {
    const host = fakeIndexHost({ docs, storage: work });
    const { index } = workspaceIndex(host);
    await index.warmUp();
    await writeFile(
      path.join(docs, 'leave.md'),
      '# Leave\n\n## Employees\n\nEmployees get 30 days of annual leave per year.\n',
    );
    await writeDocs(docs, { 'expenses.md': '# Expenses\n\nReceipts are needed for every expense over 20 euros.\n' });
    const order: string[] = [];
    const first = index.reindex({ notify: false }).then((r) => (order.push('full'), r));
    const second = index.reindex({ notify: false, paths: ['leave.md'] }).then((r) => (order.push('paths'), r));
    const [full, paths] = await Promise.all([first, second]);
    assert.deepEqual(order, ['full', 'paths']);
    assert.ok(full && paths);
    assert.equal(full.added, 1, 'the full run adds the new file');
    assert.equal(full.updated, 1, 'and updates the edited one');
    assert.equal(paths.updated + paths.added, 0, 'the queued run finds that file already current');
    assert.equal(index.status.documents, 3);
    assert.equal(index.status.state, 'indexed');
  });

  it('an edited file seen by the watcher is indexed after the debounce', async () => {
    const host = fakeIndexHost({ docs, storage: work });
    const { index } = workspaceIndex(host);
    index.startWatching();
    await index.warmUp();
    const file = path.join(docs, 'travel.md');
    await writeFile(file, '# Travel\n\nBusiness class is allowed for flights longer than six hours.\n');
    assert.ok(host.changed, 'the index watches its folder');
    host.changed(file);
    host.changed(path.join(work, 'outside.md'));
    const engine = await index.engine();
    const deadline = Date.now() + 10_000;
    while (!(await engine.searchPassages('business class', 3)).some((p) => p.text.includes('Business class'))) {
      assert.ok(Date.now() < deadline, 'the change was not indexed within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(index.status.documents, 2, 'a path outside the folder is ignored');
  });

  it('Cancel on the first index\'s notification: "not-indexed", saying it was cancelled; an index committed before stays "indexed"', async () => {
    const host = fakeIndexHost({ docs, storage: work });
    const { index, log } = workspaceIndex(host);
    await index.engine();
    host.cancelNextNotification();
    assert.equal(await index.reindex({ notify: true }), undefined);
    assert.ok(log.lines.includes('info: Indexing cancelled; what was committed is kept.'));
    assert.equal(index.status.state, 'not-indexed');
    assert.equal(index.status.message, 'Indexing was cancelled.');
    assert.equal(index.status.percent, undefined);

    await index.reindex({ notify: false });
    await writeDocs(docs, { 'expenses.md': '# Expenses\n\nReceipts are needed for every expense over 20 euros.\n' });
    host.cancelNextNotification();
    assert.equal(await index.reindex({ notify: true }), undefined);
    assert.equal(index.status.state, 'indexed');
    assert.equal(index.status.documents, 2, 'what the cancelled run did not commit is not counted');
    assert.deepEqual(host.notifications, ['Evident: indexing workspace docs', 'Evident: indexing workspace docs']);
  });

  it("retrieval lexical only: the reason from the run is the view's message (an embedding model that cannot load)", async () => {
    const host = fakeIndexHost({
      docs,
      storage: work,
      engine: {
        embedding: { modelId: 'missing-model', localModelPath: path.join(work, 'no-such-model'), allowRemote: false },
      },
    });
    const { index } = workspaceIndex(host);
    const report = await (async () => {
      await index.engine();
      return index.reindex({ notify: false });
    })();
    assert.ok(report);
    assert.equal(index.status.state, 'indexed');
    assert.equal(index.status.retrieval, 'lexical');
    const reason = report.notices.find((n) => n.code === 'lexical-only');
    assert.ok(reason, `notices: ${report.notices.map((n) => n.text).join(' | ')}`);
    assert.match(reason.text, /^No embedding model/);
    assert.equal(index.status.message, reason.text);
  });

  it('clear deletes the index and says "not-indexed"', async () => {
    const host = fakeIndexHost({ docs, storage: work });
    const { index } = workspaceIndex(host);
    await index.warmUp();
    await index.clear();
    assert.equal(index.status.state, 'not-indexed');
    assert.equal(index.status.documents, 0);
    assert.equal((await index.engine()).status().indexed, false);
  });
});
