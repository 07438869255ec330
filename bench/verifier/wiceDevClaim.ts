// Dev-only: one WiCE dev claim (found by a piece of its text) with the verdict of each of its
// chunks and, for each chunk, the passage text around given words. Reads ONLY the dev split.
//
//   npx tsx bench/verifier/wiceDevClaim.ts "piece of the claim" [--t=0.55] [--around=word,word]

import * as path from 'node:path';
import { createLexicalScorer, termStatsFromTexts } from '../../src/core/verifier';
import { claimVerdict } from '../../src/core/verifier/verifier';
import { loadWice } from './wice';

async function main(): Promise<void> {
  const needle = process.argv[2] ?? '';
  const t = Number(process.argv.find((a) => a.startsWith('--t='))?.slice(4) ?? 0.55);
  const around = (process.argv.find((a) => a.startsWith('--around='))?.slice(9) ?? '').split(',').filter(Boolean);
  const dev = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/dev.jsonl'));
  const scorer = createLexicalScorer({ termStats: termStatsFromTexts(dev.flatMap((c) => c.chunks)) });
  for (const c of dev.filter((x) => x.claim.includes(needle))) {
    console.log(`${c.supported ? 'SUPPORTED' : 'UNSUPPORTED'}: ${c.claim}`);
    for (const [i, chunk] of c.chunks.entries()) {
      const v = await claimVerdict(c.claim, chunk, { scorer, threshold: t });
      console.log(`  chunk ${i}: ${v.support.toFixed(2)} ${v.verdict} ${v.reason ?? ''}`);
      for (const w of around) {
        let at = chunk.toLowerCase().indexOf(w.toLowerCase());
        while (at >= 0) {
          console.log(`    …${chunk.slice(Math.max(0, at - 120), at + 120).replace(/\s+/g, ' ')}…`);
          at = chunk.toLowerCase().indexOf(w.toLowerCase(), at + w.length);
        }
      }
    }
  }
}

void main();
