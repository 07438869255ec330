// Proof that a change to the chunker keeps its output: every Markdown file of the given folders
// (default: the three corpora and test/fixtures) is chunked by this checkout's chunker and by
// another checkout's (`--before DIR`, e.g. a `git worktree` of main), and every passage field is
// compared (id, source, heading path, heading, line range, text, version) as well as the title.
// Prints the counts and each difference (the first 20); exits 1 on any difference.
// Usage: npm run bench:chunk-equivalence -- --before /tmp/main-worktree [--dir DIR …]

import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { chunkMarkdown as chunkAfter } from '../src/core/docs/chunker';

type Chunk = typeof chunkAfter;

const DEFAULT_DIRS = [
  '../shared/data/corpora/site-policy',
  '../shared/data/corpora/18f-handbook',
  '../shared/data/corpora/k8s-community',
  'test/fixtures',
];

function* markdownFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const stat = statSync(file);
    if (stat.isDirectory()) yield* markdownFiles(file);
    else if (stat.isFile() && /\.(md|markdown)$/i.test(name)) yield file;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { before: { type: 'string' }, dir: { type: 'string', multiple: true } },
  });
  if (!values.before) throw new Error('--before DIR (a checkout of the build to compare with) is required');
  const beforeModule = (await import(path.resolve(values.before, 'src/core/docs/chunker.ts'))) as {
    chunkMarkdown: Chunk;
  };
  const chunkBefore = beforeModule.chunkMarkdown;
  const dirs = values.dir?.length ? values.dir : DEFAULT_DIRS;
  let files = 0;
  let passages = 0;
  let characters = 0;
  const differences: string[] = [];
  let msBefore = 0;
  let msAfter = 0;
  for (const dir of dirs) {
    for (const file of markdownFiles(dir)) {
      const text = readFileSync(file, 'utf8');
      const source = path.relative(dir, file);
      let t = performance.now();
      const before = chunkBefore(source, text);
      msBefore += performance.now() - t;
      t = performance.now();
      const after = chunkAfter(source, text);
      msAfter += performance.now() - t;
      files++;
      characters += text.length;
      passages += before.passages.length;
      if (before.title !== after.title) differences.push(`${file}: title ${before.title} ≠ ${after.title}`);
      if (before.passages.length !== after.passages.length) {
        differences.push(`${file}: ${before.passages.length} passages ≠ ${after.passages.length}`);
        continue;
      }
      before.passages.forEach((p, i) => {
        const q = after.passages[i];
        for (const key of Object.keys({ ...p, ...q }) as (keyof typeof p)[]) {
          if (JSON.stringify(p[key]) !== JSON.stringify(q[key])) {
            differences.push(`${file} passage ${i}: ${key} differs`);
          }
        }
      });
    }
  }
  console.log(
    `${files} files, ${characters} characters, ${passages} passages: ${differences.length} differences` +
      ` (chunking ${(msBefore / 1000).toFixed(1)} s before, ${(msAfter / 1000).toFixed(1)} s after, same process)`,
  );
  for (const d of differences.slice(0, 20)) console.log(`  ${d}`);
  if (differences.length) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
