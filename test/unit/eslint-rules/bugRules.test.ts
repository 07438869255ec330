// The lint rules that catch real bugs (eslint.config.mjs), run by the real ESLint with the project's
// config on text standing in for a file of src/ (so the rules that read types see the project):
// each rule fails the code it is there for and passes the corrected code.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { projectLinter, repoRoot } from '../../support/projectLinter';

/** An existing file of the project: its types are known; the text given replaces its content. */
const STAND_IN = path.join(repoRoot, 'src/domain/wording.ts');

describe('lint rules that catch bugs (ESLint, project config with types)', function () {
  this.timeout(240_000); // the first lint builds the TypeScript program
  const eslint = projectLinter();

  async function rulesHit(code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: STAND_IN });
    const fatal = result.messages.filter((m) => m.fatal);
    assert.deepEqual(fatal, [], 'the text parses');
    return result.messages.map((m) => m.ruleId ?? '').sort();
  }

  const cases: [string, string, string][] = [
    [
      '@typescript-eslint/no-floating-promises',
      'export async function save(): Promise<void> {}\nexport function run(): void {\n  save();\n}\n',
      'export async function save(): Promise<void> {}\nexport function run(): void {\n  void save().catch(() => undefined);\n}\n',
    ],
    [
      '@typescript-eslint/no-misused-promises',
      'export async function ready(): Promise<boolean> {\n  return true;\n}\nexport function go(): number {\n  if (ready()) return 1;\n  return 0;\n}\n',
      'export async function ready(): Promise<boolean> {\n  return true;\n}\nexport async function go(): Promise<number> {\n  if (await ready()) return 1;\n  return 0;\n}\n',
    ],
    [
      'eqeqeq',
      'export function isOne(x: number | string): boolean {\n  return x == 1;\n}\n',
      "export function isOne(x: number | string): boolean {\n  return x === 1 || x === '1' || x == null;\n}\n",
    ],
    [
      'curly',
      'export function pick(a: number): number {\n  if (a > 1)\n    return Math.max(\n      a,\n      2,\n    );\n  return a;\n}\n',
      'export function pick(a: number): number {\n  if (a > 1) return a;\n  return 0;\n}\n',
    ],
  ];

  for (const [rule, bad, good] of cases) {
    it(`${rule}: fails the bug, passes the fix`, async () => {
      assert.deepEqual(await rulesHit(bad), [rule]);
      assert.deepEqual(await rulesHit(good), []);
    });
  }
});
