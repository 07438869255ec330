// `npx tsx bench/verifier/profileFirstSeen.ts [--rounds N] [--off feature,feature]`: the "passage
// seen for the first time" loop of `bench:verifier` run many times, for a CPU profile (bundle it
// with esbuild and run `node --cpu-prof` on the bundle so that the profile names functions and
// lines). Prints the p50 of the last round and the process's CPU time per check; --off switches
// lexical features off (LexicalFeatures names; `window` sets the window to the whole passage).

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createLexicalScorer, termStatsFromTexts } from '../../src/core/verifier';
import { loadWice } from './wice';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '20' }, off: { type: 'string', default: '' } },
  });
  const features = Object.fromEntries(
    values.off
      .split(',')
      .filter(Boolean)
      .map((f) => [f, f === 'window' ? 0 : false]),
  );
  const claims = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/test.jsonl'));
  const pairs = claims.flatMap((c) => c.chunks.map((chunk) => ({ claim: c.claim, chunk })));
  const termStats = termStatsFromTexts(pairs.map((p) => p.chunk));
  let samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let r = 0; r < Number(values.rounds); r++) {
    const scorer = createLexicalScorer({ termStats, features });
    samples = [];
    for (const p of pairs) {
      const t = performance.now();
      void scorer.score(p.claim, p.chunk);
      samples.push(performance.now() - t);
    }
  }
  const used = process.cpuUsage(cpu);
  samples.sort((a, b) => a - b);
  if (values.off) console.log(`off: ${values.off}`);
  const perCheck = (used.user + used.system) / (Number(values.rounds) * pairs.length);
  console.log(
    `p50 of the last round ${(samples[samples.length >> 1] * 1000).toFixed(1)} µs; CPU per check ${perCheck.toFixed(1)} µs`,
  );
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
