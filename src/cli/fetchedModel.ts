// Where `npm run fetch-model` puts the real all-MiniLM-L6-v2 on a machine, and whether it is there:
// one rule for fetch-model (its default --out), the CLI (its default embedding model when no
// --embedding-model is given), the tests and the benchmarks.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The file fetch-model writes last: the source and every file's size. */
export const MODEL_STAMP = 'evident-model.json';

export interface ModelStamp {
  model: string;
  source: string;
  files: Record<string, number>;
}

/** EVIDENT_MODEL_DIR when set, else the user's cache folder (XDG_CACHE_HOME or ~/.cache). */
export function defaultModelDir(env: Record<string, string | undefined>): string {
  if (env.EVIDENT_MODEL_DIR) return env.EVIDENT_MODEL_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'evident', 'models', 'all-MiniLM-L6-v2');
}

/**
 * The folder fetch-model wrote, when it finished writing it (its stamp is the last file written),
 * else undefined: an interrupted fetch is not a model.
 */
export function fetchedModelDir(env: Record<string, string | undefined>): string | undefined {
  const dir = defaultModelDir(env);
  return existsSync(join(dir, MODEL_STAMP)) ? dir : undefined;
}
