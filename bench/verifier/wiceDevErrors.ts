// Dev-only diagnosis of the claim check's errors on WiCE: every dev claim the check gets wrong at a
// threshold (supported claims sunk, unsupported claims kept), with the reason of its best chunk and
// the lexical ideas whose removal alone would flip it. Reads ONLY the dev split (never test).
//
//   npx tsx bench/verifier/wiceDevErrors.ts [--t=0.55] [--kind=sunk|kept|both] [--by-code]

import * as path from 'node:path';
import type { SentenceVerdict } from '../../src/domain/types';
import { createLexicalScorer, termStatsFromTexts, type LexicalFeatures } from '../../src/core/verifier';
import { claimVerdict } from '../../src/core/verifier/verifier';
import { balancedAccuracy, confusion, loadWice, type WiceClaim } from './wice';

const FEATURES: Array<keyof LexicalFeatures> = [
  'values',
  'negation',
  'clauses',
  'names',
  'anchors',
  'lexicon',
  'distinctive',
  'stemming',
];

async function bestVerdicts(
  dev: WiceClaim[],
  features: Partial<LexicalFeatures>,
  threshold: number,
): Promise<SentenceVerdict[]> {
  const scorer = createLexicalScorer({ termStats: termStatsFromTexts(dev.flatMap((c) => c.chunks)), features });
  const out: SentenceVerdict[] = [];
  for (const c of dev) {
    let best: SentenceVerdict | undefined;
    for (const chunk of c.chunks) {
      const v = await claimVerdict(c.claim, chunk, { scorer, threshold });
      if (!best || v.support > best.support) best = v;
    }
    out.push(best as SentenceVerdict);
  }
  return out;
}

async function main(): Promise<void> {
  const arg = (name: string): string | undefined =>
    process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const T = Number(arg('t') ?? 0.55);
  const kind = arg('kind') ?? 'both';
  const dev = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/dev.jsonl'));
  const full = await bestVerdicts(dev, {}, T);
  const gold = dev.map((c) => c.supported);
  const ba = (v: SentenceVerdict[], t: number): string =>
    (
      balancedAccuracy(
        confusion(
          gold,
          v.map((x) => x.support >= t),
        ),
      ) * 100
    ).toFixed(1);
  const off = new Map<string, SentenceVerdict[]>();
  for (const f of FEATURES) off.set(f, await bestVerdicts(dev, { [f]: false }, T));
  const flipsOf = arg('flips') as keyof LexicalFeatures | undefined;
  if (flipsOf) {
    const other = off.get(flipsOf) ?? (await bestVerdicts(dev, { [flipsOf]: false }, T));
    let right = 0;
    let wrong = 0;
    dev.forEach((c, i) => {
      const a = full[i].support >= T;
      const b = other[i].support >= T;
      if (a === b) return;
      const good = a === c.supported;
      good ? right++ : wrong++;
      console.log(
        `${good ? 'RIGHT' : 'WRONG'} ${c.supported ? 'sup' : 'uns'} ${other[i].support.toFixed(2)}->${full[i].support.toFixed(2)} ${c.claim}\n      ${full[i].reason}`,
      );
    });
    console.log(`${flipsOf}: ${right} claims right because of it, ${wrong} wrong`);
    return;
  }
  const byCode = new Map<string, { sunk: number; kept: number }>();
  dev.forEach((c, i) => {
    const v = full[i];
    const predicted = v.support >= T;
    if (predicted === c.supported) return;
    const code =
      v.reason.replace(/:.*$/, '') +
      (/clause '/.test(v.reason) ? ' (clause)' : '') +
      (/never names/.test(v.reason) ? ' (name)' : '');
    const row = byCode.get(code) ?? { sunk: 0, kept: 0 };
    c.supported ? row.sunk++ : row.kept++;
    byCode.set(code, row);
    if ((c.supported && kind === 'kept') || (!c.supported && kind === 'sunk')) return;
    const flips = FEATURES.filter((f) => (off.get(f) as SentenceVerdict[])[i].support >= T === c.supported);
    console.log(
      `${c.supported ? 'SUNK' : 'KEPT'} ${v.support.toFixed(2)} [${flips.join(',')}] ${c.claim}\n     ${v.reason}`,
    );
  });
  console.log(`\ndev BA at ${T}: ${ba(full, T)}; at 0.50 ${ba(full, 0.5)}, 0.60 ${ba(full, 0.6)}`);
  for (const f of FEATURES) console.log(`  − ${f}: ${ba(off.get(f) as SentenceVerdict[], T)}`);
  for (const [code, row] of [...byCode].sort((a, b) => b[1].sunk + b[1].kept - a[1].sunk - a[1].kept)) {
    console.log(`  ${code}: supported sunk ${row.sunk}, unsupported kept ${row.kept}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
