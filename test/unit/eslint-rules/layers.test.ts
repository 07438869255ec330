// The layer rule (eslint-rules/layers.mjs) run by the real ESLint with the project's config:
// deliberate violations fail lint, the code as it is passes, and src/ has no import cycle
// between its folders (type-only imports included).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { ESLint } from 'eslint';
import { textLinter } from '../../support/projectLinter';
import { findCycle, folderGraph } from '../../support/importGraph';

const root = path.resolve(__dirname, '../../..');
const RULE = 'evident/layers';

describe('layer rule (ESLint, project config)', function () {
  this.timeout(240_000); // linting all of src/ takes 35 s alone at a load of 20
  let eslint: ESLint;
  before(async () => {
    eslint = await textLinter();
  });

  /** Lints `code` as if it were the file `file` (nothing is written to disk). */
  async function layerErrors(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  const violations: [string, string, RegExp][] = [
    [
      'src/core/violation.ts',
      "import { createLog } from '../host/log';\nexport const x = createLog;\n",
      /src\/core may import only domain, core.*"\.\.\/host\/log" is in src\/host/,
    ],
    [
      'src/core/agent/violation.ts',
      "import type { ChatApp } from '../../webview/chatApp';\nexport type X = ChatApp;\n",
      /"\.\.\/\.\.\/webview\/chatApp" is in src\/webview \(a type-only import counts too\)/,
    ],
    ['src/core/violation.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n", /is the VS Code API/],
    [
      'src/core/violation.ts',
      "import { isRecord } from '../shared/guards';\nexport const x = isRecord;\n",
      /is in src\/shared/,
    ],
    [
      'src/webview/violation.ts',
      "import type { ChatModel } from '../core/types';\nexport type X = ChatModel;\n",
      /src\/webview may import only domain, shared\/protocol\.ts, webview.*is in src\/core \(a type-only import counts too\)/,
    ],
    [
      'src/webview/violation.ts',
      "import { Commands } from '../shared/ids';\nexport const x = Commands;\n",
      /"\.\.\/shared\/ids" is in src\/shared/,
    ],
    ['src/webview/violation.ts', "import * as fs from 'node:fs';\nexport const x = fs;\n", /is a Node built-in/],
    [
      'src/host/violation.ts',
      "import { Engine } from '../core/engine';\nexport const x = Engine;\n",
      /src\/host may import only .*core \(types only\).*"\.\.\/core\/engine" is in src\/core/,
    ],
    ['src/host/violation.ts', "export { documentVersion } from '../core/docs/version';\n", /is in src\/core/],
    ['src/host/violation.ts', "export const load = () => import('../core/engine');\n", /is in src\/core/],
    [
      'src/domain/violation.ts',
      "import type { ChatModel } from '../core/types';\nexport type X = ChatModel;\n",
      /src\/domain may import only domain;/,
    ],
    ['src/domain/violation.ts', "import { sep } from 'node:path';\nexport const x = sep;\n", /is a Node built-in/],
    [
      'src/domain/violation.ts',
      "import MarkdownIt from 'markdown-it';\nexport const x = MarkdownIt;\n",
      /is an npm package/,
    ],
    [
      'src/shared/violation.ts',
      "import type { Engine } from '../core/engine';\nexport type X = Engine;\n",
      /is in src\/core/,
    ],
    [
      'src/cli/violation.ts',
      "import { createLog } from '../host/log';\nexport const x = createLog;\n",
      /src\/cli may import only domain, core, cli.*is in src\/host/,
    ],
    [
      'src/core/violation.ts',
      "import { ScriptedModel } from '../../test/support/scriptedModel';\nexport const x = ScriptedModel;\n",
      /is outside src\//,
    ],
    ['src/newLayer/violation.ts', 'export const x = 1;\n', /Every file of src\/ belongs to one layer folder/],
  ];

  for (const [file, code, expected] of violations) {
    it(`fails ${file}: ${code.split('\n')[0]}`, async () => {
      const errors = await layerErrors(file, code);
      assert.equal(errors.length, 1, `expected one layer error, got ${JSON.stringify(errors)}`);
      assert.match(errors[0], expected);
    });
  }

  it('allows what the layers allow: host importing core by type, webview the protocol, core the domain', async () => {
    assert.deepEqual(
      await layerErrors(
        'src/host/ok.ts',
        "import type { Engine } from '../core/engine';\nimport { type ChatModel } from '../core/types';\nexport type X = Engine | ChatModel;\n",
      ),
      [],
    );
    assert.deepEqual(
      await layerErrors(
        'src/webview/ok.ts',
        "import { isHostToWebview } from '../shared/protocol';\nimport { parseCitations } from '../domain/citations';\nexport const x = [isHostToWebview, parseCitations];\n",
      ),
      [],
    );
    assert.deepEqual(
      await layerErrors(
        'src/core/agent/ok.ts',
        "import { notFound } from '../../domain/abstention';\nimport { splitSentences } from '../verifier';\nexport const x = [notFound, splitSentences];\n",
      ),
      [],
    );
    assert.deepEqual(
      await layerErrors(
        'src/cli/ok.ts',
        "import { Engine } from '../core/engine';\nimport type { TurnResult } from '../domain/types';\nexport const x: [typeof Engine, TurnResult?] = [Engine];\n",
      ),
      [],
    );
  });

  it('passes on every file of src/ as it is', async () => {
    const results = await eslint.lintFiles(['src']);
    assert.ok(results.length > 60, `linted ${results.length} files`);
    const errors = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === RULE)
        .map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`),
    );
    assert.deepEqual(errors, []);
  });
});

describe('import graph of src/ between folders (type-only imports included)', () => {
  const graph = folderGraph(path.join(root, 'src'));

  it('has no cycle', () => {
    const cycle = findCycle(graph);
    assert.equal(
      cycle,
      undefined,
      `cycle: ${cycle?.join(' → ')}: ${cycle
        ?.slice(0, -1)
        .map((f, i) => graph.get(f)?.get(cycle[i + 1])?.[0])
        .join('; ')}`,
    );
  });

  it('has domain and webview import only the layers below them', () => {
    assert.deepEqual([...(graph.get('domain')?.keys() ?? [])], []);
    assert.deepEqual([...(graph.get('webview')?.keys() ?? [])].sort(), ['domain', 'shared']);
    assert.deepEqual([...(graph.get('core')?.keys() ?? [])], ['domain']);
  });

  it('finds a cycle when there is one (the check itself can fail)', () => {
    const withCycle = new Map([
      ['core', new Map([['shared', []]])],
      [
        'shared',
        new Map([
          ['domain', []],
          ['core', []],
        ]),
      ],
      ['domain', new Map()],
    ]);
    assert.deepEqual(findCycle(withCycle), ['core', 'shared', 'core']);
    assert.equal(
      findCycle(
        new Map([
          ['core', new Map([['domain', []]])],
          ['domain', new Map()],
        ]),
      ),
      undefined,
    );
  });
});
