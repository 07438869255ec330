// `evident ask` without --embedding-model: the real all-MiniLM-L6-v2 that `npm run fetch-model`
// wrote on this machine (EVIDENT_MODEL_DIR, else <cache>/evident/models/all-MiniLM-L6-v2) is the
// default, so a machine that fetched it answers from hybrid retrieval offline; a folder whose fetch
// did not finish (no stamp) is not a model, and then retrieval is lexical and says so.

import { strict as assert } from 'node:assert';
import { cp, mkdir, rm, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../../support/cli';
import { requireRealModel } from '../../../support/realModel';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';
import { MODEL_STAMP } from '../../../../src/cli/fetchedModel';

describe('evident ask: the model fetch-model wrote is the default embedding model', function () {
  this.timeout(120_000);
  let work: string;
  let docs: string;
  let model: string;

  before(async () => {
    model = requireRealModel();
    work = await tempDir('evident-default-model-');
    docs = path.join(work, 'docs');
    await writeDocs(docs, {
      'leave.md':
        '# Leave\n\n## Annual leave\n\nFull-time employees get 25 days of paid annual leave per calendar year.\n',
    });
  });
  after(async () => {
    await removeDir(work);
  });

  const ask = async (env: Record<string, string>, name: string) => {
    const run = await runCli(
      [
        'ask',
        '--docs',
        docs,
        '--index-dir',
        path.join(work, `index-${name}`),
        '--question',
        'How many vacation days do I get?',
        '--json',
      ],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    return { out: JSON.parse(run.stdout) as { retrieval: string; abstained: boolean }, stderr: run.stderr };
  };

  it('answers from hybrid retrieval with the folder in the cache, without a flag', async () => {
    const cache = path.join(work, 'cache-fetched');
    await mkdir(path.join(cache, 'evident', 'models'), { recursive: true });
    await symlink(model, path.join(cache, 'evident', 'models', 'all-MiniLM-L6-v2'));
    const { out, stderr } = await ask({ XDG_CACHE_HOME: cache }, 'fetched');
    assert.equal(out.retrieval, 'hybrid', stderr);
    assert.doesNotMatch(stderr, /lexical only/);
  });

  it('answers from hybrid retrieval with the folder EVIDENT_MODEL_DIR names', async () => {
    const { out, stderr } = await ask(
      { XDG_CACHE_HOME: path.join(work, 'cache-empty'), EVIDENT_MODEL_DIR: model },
      'env',
    );
    assert.equal(out.retrieval, 'hybrid', stderr);
  });

  it('is lexical, and says so, when there is no such folder or its fetch did not finish', async () => {
    const none = await ask({ XDG_CACHE_HOME: path.join(work, 'cache-none') }, 'none');
    assert.equal(none.out.retrieval, 'lexical');
    assert.match(none.stderr, /lexical only/);
    // A copy without the stamp fetch-model writes last: an interrupted fetch.
    const partial = path.join(work, 'partial');
    await cp(model, partial, { recursive: true, dereference: true });
    await rm(path.join(partial, MODEL_STAMP));
    const interrupted = await ask(
      { XDG_CACHE_HOME: path.join(work, 'cache-none'), EVIDENT_MODEL_DIR: partial },
      'partial',
    );
    assert.equal(interrupted.out.retrieval, 'lexical');
    assert.match(interrupted.stderr, /lexical only/);
  });
});
