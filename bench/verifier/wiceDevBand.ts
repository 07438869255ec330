// Dev-only: where WiCE dev claims' best-chunk scores sit, by label (a histogram in steps of 0.05), and
// the claims in a band with the reason of their best chunk: what a threshold between two values trades.
// Reads ONLY the dev split (never test).
//
//   npx tsx bench/verifier/wiceDevBand.ts [--from=0.50] [--to=0.55]

import * as path from 'node:path';
import type { SentenceVerdict } from '../../src/domain/types';
import { createLexicalScorer, termStatsFromTexts } from '../../src/core/verifier';
import { claimVerdict } from '../../src/core/verifier/verifier';
import { loadWice } from './wice';

async function main(): Promise<void> {
  const arg = (name: string): string | undefined =>
    process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const from = Number(arg('from') ?? 0.5);
  const to = Number(arg('to') ?? 0.55);
  const dev = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/dev.jsonl'));
  const scorer = createLexicalScorer({ termStats: termStatsFromTexts(dev.flatMap((c) => c.chunks)) });
  const steps = new Map<string, { supported: number; unsupported: number }>();
  for (const c of dev) {
    let best: SentenceVerdict | undefined;
    for (const chunk of c.chunks) {
      const v = await claimVerdict(c.claim, chunk, { scorer, threshold: to });
      if (!best || v.support > best.support) best = v;
    }
    const support = best?.support ?? 0;
    const step = (Math.floor(support * 20) / 20).toFixed(2);
    const row = steps.get(step) ?? { supported: 0, unsupported: 0 };
    c.supported ? row.supported++ : row.unsupported++;
    steps.set(step, row);
    if (support >= from && support < to) {
      console.log(
        `${c.supported ? 'supported  ' : 'unsupported'} ${support.toFixed(3)} ${c.claim}\n      ${best?.reason}`,
      );
    }
  }
  for (const [step, row] of [...steps].sort((a, b) => Number(a[0]) - Number(b[0]))) {
    console.log(`${step}: supported ${row.supported}, unsupported ${row.unsupported}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
