// The "no behaviour change" check of a refactoring: records what the CLI answers (`index --json`,
// `ask --json` over every question of a set, `eval --json`) on the samples and the two dev sets,
// lexical-only and with a real embedding model, each from a fresh index folder; then compares two
// recordings byte for byte once ids and times are taken out (invocation ids, `ms`, dates).
//
// Usage:
//   npx tsx bench/behaviour/answersSnapshot.ts record OUT_DIR [--cli dist/cli.js] [--embedding-model DIR] [--only NAME,…]
//   npx tsx bench/behaviour/answersSnapshot.ts compare BEFORE_DIR AFTER_DIR
// `--cli` may name a copy of dist/ built from another commit (`cp -r dist /tmp/before-dist`).
// Without `--embedding-model` the model runs use /work/models/all-MiniLM-L6-v2 when it exists,
// else they are left out (said so). `compare` exits 1 when anything differs, printing each diff.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');
const CORPORA = path.resolve(ROOT, '../shared/data/corpora');
const DEFAULT_MODEL = '/work/models/all-MiniLM-L6-v2';

interface Case {
  name: string;
  docs: string;
  set: string;
}

const CASES: Case[] = [
  { name: 'samples', docs: path.join(ROOT, 'samples'), set: path.join(ROOT, 'samples/eval-set.jsonl') },
  { name: 'site-policy', docs: path.join(CORPORA, 'site-policy'), set: path.join(ROOT, 'eval/dev/site-policy.jsonl') },
  {
    name: '18f-handbook',
    docs: path.join(CORPORA, '18f-handbook'),
    set: path.join(ROOT, 'eval/dev/18f-handbook.jsonl'),
  },
];

/** Keys whose values change from run to run whatever the code: ids of a run and times. */
const VOLATILE_KEYS = new Set([
  'invocationId',
  'ms',
  'savedAt',
  'updatedAt',
  'since',
  'at',
  'timestamp',
  'vectorCommits',
]);

/** A JSON value with the volatile keys taken out (recursively), keys in their order. */
export function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE_KEYS.has(k) && !k.endsWith('Ms'))
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

/** Each line of a CLI's JSON output, normalised, one per line. */
export function normaliseOutput(stdout: string): string {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.stringify(normalise(JSON.parse(line))))
    .join('\n')
    .concat('\n');
}

function runCli(cli: string, args: string[]): string {
  const started = Date.now();
  const result = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, GEMINI_API_KEY: '' },
  });
  if (result.status !== 0) {
    throw new Error(`${path.basename(cli)} ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  }
  process.stderr.write(`  ${args[0]} ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result.stdout;
}

async function record(
  out: string,
  options: { cli: string; model: string | undefined; only: string[] | undefined },
): Promise<void> {
  await mkdir(out, { recursive: true });
  const scratch = await mkdtemp(path.join(tmpdir(), 'evident-snapshot-'));
  const modes: { name: string; flags: string[] }[] = [{ name: 'lexical', flags: ['--no-embeddings'] }];
  if (options.model) modes.push({ name: 'minilm', flags: ['--embedding-model', options.model, '--offline'] });
  else {
    process.stderr.write(
      `No embedding model (${DEFAULT_MODEL} is absent and --embedding-model was not given): lexical runs only.\n`,
    );
  }
  try {
    for (const c of CASES) {
      if (options.only && !options.only.includes(c.name)) continue;
      if (!existsSync(c.docs)) {
        process.stderr.write(`${c.name}: skipped (${c.docs} is absent)\n`);
        continue;
      }
      for (const mode of modes) {
        const label = `${c.name}.${mode.name}`;
        process.stderr.write(`${label}\n`);
        const common = ['--docs', c.docs, '--index-dir', path.join(scratch, label), ...mode.flags];
        await writeFile(
          path.join(out, `${label}.index.json`),
          normaliseOutput(runCli(options.cli, ['index', ...common, '--json'])),
        );
        await writeFile(
          path.join(out, `${label}.ask.jsonl`),
          normaliseOutput(
            runCli(options.cli, ['ask', ...common, '--model', 'extractive', '--questions', c.set, '--json']),
          ),
        );
        await writeFile(
          path.join(out, `${label}.eval.json`),
          normaliseOutput(runCli(options.cli, ['eval', ...common, '--model', 'extractive', '--set', c.set, '--json'])),
        );
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Lines that differ between two files (line number, before, after), at most `limit`. */
function lineDiff(before: string, after: string, limit = 5): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < limit; i++) {
    if (a[i] !== b[i]) {
      out.push(
        `  line ${i + 1}\n    before: ${(a[i] ?? '(none)').slice(0, 600)}\n    after:  ${(b[i] ?? '(none)').slice(0, 600)}`,
      );
    }
  }
  return out;
}

async function compare(before: string, after: string): Promise<boolean> {
  const names = [...new Set([...(await readdir(before)), ...(await readdir(after))])].sort();
  let same = true;
  for (const name of names) {
    const a = await readFile(path.join(before, name), 'utf8').catch(() => undefined);
    const b = await readFile(path.join(after, name), 'utf8').catch(() => undefined);
    if (a === undefined || b === undefined) {
      console.log(`${name}: only in ${a === undefined ? after : before}`);
      same = false;
    } else if (a === b) {
      console.log(`${name}: identical (${a.split('\n').length - 1} lines, ${Buffer.byteLength(a)} bytes)`);
    } else {
      console.log(`${name}: DIFFERS\n${lineDiff(a, b).join('\n')}`);
      same = false;
    }
  }
  console.log(same ? 'All identical.' : 'Differences found.');
  return same;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { cli: { type: 'string' }, 'embedding-model': { type: 'string' }, only: { type: 'string' } },
  });
  const [command, ...dirs] = positionals;
  if (command === 'record' && dirs.length === 1) {
    const model =
      values['embedding-model'] ?? (existsSync(path.join(DEFAULT_MODEL, 'onnx')) ? DEFAULT_MODEL : undefined);
    await record(path.resolve(dirs[0]), {
      cli: path.resolve(values.cli ?? path.join(ROOT, 'dist/cli.js')),
      model,
      only: values.only?.split(','),
    });
  } else if (command === 'compare' && dirs.length === 2) {
    process.exitCode = (await compare(path.resolve(dirs[0]), path.resolve(dirs[1]))) ? 0 : 1;
  } else {
    console.error(
      'Usage: answersSnapshot.ts record OUT_DIR [--cli FILE] [--embedding-model DIR] [--only NAME,…] | compare BEFORE_DIR AFTER_DIR',
    );
    process.exitCode = 2;
  }
}

if (require.main === module) void main();
