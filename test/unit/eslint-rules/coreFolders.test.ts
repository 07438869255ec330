// The rule inside core (eslint-rules/coreFolders.mjs) run by the real ESLint with the project's
// config: deliberate violations between core's folders fail lint, allowed imports pass, and src/
// as it is passes.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { ESLint } from 'eslint';
import { textLinter } from '../../support/projectLinter';

const root = path.resolve(__dirname, '../../..');
const RULE = 'evident/core-folders';

describe('core folder rule (ESLint, project config)', function () {
  this.timeout(240_000); // linting all of src/ takes 35 s alone at a load of 20
  let eslint: ESLint;
  before(async () => {
    eslint = await textLinter();
  });

  /** Lints `code` as if it were the file `file` (nothing is written to disk). */
  async function ruleErrors(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  const violations: [string, string, RegExp][] = [
    [
      'src/core/indexing/violation.ts',
      "import { openManifest } from '../store/local/manifest';\nexport const x = openManifest;\n",
      /src\/core\/indexing may import of core only core\/indexing, core\/docs, core\/types\.ts; "\.\.\/store\/local\/manifest" is src\/core\/store\/local\/manifest/,
    ],
    [
      'src/core/indexing/violation.ts',
      "import type { HeldLock } from '../retrieval/indexLock';\nexport type X = HeldLock;\n",
      /src\/core\/indexing may import of core only/,
    ],
    [
      'src/core/docs/violation.ts',
      "import { stems } from '../text/terms';\nexport const x = stems;\n",
      /src\/core\/docs may import of core only core\/docs;/,
    ],
    // Text analysis is the bottom of core: nothing above it, not even docs.
    [
      'src/core/text/violation.ts',
      "import { LexicalIndex } from '../retrieval/lexicalIndex';\nexport const x = LexicalIndex;\n",
      /src\/core\/text may import of core only core\/text; "\.\.\/retrieval\/lexicalIndex" is src\/core\/retrieval\/lexicalIndex/,
    ],
    [
      'src/core/text/terms.ts',
      "import type { VerifierOptions } from '../verifier/verifier';\nexport type X = VerifierOptions;\n",
      /src\/core\/text may import of core only core\/text;/,
    ],
    [
      'src/core/text/violation.ts',
      "import { chunkMarkdown } from '../docs/chunker';\nexport const x = chunkMarkdown;\n",
      /src\/core\/text may import of core only core\/text;/,
    ],
    // The port imports contracts only: no store, no ranking, no worker.
    [
      'src/core/store/passageStore.ts',
      "import type { PassageIndex } from './local/passageIndex';\nexport type X = PassageIndex;\n",
      /src\/core\/store\/passageStore\.ts may import of core only core\/indexing, core\/docs, core\/text, core\/types\.ts, core\/retrieval\/retrievedPassage\.ts; "\.\/local\/passageIndex" is src\/core\/store\/local\/passageIndex/,
    ],
    [
      'src/core/store/passageStore.ts',
      "export { PassageIndex } from './local/passageIndex';\n",
      /src\/core\/store\/passageStore\.ts may import of core only/,
    ],
    [
      'src/core/store/passageStore.ts',
      "import type { RankedIndex } from '../retrieval/hybridRetriever';\nexport type X = RankedIndex;\n",
      /src\/core\/store\/passageStore\.ts may import of core only .*"\.\.\/retrieval\/hybridRetriever"/,
    ],
    [
      'src/core/store/passageStore.ts',
      "import type { PostgresPassageStore } from './postgres/postgresPassageStore';\nexport type X = PostgresPassageStore;\n",
      /src\/core\/store\/passageStore\.ts may import of core only/,
    ],
    [
      'src/core/store/passageStore.ts',
      "import type { WorkerPassageStore } from './workerPassageStore';\nexport type X = WorkerPassageStore;\n",
      /src\/core\/store\/passageStore\.ts may import of core only/,
    ],
    [
      'src/core/store/passageStore.ts',
      "import type { LexicalIndex } from '../retrieval/lexicalIndex';\nexport type X = LexicalIndex;\n",
      /src\/core\/store\/passageStore\.ts may import of core only/,
    ],
    // Retrieval never imports a store, by any path and from any of its files.
    [
      'src/core/retrieval/violation.ts',
      "import { LocalPassageStore } from '../store/localPassageStore';\nexport const x = LocalPassageStore;\n",
      /src\/core\/retrieval may not import core\/store/,
    ],
    [
      'src/core/retrieval/violation.ts',
      "export const load = () => import('../store/local/manifest');\n",
      /src\/core\/retrieval may not import core\/store/,
    ],
    [
      'src/core/retrieval/hybridRetriever.ts',
      "import type { PassageIndex } from '../store/local/passageIndex';\nexport type X = PassageIndex;\n",
      /src\/core\/retrieval may not import core\/store.*"\.\.\/store\/local\/passageIndex"/,
    ],
    [
      'src/core/retrieval/passageIndex.ts',
      "export { PassageIndex } from '../store/local/passageIndex';\n",
      /src\/core\/retrieval may not import core\/store/,
    ],
    [
      'src/core/retrieval/violation.ts',
      "import type { StoreSearch } from '../store/passageStore';\nexport type X = StoreSearch;\n",
      /src\/core\/retrieval may not import core\/store/,
    ],
    [
      'src/core/retrieval/violation.ts',
      "import { checkRelevance } from '../verifier/relevance';\nexport const x = checkRelevance;\n",
      /src\/core\/retrieval may not import .*core\/verifier/,
    ],
    // What a search returns is a contract: it imports nothing of core.
    [
      'src/core/retrieval/retrievedPassage.ts',
      "import type { RankedIndex } from './hybridRetriever';\nexport type X = RankedIndex;\n",
      /src\/core\/retrieval\/retrievedPassage\.ts may import nothing of core; "\.\/hybridRetriever" is src\/core\/retrieval\/hybridRetriever/,
    ],
    [
      'src/core/store/local/violation.ts',
      "import { SCHEMA_VERSION } from '../postgres/schema';\nexport const x = SCHEMA_VERSION;\n",
      /src\/core\/store\/local may not import core\/store\/postgres/,
    ],
    [
      'src/core/store/postgres/violation.ts',
      "import { openManifest } from '../local/manifest';\nexport const x = openManifest;\n",
      /src\/core\/store\/postgres may not import core\/store\/local/,
    ],
    [
      'src/core/store/postgres/violation.ts',
      "import type { WorkerCalls } from '../../indexWorker/messages';\nexport type X = WorkerCalls;\n",
      /src\/core\/store\/postgres may not import .*core\/indexWorker/,
    ],
  ];

  for (const [file, code, expected] of violations) {
    it(`fails ${file}: ${code.split('\n')[0]}`, async () => {
      const errors = await ruleErrors(file, code);
      assert.equal(errors.length, 1, `expected one core-folder error, got ${JSON.stringify(errors)}`);
      assert.match(errors[0], expected);
    });
  }

  it('allows what the table allows: a store its search structures and the contract, the port contracts and text, retrieval the contract and text, other folders anything of core', async () => {
    assert.deepEqual(
      await ruleErrors(
        'src/core/store/local/ok.ts',
        "import { LexicalIndex } from '../../retrieval/lexicalIndex';\nimport type { IndexReport } from '../../indexing/indexRun';\nexport type X = [LexicalIndex, IndexReport];\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/store/passageStore.ts',
        "import type { IndexReport } from '../indexing/indexRun';\nexport type X = IndexReport;\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/store/passageStore.ts',
        "import type { RetrievedPassage } from '../retrieval/retrievedPassage';\nimport type { TermStats } from '../text/termStats';\nimport type { DocSource } from '../docs/docSource';\nimport type { Embedder } from '../types';\nexport type X = [RetrievedPassage, TermStats, DocSource, Embedder];\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/retrieval/ok.ts',
        "import type { RetrievedPassage } from './retrievedPassage';\nimport { stem } from '../text/terms';\nimport type { LockHolder } from '../indexing/indexRun';\nexport type X = [RetrievedPassage, typeof stem, LockHolder];\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/text/ok.ts',
        "import { analyse } from './terms';\nimport { stemmer } from 'stemmer';\nexport const x = [analyse, stemmer];\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/retrieval/retrievedPassage.ts',
        "import type { Passage } from '../../domain/types';\nexport type X = Passage;\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/indexing/ok.ts',
        "import { chunkMarkdown } from '../docs/chunker';\nimport type { Embedder } from '../types';\nexport const x: [typeof chunkMarkdown, Embedder?] = [chunkMarkdown];\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/agent/ok.ts',
        "import { LocalPassageStore } from '../store/localPassageStore';\nexport const x = LocalPassageStore;\n",
      ),
      [],
    );
    assert.deepEqual(
      await ruleErrors(
        'src/core/verifier/ok.ts',
        "import { analyse } from '../text/terms';\nexport const x = analyse;\n",
      ),
      [],
    );
  });

  it('passes on every file of src/ as it is', async () => {
    const results = await eslint.lintFiles(['src/core']);
    assert.ok(results.length > 60, `linted ${results.length} files`);
    const errors = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === RULE)
        .map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.message}`),
    );
    assert.deepEqual(errors, []);
  });
});

describe('file size limit (ESLint max-lines, project config)', function () {
  this.timeout(240_000); // linting all of src/ takes 35 s alone at a load of 20
  let eslint: ESLint;
  before(async () => {
    eslint = await textLinter();
  });

  it('fails a file of src/ over 600 lines and passes one of 600', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join('\n') + '\n';
    const [over] = await eslint.lintText(lines(601), { filePath: path.join(root, 'src/core/tooLong.ts') });
    assert.deepEqual(
      over.messages.filter((m) => m.ruleId === 'max-lines').map((m) => m.message),
      ['File has too many lines (601). Maximum allowed is 600.'],
    );
    const [at] = await eslint.lintText(lines(600), { filePath: path.join(root, 'src/core/longEnough.ts') });
    assert.deepEqual(
      at.messages.filter((m) => m.ruleId === 'max-lines'),
      [],
    );
  });
});
