// `npm run bench:question-length`: answer time against question length (issue 11). The
// extractive model's answer() on questions of 1 KB to 1.4 MB whose words the passages lack (the
// worst case: every word is missing and named), and a whole Engine.ask up to the question cap
// over a generated docs folder. Linear means time per character stays flat as length grows.

import { answer } from '../src/core/models/extractiveModel';
import { MAX_QUESTION_LENGTH } from '../src/core/agent/question';
import { Engine, folderDocSource } from '../src/core/engine';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const PASSAGES = [
  {
    id: 'E1',
    heading: 'Refunds > Annual plans',
    text: 'Annual plans are refundable pro rata within 90 days of purchase.',
  },
];

function question(chars: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const w = `zq${i.toString(36)}term`;
    words.push(w);
    length += w.length + 1;
  }
  return `Are annual plans refundable ${words.join(' ')}?`.slice(0, chars);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  console.log('extractive answer(), median of 5 runs');
  console.log('chars      | ms      | µs per 1000 chars');
  for (const n of [1_000, 4_000, 16_000, 64_000, 256_000, 1_400_000]) {
    const q = question(n);
    answer(q, PASSAGES);
    const times: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t = performance.now();
      answer(q, PASSAGES);
      times.push(performance.now() - t);
    }
    const ms = median(times);
    console.log(
      `${String(n).padEnd(10)} | ${ms.toFixed(1).padStart(7)} | ${((ms * 1000) / (n / 1000)).toFixed(0).padStart(6)}`,
    );
  }

  const docs = mkdtempSync(path.join(os.tmpdir(), 'evident-qlen-docs-'));
  const indexDir = mkdtempSync(path.join(os.tmpdir(), 'evident-qlen-index-'));
  try {
    for (let d = 0; d < 40; d++) {
      writeFileSync(
        path.join(docs, `policy-${d}.md`),
        `# Policy ${d}\n\n## Refunds\n\nAnnual plans of tier ${d} are refundable pro rata within ${d + 10} days of purchase.\n\n## Travel\n\nEconomy class is required for flights shorter than ${d % 9} hours.\n`,
      );
    }
    const engine = await Engine.open({ docs: folderDocSource(docs), indexDir, embedding: false });
    await engine.index();
    const model = engine.createExtractiveModel();
    console.log(
      `\nEngine.ask (lexical, 40 documents), up to the cap of ${MAX_QUESTION_LENGTH} characters, median of 5 runs`,
    );
    console.log('chars      | ms      | µs per 1000 chars');
    for (const n of [250, 500, 1_000, 2_000, MAX_QUESTION_LENGTH]) {
      const q = question(n);
      await engine.ask(q, { model });
      const times: number[] = [];
      for (let r = 0; r < 5; r++) {
        const t = performance.now();
        await engine.ask(q, { model });
        times.push(performance.now() - t);
      }
      const ms = median(times);
      console.log(
        `${String(n).padEnd(10)} | ${ms.toFixed(1).padStart(7)} | ${((ms * 1000) / (n / 1000)).toFixed(0).padStart(6)}`,
      );
    }
  } finally {
    rmSync(docs, { recursive: true, force: true });
    rmSync(indexDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
