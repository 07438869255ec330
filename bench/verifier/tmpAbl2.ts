import * as path from 'node:path';
import { createClaimChecker } from '../../src/core/verifier';
import { bestThreshold, balancedAccuracy, confusion, loadWice } from './wice';
const WICE = path.resolve(__dirname, '../../../shared/data/verifier/wice/oracle_chunks');
async function scores(claims: any[], f: any) {
  const check = createClaimChecker(claims.flatMap((c) => c.chunks), { features: f });
  const out: number[] = [];
  for (const c of claims) { let b = 0; for (const ch of c.chunks) b = Math.max(b, (await check(c.claim, ch)).score); out.push(b); }
  return out;
}
(async () => {
  const dev = await loadWice(path.join(WICE, 'dev.jsonl')); const test = await loadWice(path.join(WICE, 'test.jsonl'));
  const cands = Array.from({ length: 101 }, (_, t) => t / 100);
  for (const f of JSON.parse(process.argv[2])) {
    const d = await scores(dev, f); const t = process.argv[3] ? await scores(test, f) : [];
    const ch = bestThreshold(dev.map((c) => c.supported), d, cands);
    const dba = (th: number) => balancedAccuracy(confusion(dev.map((c) => c.supported), d.map((s) => s >= th))) * 100;
    const ba = (th: number) => balancedAccuracy(confusion(test.map((c) => c.supported), t.map((s) => s >= th))) * 100;
    console.log(JSON.stringify(f), 'dev thr', ch.threshold, 'devBA', (ch.balancedAccuracy * 100).toFixed(1), 'dev@0.6', dba(0.6).toFixed(1), process.argv[3] ? `testBA ${ba(ch.threshold).toFixed(1)} test@0.6 ${ba(0.6).toFixed(1)}` : '');
  }
})();
