// Errors are told apart by their code, also after crossing the index worker's boundary: a worker
// that stopped is recognised by its code (the host sees engine errors from another bundle, where
// `instanceof` and class names are no help), and an error thrown in the worker keeps its code.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { folderDocSource } from '../../../src/core/docs/docSource';
import { WorkerPassageStore } from '../../../src/core/store/workerPassageStore';
import { fromWorkerError, toWorkerError } from '../../../src/core/indexWorker/messages';
import { StoreError } from '../../../src/core/store/passageStore';
import { errorCode, isNetworkFailure, isWorkerStopped } from '../../../src/host/errorCodes';
import { removeDir, tempDir, writeDocs } from '../../support/workspace';

const SCRIPT = path.resolve(__dirname, '../../support/indexWorkerEntry.cjs');

describe('error codes, across the index worker', function () {
  this.timeout(120_000);
  let docs: string;
  let indexDir: string;

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, { 'a.md': '# Leave\n\nEmployees get 25 days of paid leave a year.\n' });
  });

  afterEach(async () => {
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('a stopped worker (a real worker thread, terminated) is recognised by its code', async () => {
    const store = await WorkerPassageStore.open({
      script: SCRIPT,
      indexDir,
      docs: { folders: [{ name: 'docs', root: docs }] },
      embedding: false,
    });
    await store.update(folderDocSource(docs), {});
    assert.equal((await store.search('paid leave', 1)).passages.length, 1);
    await store.close();
    for (const call of [() => store.search('leave', 1), () => store.update(folderDocSource(docs), {})]) {
      const stopped = await call().then(
        () => assert.fail('answered without its worker'),
        (error: unknown) => error,
      );
      assert.equal(errorCode(stopped), 'worker-stopped');
      assert.ok(isWorkerStopped(stopped));
    }
  });

  it("an error thrown in the worker keeps its code as it crosses (Node's and ours), and a foreign one is not mistaken for a stop", async () => {
    const file = path.join(indexDir, 'not-a-folder');
    await writeDocs(indexDir, { 'not-a-folder': 'x' });
    const failed = await WorkerPassageStore.open({
      script: SCRIPT,
      indexDir: file,
      docs: { folders: [{ name: 'docs', root: docs }] },
      embedding: false,
    }).then(
      (store) => store.close().then(() => assert.fail('opened an index inside a file')),
      (error: unknown) => error,
    );
    assert.match(String(errorCode(failed)), /^E[A-Z]+$/);
    assert.equal(isWorkerStopped(failed), false);

    const revived = fromWorkerError(toWorkerError(new StoreError('The shared index is unreachable.', 'unreachable')));
    assert.equal(errorCode(revived), 'unreachable');
    assert.equal(revived.message, 'The shared index is unreachable.');
    assert.equal(errorCode(fromWorkerError(toWorkerError(new Error('no code')))), undefined);
  });

  it("only a stop is a stop, and only Node's network codes are a missing network (never the words)", () => {
    assert.equal(
      isWorkerStopped(Object.assign(new Error('x'), { name: 'IndexWorkerStopped' })),
      false,
      'a name is no code',
    );
    assert.equal(isWorkerStopped(new Error('The index worker stopped (exit code 1).')), false, 'words are no code');
    assert.equal(isNetworkFailure(new Error('fetch failed: ENOTFOUND')), false);
    assert.equal(isNetworkFailure(Object.assign(new Error('x'), { code: 'EAI_AGAIN' })), true);
    assert.equal(errorCode('a string'), undefined);
    assert.equal(errorCode({ code: 42 }), undefined);
  });
});
