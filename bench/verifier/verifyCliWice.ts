// The figure the core issue asks for, measured through the shipped command itself: WiCE oracle
// chunks written as `evident verify` pairs, `node dist/cli.js verify --pairs` run as a separate
// process per split, each claim scored by the maximum over its chunks, the threshold chosen on
// dev and applied to test (protocol: ../shared/data/README.md). Run `npm run build` first.
// Usage: npm run eval:verify-cli

import { DEFAULT_THRESHOLD } from '../../src/domain/threshold';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { balancedAccuracy, bestThreshold, confusion, loadWice, type WiceClaim } from './wice';

const WICE = path.resolve(__dirname, '../../../shared/data/verifier/wice/oracle_chunks');
const CLI = path.resolve(__dirname, '../../dist/cli.js');

function scoresByCli(claims: WiceClaim[], dir: string, split: string): Map<string, number> {
  const file = path.join(dir, `${split}.pairs.jsonl`);
  const lines = claims.flatMap((c) =>
    c.chunks.map((evidence, i) => JSON.stringify({ id: `${c.id}#${i}`, claim: c.claim, evidence })),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const out = execFileSync(process.execPath, [CLI, 'verify', '--pairs', file], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const best = new Map<string, number>();
  for (const line of out.trim().split('\n')) {
    const { id, score } = JSON.parse(line) as { id: string; score: number };
    const claim = id.slice(0, id.lastIndexOf('#'));
    best.set(claim, Math.max(best.get(claim) ?? 0, score));
  }
  return best;
}

/** Balanced accuracy (%) of thresholding each claim's best chunk score. */
function percentAt(claims: WiceClaim[], scores: Map<string, number>, threshold: number): number {
  const gold = claims.map((c) => c.supported);
  return (
    balancedAccuracy(
      confusion(
        gold,
        claims.map((c) => (scores.get(c.id) ?? 0) >= threshold),
      ),
    ) * 100
  );
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'evident-wice-'));
  try {
    const dev = await loadWice(path.join(WICE, 'dev.jsonl'));
    const test = await loadWice(path.join(WICE, 'test.jsonl'));
    const devScores = scoresByCli(dev, dir, 'dev');
    const testScores = scoresByCli(test, dir, 'test');
    const candidates = Array.from({ length: 101 }, (_, t) => t / 100);
    const chosen = bestThreshold(
      dev.map((c) => c.supported),
      dev.map((c) => devScores.get(c.id) ?? 0),
      candidates,
    );
    const best = { threshold: chosen.threshold, ba: chosen.balancedAccuracy * 100 };
    console.log(`evident verify on WiCE oracle chunks (${dev.length} dev claims, ${test.length} test claims)`);
    console.log(`threshold chosen on dev: ${best.threshold.toFixed(2)} (dev balanced accuracy ${best.ba.toFixed(1)})`);
    console.log(`test balanced accuracy at that threshold: ${percentAt(test, testScores, best.threshold).toFixed(1)}`);
    console.log(
      `test balanced accuracy at the shipped default ${DEFAULT_THRESHOLD.toFixed(2)}: ${percentAt(test, testScores, DEFAULT_THRESHOLD).toFixed(1)} (at 0.60: ${percentAt(test, testScores, 0.6).toFixed(1)})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
