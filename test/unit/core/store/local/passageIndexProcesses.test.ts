// The index folder shared by real processes: `evident index` in a loop (one file edited before
// each run) beside `evident ask --no-index` and plain `evident ask` runs, each a child process.
// Every ask answers, every run succeeds (before reader leases and the writer lock, readers failed
// with ENOENT on files a writer had just removed, and two writers wrote the same generation).
// A few rounds here (the mechanism's deterministic tests are in passageIndexSharing.test.ts);
// fifty, with and without vectors, are `npm run bench:faults` (docs/measurements.md).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { runCliProcess, type CliProcessRun } from '../../../../support/cliProcess';
import { tinyEmbeddingModelDir } from '../../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../../support/workspace';

const ROUNDS = 3;

function corpus(): Record<string, string> {
  const files: Record<string, string> = {
    'leave.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n',
  };
  for (let i = 0; i < 60; i++) {
    files[`policies/p${i}.md`] =
      `# Policy ${i}\n\n${Array.from({ length: 12 }, (_, j) => `Rule ${i}.${j} says team ${j} files report ${i * j} on day ${j + 1}.`).join(' ')}\n`;
  }
  return files;
}

describe('index folder shared by processes: evident index in a loop beside evident ask (child processes)', function () {
  this.timeout(300_000);
  let work: string;
  let model: string;

  before(async () => {
    work = await tempDir('evident-processes-');
    model = await tinyEmbeddingModelDir();
  });

  after(async () => {
    await removeDir(work);
  });

  // With vectors: a reader loads its model before it reads the vectors, the window in which a
  // writer used to remove them. Without vectors, and fifty rounds of each: bench:faults.
  for (const vectors of [true]) {
    it(`${vectors ? 'with' : 'without'} vectors: every ask answers and every index run succeeds`, async () => {
      const docs = path.join(work, `docs-${vectors}`);
      const indexDir = path.join(work, `index-${vectors}`);
      await writeDocs(docs, corpus());
      const embedding = vectors ? ['--embedding-model', model, '--offline'] : ['--no-embeddings'];
      const cli = (args: string[]) =>
        runCliProcess([...args, '--docs', docs, '--index-dir', indexDir, ...embedding], { timeoutMs: 120_000 });
      const first = await cli(['index']);
      assert.equal(first.code, 0, first.stderr);

      const failures: string[] = [];
      const check = (what: string, run: CliProcessRun) => {
        if (run.code !== 0) failures.push(`${what}: exit ${run.code}: ${run.stderr.slice(0, 300)}`);
        else if (what.startsWith('ask') && !/25 days/.test(run.stdout)) {
          failures.push(`${what}: no answer: ${run.stdout.slice(0, 200)}`);
        }
      };
      let writing = true;
      const writer = (async () => {
        for (let i = 0; i < ROUNDS; i++) {
          await writeDocs(docs, {
            [`policies/p${i}.md`]: `# Policy ${i}\n\nRule ${i} was edited in round ${i} of the writer.\n`,
            [`new/n${i}.md`]: `# New ${i}\n\nNew rule ${i}.\n`,
          });
          check(`index ${i}`, await cli(['index']));
        }
        writing = false;
      })();
      const question = ['--json', '--question', 'How many days of annual leave do employees receive?'];
      const readers = [0, 1].map(async (lane) => {
        let n = 0;
        while (writing || n < ROUNDS) {
          const plain = lane === 1 && n % 2 === 1;
          check(
            `ask${plain ? '' : ' --no-index'} ${lane}.${n}`,
            await cli(['ask', ...(plain ? [] : ['--no-index']), ...question]),
          );
          n++;
        }
      });
      await Promise.all([writer, ...readers]);
      assert.deepEqual(failures, []);
    });
  }
});
