// `npm run eval:verifier`: the verifier's third check on WiCE oracle chunks, by the protocol of
// ../shared/data/README.md. Scores come from the product's own claim check (the code path of
// `evident verify`); the threshold is chosen on dev only and then applied to test. Also prints
// how balanced accuracy moves with the threshold, and an ablation of the lexical ideas.
//
//   npx tsx bench/verifier/evalVerifier.ts [--data DIR] [--json]

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createClaimChecker, DEFAULT_LEXICAL_FEATURES, type LexicalFeatures } from '../../src/core/verifier';
import {
  balancedAccuracy,
  bestThreshold,
  confusion,
  loadWice,
  unsupportedPrecisionRecall,
  type WiceClaim,
} from './wice';

interface SplitScores {
  gold: boolean[];
  /** Max over a claim's chunks of the support score. */
  scores: number[];
  checks: number;
  msTotal: number;
}

/** Scores every chunk of every claim with the same checker `evident verify` builds. */
async function scoreSplit(
  claims: WiceClaim[],
  features?: Partial<LexicalFeatures>,
  threshold?: number,
): Promise<SplitScores & { supported: boolean[] }> {
  const check = createClaimChecker(
    claims.flatMap((c) => c.chunks),
    { features, threshold },
  );
  const scores: number[] = [];
  const supported: boolean[] = [];
  let checks = 0;
  const t0 = performance.now();
  for (const c of claims) {
    let best = 0;
    let any = false;
    for (const chunk of c.chunks) {
      const v = await check(c.claim, chunk);
      best = Math.max(best, v.score);
      any ||= v.supported;
      checks++;
    }
    scores.push(best);
    supported.push(any);
  }
  return { gold: claims.map((c) => c.supported), scores, supported, checks, msTotal: performance.now() - t0 };
}

const CANDIDATES = Array.from({ length: 101 }, (_, i) => i / 100);
const pct = (x: number): string => (x * 100).toFixed(1);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { data: { type: 'string' }, json: { type: 'boolean' } } });
  const dir = path.resolve(values.data ?? path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks'));
  const dev = await loadWice(path.join(dir, 'dev.jsonl'));
  const test = await loadWice(path.join(dir, 'test.jsonl'));

  // 1. Threshold chosen on dev.
  const devRun = await scoreSplit(dev);
  const chosen = bestThreshold(devRun.gold, devRun.scores, CANDIDATES);
  // 2. Test judged by the product's own verdicts at that threshold (warm-up pass first, so the timing is steady).
  await scoreSplit(test.slice(0, 20), undefined, chosen.threshold);
  const testRun = await scoreSplit(test, undefined, chosen.threshold);
  const c = confusion(testRun.gold, testRun.supported);
  const pr = unsupportedPrecisionRecall(c);
  const usPerCheck = (testRun.msTotal * 1000) / testRun.checks;
  const devPerCheck = (devRun.msTotal * 1000) / devRun.checks;

  const lines: string[] = [];
  lines.push(
    `WiCE oracle chunks (oracle retrieval setting): dev ${dev.length} claims / ${devRun.checks} checks, test ${test.length} claims / ${testRun.checks} checks`,
  );
  lines.push(
    `lexical tier, threshold chosen on dev: ${chosen.threshold.toFixed(2)} (dev balanced accuracy ${pct(chosen.balancedAccuracy)})`,
  );
  lines.push(
    `test: balanced accuracy ${pct(balancedAccuracy(c))}  unsupported precision ${pct(pr.precision)}  recall ${pct(pr.recall)}  (tp ${c.tp} fn ${c.fn} tn ${c.tn} fp ${c.fp})`,
  );
  lines.push(
    `time per sentence-passage check: ${usPerCheck.toFixed(1)} µs on test (${devPerCheck.toFixed(1)} µs on dev, first pass)`,
  );

  // 3. How balanced accuracy moves with the threshold (dev chooses; test shown for reading only).
  lines.push('', 'threshold | dev BA | test BA | test: unsupported recall | test: supported kept');
  for (let t = 0.3; t <= 0.851; t += 0.05) {
    const d = balancedAccuracy(
      confusion(
        devRun.gold,
        devRun.scores.map((s) => s >= t),
      ),
    );
    const tc = confusion(
      testRun.gold,
      testRun.scores.map((s) => s >= t),
    );
    lines.push(
      `${t.toFixed(2).padStart(9)} | ${pct(d).padStart(6)} | ${pct(balancedAccuracy(tc)).padStart(7)} | ${pct(tc.tn / (tc.tn + tc.fp)).padStart(24)} | ${pct(tc.tp / (tc.tp + tc.fn)).padStart(20)}`,
    );
  }

  // 4. Ablation: each idea alone over plain content-word recall, and the full tier without it.
  const off: LexicalFeatures = {
    ...DEFAULT_LEXICAL_FEATURES,
    idf: false,
    stemming: false,
    values: false,
    negation: false,
    window: 0,
    clauses: false,
    names: false,
    anchors: false,
    lexicon: false,
    distinctive: false,
    cohesion: false,
  };
  const variants: Array<[string, Partial<LexicalFeatures>]> = [
    ['plain content-word recall', off],
    ['+ idf weights', { ...off, idf: true }],
    ['+ stems', { ...off, stemming: true }],
    ['+ exact values', { ...off, values: true }],
    ['+ negation', { ...off, negation: true }],
    [
      `+ best window (${DEFAULT_LEXICAL_FEATURES.window} sentences)`,
      { ...off, window: DEFAULT_LEXICAL_FEATURES.window },
    ],
    ['full lexical tier', {}],
    ['full - idf', { idf: false }],
    ['full - stems', { stemming: false }],
    ['full - exact values', { values: false }],
    ['full - negation', { negation: false }],
    ['full - window (whole passage)', { window: 0 }],
    ['full - clauses', { clauses: false }],
    ['full - names', { names: false }],
    ['full - clauses - names (before issue 9)', { clauses: false, names: false }],
    ['full - anchors (weekdays, months, bounds, quantifiers)', { anchors: false }],
    ['full - lexicon', { lexicon: false }],
    ['full - distinctive words', { distinctive: false }],
    ['full - one place (cohesion)', { cohesion: false }],
    ['before issue 21', { anchors: false, lexicon: false, distinctive: false, cohesion: false }],
  ];
  lines.push('', 'variant | threshold (dev) | dev BA | test BA');
  const ablation: Array<{ variant: string; threshold: number; dev: number; test: number }> = [];
  for (const [name, features] of variants) {
    const d = await scoreSplit(dev, features);
    const best = bestThreshold(d.gold, d.scores, CANDIDATES);
    const t = await scoreSplit(test, features);
    const testBa = balancedAccuracy(
      confusion(
        t.gold,
        t.scores.map((s) => s >= best.threshold),
      ),
    );
    ablation.push({ variant: name, threshold: best.threshold, dev: best.balancedAccuracy, test: testBa });
    lines.push(`${name} | ${best.threshold.toFixed(2)} | ${pct(best.balancedAccuracy)} | ${pct(testBa)}`);
  }

  if (values.json) {
    console.log(
      JSON.stringify({
        threshold: chosen.threshold,
        devBalancedAccuracy: chosen.balancedAccuracy,
        testBalancedAccuracy: balancedAccuracy(c),
        unsupportedPrecision: pr.precision,
        unsupportedRecall: pr.recall,
        usPerCheck,
        ablation,
      }),
    );
  } else {
    console.log(lines.join('\n'));
  }
}

main().catch((error: unknown) => {
  console.error(`eval:verifier: ${(error as Error).message}`);
  process.exit(1);
});
