// Where the real all-MiniLM-L6-v2 lives on a developer's or CI machine: one rule for
// `npm run fetch-model` (its default --out), the tests and the benchmarks that need it.

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
