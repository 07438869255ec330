import * as path from 'node:path';
import { createClaimChecker, createLexicalScorer, termStatsFromTexts } from '../../src/core/verifier';
import { loadWice } from './wice';
const WICE = path.resolve(__dirname, '../../../shared/data/verifier/wice/oracle_chunks');
const feat = JSON.parse(process.argv[2]);
(async () => {
  const dev = await loadWice(path.join(WICE, 'dev.jsonl'));
  const base = createClaimChecker(dev.flatMap((c) => c.chunks), { features: { clauses: false, names: false } });
  const mine = createClaimChecker(dev.flatMap((c) => c.chunks), { features: feat });
  const sc = createLexicalScorer({ termStats: termStatsFromTexts(dev.flatMap((c) => c.chunks)), features: feat });
  let gain = 0, loss = 0;
  for (const c of dev) {
    let b = 0, m = 0, bestChunk = '';
    for (const ch of c.chunks) { b = Math.max(b, (await base(c.claim, ch)).score); const s = (await mine(c.claim, ch)).score; if (s >= m) { m = s; bestChunk = ch; } }
    if ((b >= 0.6) !== (m >= 0.6)) {
      const good = (m >= 0.6) !== c.supported ? 'LOSS' : 'GAIN';
      if (good === 'LOSS') loss++; else gain++;
      if (process.argv[3] === good) {
      let best = { score: -1, explanation: '' } as any;
      for (const ch of c.chunks) { const r = await sc.score(c.claim, ch); if (r.score > best.score) best = r; }
      console.log(good, c.supported, b.toFixed(2), m.toFixed(2), c.claim.slice(0, 200), '\n   ->', best.explanation);
      }
    }
  }
  console.log('gain', gain, 'loss', loss);
})();
