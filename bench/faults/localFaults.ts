// Faults of the local index shared by processes (each a real `node dist/cli.js` process): readers
// during a writer (`evident index` in a loop, one file edited before each run, beside
// `ask --no-index` and plain `ask`), and two writers at once (an `index` and a plain `ask`
// after each edit), whose final index must equal a clean one.

import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { PassageIndex } from '../../src/core/store/local/passageIndex';
import { removeDir, tempDir, writeDocs } from '../../test/support/workspace';
import type { FaultOutcome } from './storeFaults';

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const QUESTION = ['--json', '--question', 'How many days of annual leave do employees receive?'];

function corpus(): Record<string, string> {
  const files: Record<string, string> = {
    'leave.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n',
  };
  for (let i = 0; i < 150; i++) {
    files[`policies/p${i}.md`] =
      `# Policy ${i}\n\n${Array.from({ length: 12 }, (_, j) => `Rule ${i}.${j} says team ${j} files report ${i * j} on day ${j + 1}.`).join(' ')}\n`;
  }
  return files;
}

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HF_ENDPOINT: 'http://127.0.0.1:9' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `embedding`: the CLI's flags for it (a model folder, or --no-embeddings). */
export async function readersDuringWriter(
  iterations: number,
  embedding: string[],
  label: string,
  log: (line: string) => void,
): Promise<FaultOutcome> {
  const work = await tempDir('evident-faults-local-');
  const docs = path.join(work, 'docs');
  const indexDir = path.join(work, 'index');
  const flags = ['--docs', docs, '--index-dir', indexDir, ...embedding];
  const failures: string[] = [];
  const counts = { asksNoIndex: 0, asks: 0, runs: 0, busy: 0 };
  try {
    await writeDocs(docs, corpus());
    const first = await cli(['index', ...flags]);
    if (first.code !== 0) throw new Error(`the first index failed: ${first.stderr}`);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < iterations; i++) {
        await writeDocs(docs, {
          [`policies/p${i % 150}.md`]: `# Policy ${i % 150}\n\nRule edited in run ${i}: ${'word '.repeat(i % 40)}.\n`,
          [`new/n${i}.md`]: `# New ${i}\n\nNew rule ${i}.\n`,
        });
        const run = await cli(['index', ...flags]);
        counts.runs++;
        if (run.code !== 0) failures.push(`index ${i}: exit ${run.code}: ${run.stderr.slice(0, 300)}`);
      }
      writing = false;
    })();
    const reader = async (lane: number) => {
      for (let n = 0; writing || n < iterations / 2; n++) {
        const plain = lane === 1;
        const run = await cli(['ask', ...(plain ? [] : ['--no-index']), ...QUESTION, ...flags]);
        if (plain) counts.asks++;
        else counts.asksNoIndex++;
        if (/is updating this index: answering from the index/.test(run.stderr)) counts.busy++;
        if (run.code !== 0) {
          failures.push(`ask${plain ? '' : ' --no-index'} ${lane}.${n}: exit ${run.code}: ${run.stderr.slice(0, 300)}`);
        } else if (!/25 days/.test(run.stdout)) {
          failures.push(`ask ${lane}.${n}: no answer: ${run.stdout.slice(0, 200)}`);
        }
      }
    };
    await Promise.all([writer, reader(0), reader(1)]);
  } finally {
    await removeDir(work);
  }
  const detail = `${label}: ${counts.runs} index runs in a loop beside ${counts.asksNoIndex} ask --no-index and ${counts.asks} ask runs (${counts.busy} answered from the committed index while the writer held the lock): ${failures.length} failures${failures.length ? `; ${failures.slice(0, 3).join('; ')}` : ''}`;
  log(`local: ${detail}`);
  return { scenario: `local-readers (${label})`, ok: failures.length === 0, detail };
}

export async function twoLocalWriters(
  rounds: number,
  embedding: string[],
  label: string,
  log: (line: string) => void,
): Promise<FaultOutcome> {
  const work = await tempDir('evident-faults-writers-');
  const docs = path.join(work, 'docs');
  const indexDir = path.join(work, 'index');
  const flags = ['--docs', docs, '--index-dir', indexDir, ...embedding];
  const failures: string[] = [];
  let equal = false;
  try {
    await writeDocs(docs, corpus());
    for (let round = 0; round < rounds; round++) {
      await writeDocs(docs, {
        [`policies/p${round}.md`]: `# Policy ${round}\n\nRound ${round} edit.\n`,
        [`w/${round}.md`]: `# W ${round}\n\nWritten in round ${round}.\n`,
      });
      const [a, b] = await Promise.all([cli(['index', ...flags]), cli(['ask', ...QUESTION, ...flags])]);
      if (a.code !== 0) failures.push(`round ${round} index: ${a.stderr.slice(0, 300)}`);
      if (b.code !== 0) failures.push(`round ${round} ask: ${b.stderr.slice(0, 300)}`);
    }
    // One more run brings the index up to date (an ask that found the writer busy indexed nothing).
    const last = await cli(['index', '--json', ...flags]);
    if (last.code !== 0) failures.push(`final index: ${last.stderr.slice(0, 300)}`);
    const cleanDir = path.join(work, 'clean');
    const clean = await cli(['index', '--docs', docs, '--index-dir', cleanDir, ...embedding]);
    if (clean.code !== 0) failures.push(`clean index: ${clean.stderr.slice(0, 300)}`);
    const rows = async (dir: string) => {
      const index = await PassageIndex.open(dir, docs);
      try {
        return JSON.stringify({
          passages: index
            .allPassages()
            .map((p) => `${p.id}|${p.startLine}|${p.text}`)
            .sort(),
          fill: index.vectorFill(),
        });
      } finally {
        await index.close();
      }
    };
    equal = (await rows(indexDir)) === (await rows(cleanDir));
    if (!equal) failures.push('the final index differs from a clean one');
  } finally {
    await removeDir(work);
  }
  const detail = `${label}: ${rounds} rounds of evident index and evident ask at once after an edit: ${failures.length} failures; final index equals a clean one: ${equal}${failures.length ? `; ${failures.slice(0, 3).join('; ')}` : ''}`;
  log(`local: ${detail}`);
  return { scenario: `local-writers (${label})`, ok: failures.length === 0, detail };
}
