// A separate process that indexes a docs folder with the real tiny embedding model, committing
// vectors every COMMIT_EVERY passages, and then stops dead (blocks its thread) once the run has
// embedded PAUSE_AT passages: the test kills it there with SIGKILL, mid-embedding, with vectors
// embedded but not yet committed. Prints one line per commit ("committed N") and "paused".
// Usage: tsx test/support/fillRun.ts DOCS INDEX_DIR MODEL_DIR COMMIT_EVERY PAUSE_AT [MODEL_ID]
//   (MODEL_ID: load the model as the CLI's --embedding-model DIR does, named by its path; by
//   default it is loaded as the tests load it, through localModelPath)

import { tinyEmbeddingSettings } from './tinyEmbedder';
import { folderDocSource } from '../../src/core/docs/docSource';
import { loadEmbedder } from '../../src/core/retrieval/embedder';
import { PassageIndex } from '../../src/core/store/local/passageIndex';

async function main(): Promise<void> {
  const [docs, indexDir, modelDir, commitEvery, pauseAt, modelId] = process.argv.slice(2);
  const embedder = await loadEmbedder(modelId ? { modelId, allowRemote: false } : tinyEmbeddingSettings(modelDir));
  const index = await PassageIndex.open(indexDir, docs);
  let committed = 0;
  await index.update(folderDocSource(docs), {
    embedder,
    commitEvery: { passages: Number(commitEvery), ms: 3_600_000 },
    onLexicalReady: () => process.stdout.write('lexical\n'),
    onProgress: (p) => {
      if (p.phase !== 'embedding' || !p.vectors) return;
      if (p.vectors.passagesWithVectors !== committed) {
        committed = p.vectors.passagesWithVectors;
        process.stdout.write(`committed ${committed}\n`);
      }
      if (p.done >= Number(pauseAt)) {
        process.stdout.write('paused\n');
        // Stop dead, as a frozen or killed window would: nothing after this point runs.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
      }
    },
  });
  process.stdout.write('finished\n');
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
