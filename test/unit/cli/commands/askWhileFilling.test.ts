// `evident ask --no-index` on an index whose vectors are still filling in (a run killed after two
// vector commits, real tiny embedding model): the JSON carries `partialRetrieval` with the figure
// (an additive field), stderr says it; a plain `ask` first completes the index, and then neither does.

import { strict as assert } from 'node:assert';
import { manyDocs } from '../../../support/manyDocs';
import { runCli } from '../../../support/cli';
import { runUntilPausedThenKill } from '../../../support/killedFill';
import { tinyEmbeddingModelDir } from '../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

describe('evident ask while vectors fill in (--no-index, real index and tiny model)', function () {
  this.timeout(180_000);
  let docs: string;
  let indexDir: string;
  let modelDir: string;

  before(async () => {
    modelDir = await tinyEmbeddingModelDir();
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, manyDocs(50));
  });

  after(async () => {
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('says retrieval is partial with the figure in the JSON and on stderr, and not once the index is complete', async () => {
    // The CLI records a folder model under its path: the killed run uses the same id.
    await runUntilPausedThenKill(docs, indexDir, modelDir, 64, 160, modelDir);
    const args = [
      'ask',
      '--docs',
      docs,
      '--index-dir',
      indexDir,
      '--embedding-model',
      modelDir,
      '--model',
      'extractive',
      '--json',
      '--question',
      'Who approves leave requests for leave case 5?',
    ];
    const partial = await runCli([...args, '--no-index']);
    assert.equal(partial.code, 0, partial.stderr);
    const json = JSON.parse(partial.stdout) as Record<string, unknown>;
    assert.equal(json.retrieval, 'hybrid');
    assert.deepEqual(json.partialRetrieval, { passagesWithVectors: 128, passages: 200, percent: 64 });
    assert.match(partial.stderr, /Retrieval is partial: vectors for 64% of passages \(128 of 200\)/);
    // The contract's fields are all still there.
    for (const field of ['question', 'answer', 'abstained', 'sentences', 'evidence', 'metrics']) {
      assert.ok(field in json, field);
    }

    const complete = await runCli(args);
    assert.equal(complete.code, 0, complete.stderr);
    const full = JSON.parse(complete.stdout) as Record<string, unknown>;
    assert.equal('partialRetrieval' in full, false);
    assert.doesNotMatch(complete.stderr, /partial/);
  });
});
