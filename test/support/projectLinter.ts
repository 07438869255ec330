// The project's ESLint configuration, for tests of its rules. `textLinter` lints code given as text
// under a made-up path of src/ (a deliberate violation that is no file on disk): the rules that read
// types need a file of a TypeScript project, so they are off there (eslint.config.mjs names them).
// `projectLinter` is the configuration as `npm run lint` runs it, for files on disk.

import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';

export const repoRoot = path.resolve(__dirname, '../..');

export function projectLinter(): ESLint {
  return new ESLint({ cwd: repoRoot });
}

export async function textLinter(): Promise<ESLint> {
  const config = (await import(pathToFileURL(path.join(repoRoot, 'eslint.config.mjs')).href)) as {
    TYPE_AWARE_RULES: Linter.RulesRecord;
  };
  const off = Object.fromEntries(Object.keys(config.TYPE_AWARE_RULES).map((rule) => [rule, 'off' as const]));
  return new ESLint({
    cwd: repoRoot,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } }, rules: off },
  });
}
