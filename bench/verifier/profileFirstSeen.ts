// `npx tsx bench/verifier/profileFirstSeen.ts [--rounds N] [--off feature,feature]`: the "passage
// seen for the first time" loop of `bench:verifier` run many times, for a CPU profile (bundle it
// with esbuild and run `node --cpu-prof` on the bundle so that the profile names functions and
// lines). Prints the p50 of the last round and the process's CPU time per check; --off switches
// lexical features off (LexicalFeatures names; `window` sets the window to the whole passage);
// --prepared times row (a) instead: every passage prepared beforehand (untimed, outside the CPU
// figure), each check against its prepared passage; --new-sentence makes a new scorer for every
// check, so that each check analyses its sentence (with --prepared: the cost of a sentence's first check).

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createLexicalScorer, termStatsFromTexts } from '../../src/core/verifier';
import { PassageCache } from '../../src/core/verifier/passageCache';
import { loadWice } from './wice';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '20' },
      off: { type: 'string', default: '' },
      prepared: { type: 'boolean', default: false },
      'new-sentence': { type: 'boolean', default: false },
    },
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
  const chunks = [...new Set(pairs.map((p) => p.chunk))];
  const passages = new PassageCache(chunks.length, Infinity);
  if (values.prepared) for (const c of chunks) passages.ready(c);
  let samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let r = 0; r < Number(values.rounds); r++) {
    const scorer = createLexicalScorer({ termStats, features, ...(values.prepared ? { passages } : {}) });
    samples = [];
    for (const p of pairs) {
      const t = performance.now();
      if (values['new-sentence']) {
        void createLexicalScorer({ termStats, features, ...(values.prepared ? { passages } : {}) }).score(
          p.claim,
          p.chunk,
        );
      } else void scorer.score(p.claim, p.chunk);
      samples.push(performance.now() - t);
    }
  }
  const used = process.cpuUsage(cpu);
  samples.sort((a, b) => a - b);
  if (values.off) console.log(`off: ${values.off}`);
  if (values.prepared) console.log('row (a): checks against prepared passages');
  const perCheck = (used.user + used.system) / (Number(values.rounds) * pairs.length);
  console.log(
    `p50 of the last round ${(samples[samples.length >> 1] * 1000).toFixed(1)} µs; CPU per check ${perCheck.toFixed(1)} µs`,
  );
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
