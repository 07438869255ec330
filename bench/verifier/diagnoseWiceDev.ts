// Dev-only diagnosis of the clause and name checks on WiCE: which dev claims each check flips,
// with the check's reason. Reads ONLY the dev split (never test).
//
//   npx tsx bench/verifier/diagnoseWiceDev.ts [names|clauses] [--t=0.6] [--all] [--base={"clauses":false}]
//   npx tsx bench/verifier/diagnoseWiceDev.ts --ba   (dev BA of the variants at 0.60 and at dev's best)

import * as path from 'node:path';
import { createLexicalScorer, termStatsFromTexts, type LexicalFeatures } from '../../src/core/verifier';
import { loadWice } from './wice';

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'names';
  const T = Number(process.argv.find((a) => a.startsWith('--t='))?.slice(4) ?? 0.6);
  const base: Partial<LexicalFeatures> = JSON.parse(
    process.argv.find((a) => a.startsWith('--base='))?.slice(7) ?? '{}',
  );
  const dev = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/dev.jsonl'));
  const stats = termStatsFromTexts(dev.flatMap((c) => c.chunks));
  const full = createLexicalScorer({ termStats: stats, features: base });
  const off: Partial<LexicalFeatures> = which === 'names' ? { names: false } : { clauses: false };
  const without = createLexicalScorer({ termStats: stats, features: { ...base, ...off } });
  let hurt = 0,
    helped = 0;
  for (const c of dev) {
    let bestFull = { score: 0, explanation: '' as string | undefined };
    let bestWithout = 0;
    for (const chunk of c.chunks) {
      const claim = c.claim.trim().replace(/[.!?]+$/, '');
      const r = full.score(claim, chunk) as { score: number; explanation?: string };
      const r2 = without.score(claim, chunk) as { score: number };
      if (r.score >= bestFull.score) bestFull = { score: r.score, explanation: r.explanation };
      bestWithout = Math.max(bestWithout, r2.score);
    }
    const flipped = bestWithout >= T && bestFull.score < T;
    if (!flipped) continue;
    if (c.supported) hurt++;
    else helped++;
    if (c.supported || process.argv.includes('--all')) {
      console.log(
        `${c.supported ? 'HURT ' : 'HELP '} ${bestWithout.toFixed(2)}->${bestFull.score.toFixed(2)} ${c.claim}\n      ${bestFull.explanation}`,
      );
    }
  }
  console.log(
    `${which}: flips supported->dropped on dev: hurt ${hurt} (gold supported), helped ${helped} (gold unsupported)`,
  );
}
(process.argv.includes('--ba') ? devBa() : main()).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

// Dev balanced accuracy of a configuration: `--ba` prints it at 0.60 and at dev's best threshold.
export async function devBa(): Promise<void> {
  const { bestThreshold, balancedAccuracy, confusion } = await import('./wice');
  const { createClaimChecker } = await import('../../src/core/verifier');
  const dev = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/dev.jsonl'));
  const issue21Off: Partial<LexicalFeatures> = { anchors: false, lexicon: false, distinctive: false, cohesion: false };
  const given = process.argv.find((a) => a.startsWith('--configs='));
  const configs: Array<[string, Partial<LexicalFeatures>]> = given
    ? (JSON.parse(given.slice(10)) as Array<[string, Partial<LexicalFeatures>]>)
    : [
        ['before issue 21', issue21Off],
        ['full − distinctive', { distinctive: false }],
        ['full − cohesion', { cohesion: false }],
        ['full − lexicon', { lexicon: false }],
        ['full − anchors', { anchors: false }],
        ['full', {}],
      ];
  for (const [name, features] of configs) {
    const check = createClaimChecker(
      dev.flatMap((c) => c.chunks),
      { features },
    );
    const scores: number[] = [];
    for (const c of dev) {
      let best = 0;
      for (const chunk of c.chunks) best = Math.max(best, (await check(c.claim, chunk)).score);
      scores.push(best);
    }
    const gold = dev.map((c) => c.supported);
    const b = bestThreshold(
      gold,
      scores,
      Array.from({ length: 101 }, (_, i) => i / 100),
    );
    const at = balancedAccuracy(
      confusion(
        gold,
        scores.map((s) => s >= 0.6),
      ),
    );
    const sweep = [0.5, 0.55, 0.6]
      .map(
        (t) =>
          `${t.toFixed(2)}: ${(
            balancedAccuracy(
              confusion(
                gold,
                scores.map((s) => s >= t),
              ),
            ) * 100
          ).toFixed(1)}`,
      )
      .join(', ');
    console.log(
      `${name}: dev BA at 0.60 ${(at * 100).toFixed(1)}; best ${b.threshold.toFixed(2)} → ${(b.balancedAccuracy * 100).toFixed(1)} (${sweep})`,
    );
  }
}
