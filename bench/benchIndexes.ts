// Where the benchmarks keep the indexes of the shared corpora between runs (embedding the 18F
// handbook with the real model takes minutes on a loaded machine): EVIDENT_BENCH_CACHE, else
// ~/.cache/evident/bench-indexes. A folder per corpus and retrieval mode; an index whose
// documents or model changed is brought up to date by the usual incremental run.

import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

export function benchIndexDir(corpus: string, mode: 'lexical' | 'hybrid'): string {
  const root = process.env.EVIDENT_BENCH_CACHE ?? path.join(homedir(), '.cache', 'evident', 'bench-indexes');
  const dir = path.join(root, `${corpus}-${mode}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * The embedding settings every benchmark opens these indexes with: the model folder given as the
 * CLI's --embedding-model gives it. An index records its model's id, and `localModelPath` would
 * name the same folder differently (embeddingModelId): benchmarks sharing a cache with different
 * settings re-embedded every passage at each open.
 */
export function benchEmbedding(modelDir: string): { modelId: string; allowRemote: false } {
  return { modelId: modelDir, allowRemote: false };
}
