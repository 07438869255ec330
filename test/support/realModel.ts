// The real all-MiniLM-L6-v2 for tests and benchmarks: the folder `npm run fetch-model` writes
// (tools/model/modelDir.ts: EVIDENT_MODEL_DIR, else the user's cache). `npm test` fetches it
// first; a run without it fails with the way to get it, it is never silently skipped.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultModelDir } from '../../tools/model/modelDir';

export function realModelDir(env: Record<string, string | undefined> = process.env): string {
  return defaultModelDir(env);
}

/** The folder, or an error that says how to get it. */
export function requireRealModel(env: Record<string, string | undefined> = process.env): string {
  const dir = realModelDir(env);
  for (const file of ['config.json', 'tokenizer.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx']) {
    if (!existsSync(join(dir, file))) {
      throw new Error(
        `the real all-MiniLM-L6-v2 is not in ${dir} (${file} is missing): run \`npm run fetch-model\` (or set EVIDENT_MODEL_DIR to a folder it wrote)`,
      );
    }
  }
  return dir;
}
