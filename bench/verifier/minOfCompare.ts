// `npx tsx bench/verifier/minOfCompare.ts [--reps K] label=DIR [label=DIR…]`: the row "passage seen
// for the first time" of `bench:verifier` for several builds, each check timed K times (a fresh
// scorer each time, given the sentence first when the bench's scorer would already have analysed
// it: the previous pair is the same claim) and its fastest time kept, the builds interleaved pair
// by pair. On a loaded machine the fastest of K runs of one check is near what it costs on a quiet
// one, so the ratio of two builds' p50 is steadier than `bench:verifier-compare`'s; still a
// development aid, the figures to report are the interleaved run of `bench:verifier-compare`.

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadWice } from './wice';

interface Scorer {
  score(sentence: string, passage: string): unknown;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { reps: { type: 'string', default: '5' } },
    allowPositionals: true,
  });
  const reps = Number(values.reps);
  const claims = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/test.jsonl'));
  const pairs = claims.flatMap((c) => c.chunks.map((chunk) => ({ claim: c.claim, chunk })));
  const builds = await Promise.all(
    positionals.map(async (spec) => {
      const [label, dir] = spec.split('=');
      if (!label || !dir) throw new Error(`expected label=DIR, got '${spec}'`);
      const lexical = (await import(path.resolve(dir, 'src/core/verifier/lexicalScorer.ts'))) as {
        createLexicalScorer: (o: object) => Scorer;
      };
      const statsFile = existsSync(path.resolve(dir, 'src/core/text/termStats.ts'))
        ? 'src/core/text/termStats.ts'
        : 'src/core/verifier/termStats.ts';
      const stats = (await import(path.resolve(dir, statsFile))) as { termStatsFromTexts: (t: string[]) => unknown };
      const termStats = stats.termStatsFromTexts(pairs.map((p) => p.chunk));
      return { label, create: () => lexical.createLexicalScorer({ termStats }), times: [] as number[] };
    }),
  );
  for (const b of builds) {
    const warm = b.create();
    for (const p of pairs) warm.score(p.claim, p.chunk);
  }
  pairs.forEach((p, i) => {
    const before = i > 0 && pairs[i - 1].claim === p.claim ? pairs[i - 1].chunk : undefined;
    for (const b of i % 2 ? [...builds].reverse() : builds) {
      let best = Infinity;
      for (let r = 0; r < reps; r++) {
        const scorer = b.create();
        if (before !== undefined) scorer.score(p.claim, before);
        const t = performance.now();
        scorer.score(p.claim, p.chunk);
        best = Math.min(best, performance.now() - t);
      }
      b.times.push(best * 1000);
    }
  });
  for (const b of builds) {
    const sorted = [...b.times].sort((x, y) => x - y);
    const q = (f: number): string => sorted[Math.floor(f * sorted.length)].toFixed(1);
    const mean = (b.times.reduce((x, y) => x + y, 0) / b.times.length).toFixed(1);
    console.log(`${b.label.padEnd(10)} fastest of ${reps}: p50 ${q(0.5)} µs  p90 ${q(0.9)} µs  mean ${mean} µs`);
  }
}

main().catch((error: unknown) => {
  console.error(`minOfCompare: ${(error as Error).message}`);
  process.exit(1);
});
