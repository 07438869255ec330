// `npm run bench:faults`: the faults of issue 23 as one run, gated (exit 1 on any failure), in CI.
//   * store: a real PostgreSQL with pgvector owned by this run (shared/tools/pg-with-pgvector)
//     stopped with `pg_ctl stop -m immediate` during a first index, an update, the embedding
//     phase and the VACUUM; two indexers over different trees at once;
//   * local: readers during a writer (N iterations, with and without vectors), two writers;
//   * documents: the 108 KB heading, unbroken tokens, a 1 GB sparse file.
// Vectors come from the real all-MiniLM-L6-v2 (the folder `npm run fetch-model` writes, which
// `npm test` fetches first; else /work/models/all-MiniLM-L6-v2), else from a generated model; the
// output says which.
// Usage: npm run build && npm run bench:faults [-- --iterations 50] [-- --only store|local|documents]

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadEmbedder } from '../../src/core/retrieval/embedder';
import { realModelDir } from '../../test/support/realModel';
import { startOwnPostgres } from '../../test/support/realPostgres';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../../test/support/tinyModels';
import { hostileDocuments } from './hostileDocs';
import { readersDuringWriter, twoLocalWriters } from './localFaults';
import { storeKills, storeWriters, type FaultOutcome } from './storeFaults';

/** The real model's folder, when one holds it. */
function realModel(): string | undefined {
  return [realModelDir(), '/work/models/all-MiniLM-L6-v2'].find((dir) =>
    existsSync(path.join(dir, 'onnx', 'model.onnx')),
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { iterations: { type: 'string' }, only: { type: 'string' }, rounds: { type: 'string' } },
    strict: true,
  });
  const iterations = Number(values.iterations ?? 50);
  const rounds = Number(values.rounds ?? 10);
  const only = values.only;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (!existsSync(path.resolve(__dirname, '../../dist/cli.js'))) {
    throw new Error('dist/cli.js is missing: run "npm run build" first.');
  }

  const found = realModel();
  const real = found !== undefined;
  const modelDir = found ?? (await makeTinyEmbeddingModel(defaultModelCacheDir()));
  const modelLabel = real
    ? `the real all-MiniLM-L6-v2 (${found})`
    : 'a generated model (the real all-MiniLM-L6-v2 is not on this machine: npm run fetch-model)';
  log(`bench:faults — vectors from ${modelLabel}; ${iterations} iterations of readers during a writer`);
  const withVectors = ['--embedding-model', modelDir, '--offline'];
  const outcomes: FaultOutcome[] = [];

  if (!only || only === 'store') {
    const embedder = await loadEmbedder({
      modelId: real ? 'all-MiniLM-L6-v2' : 'tiny',
      localModelPath: modelDir,
      allowRemote: false,
      dtype: 'fp32',
    });
    const own = await startOwnPostgres();
    try {
      outcomes.push(...(await storeKills(own, embedder, log)));
      outcomes.push(await storeWriters(own, embedder, rounds, log));
    } finally {
      own.remove();
    }
  }
  if (!only || only === 'local') {
    outcomes.push(await readersDuringWriter(iterations, ['--no-embeddings'], 'without vectors', log));
    outcomes.push(
      await readersDuringWriter(
        iterations,
        withVectors,
        `with vectors (${real ? 'all-MiniLM-L6-v2' : 'generated model'})`,
        log,
      ),
    );
    outcomes.push(
      await twoLocalWriters(
        rounds,
        withVectors,
        `with vectors (${real ? 'all-MiniLM-L6-v2' : 'generated model'})`,
        log,
      ),
    );
  }
  if (!only || only === 'documents') {
    outcomes.push(
      ...(await hostileDocuments(withVectors, `with vectors (${real ? 'all-MiniLM-L6-v2' : 'generated model'})`, log)),
    );
  }

  const failed = outcomes.filter((o) => !o.ok);
  log(JSON.stringify({ model: modelLabel, iterations, rounds, outcomes }));
  log(
    failed.length
      ? `bench:faults: ${failed.length} of ${outcomes.length} checks FAILED`
      : `bench:faults: all ${outcomes.length} checks passed`,
  );
  if (failed.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:faults: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
