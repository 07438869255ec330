// `npm run bench:verifier-same -- before=DIR mine=DIR`: every result (score, code,
// explanation, missing words) of the lexical scorer of two checkouts on the same checks, for a
// change that must not move a verdict (a speed change). The checks: WiCE dev and test pairs,
// mismatched pairs (a claim against the next claim's chunk), perturbed claims (a word dropped,
// words capitalised, a negation, a number, a weekday and a month, an acronym, accents, a
// contraction), and the sentences of the chunks against their own chunk and the next one;
// with a fresh scorer per check and one shared scorer, under several feature sets. Prints how
// many results differ (0 is the pass) and the first few that do.

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { loadWice } from './wice';

interface Scorer {
  score(sentence: string, passage: string): unknown;
}
type Create = (options: object) => Scorer;

const FEATURE_SETS: object[] = [
  {},
  { stemming: false, cohesion: true },
  { lexicon: false, window: 0 },
  { idf: false, distinctive: false, clauses: false },
];

/** Variants of a claim that reach the value, name, date, negation and acronym paths. */
function perturbed(claim: string, i: number): string[] {
  const words = claim.split(' ');
  const drop = words.filter((_, k) => k !== i % Math.max(1, words.length)).join(' ');
  const capital = words.map((w, k) => (k % 3 === 1 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(' ');
  return [
    drop,
    capital,
    claim.replace(/\b(is|was|are|were|has|had|can|will)\b/, '$1 not'),
    claim.replace(/\d+/, (d) => String(Number(d) + 1)),
    `${claim.replace(/\.$/, '')} on Friday in March 2019.`,
    `By Sept. or Tues. on SUNDAYS, as mays go, from May 3 to ſunday: ${claim}`,
    `The U.S. NFL and the National Football League said so in May 5 of three years, ${i}%.`,
    claim.replace(/e/g, 'é').replace(/a/, 'á'),
    claim.replace(/\bnot\b/, "n't").replace(/\bdoes\b/, "doesn't"),
    `${claim} and also the ${words[words.length - 1] ?? 'end'} at least 5 of them`,
  ];
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2).map((spec) => {
    const [label, dir] = spec.split('=');
    if (!label || !dir) throw new Error(`expected label=DIR, got '${spec}'`);
    return { label, dir };
  });
  if (dirs.length !== 2) throw new Error('usage: sameVerdicts.ts before=DIR mine=DIR');
  const data = path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks');
  const claims = [
    ...(await loadWice(path.join(data, 'dev.jsonl'))),
    ...(await loadWice(path.join(data, 'test.jsonl'))),
  ];
  const checks: { sentence: string; passage: string }[] = [];
  claims.forEach((c, i) => {
    const next = claims[(i + 1) % claims.length].chunks[0];
    for (const chunk of c.chunks) {
      checks.push({ sentence: c.claim, passage: chunk });
      for (const p of perturbed(c.claim, i)) checks.push({ sentence: p, passage: chunk });
      const sentences = chunk.split(/(?<=[.!?])\s+/).filter((s) => s.length > 20);
      for (const s of sentences.slice(0, 4)) {
        checks.push({ sentence: s, passage: chunk });
        checks.push({ sentence: s, passage: next });
      }
    }
    checks.push({ sentence: c.claim, passage: next });
  });

  const builds = await Promise.all(
    dirs.map(async ({ label, dir }) => {
      const lexical = (await import(path.resolve(dir, 'src/core/verifier/lexicalScorer.ts'))) as {
        createLexicalScorer: Create;
      };
      const statsFile = existsSync(path.resolve(dir, 'src/core/text/termStats.ts'))
        ? 'src/core/text/termStats.ts'
        : 'src/core/verifier/termStats.ts';
      const stats = (await import(path.resolve(dir, statsFile))) as { termStatsFromTexts: (t: string[]) => unknown };
      return { label, create: lexical.createLexicalScorer, stats: stats.termStatsFromTexts };
    }),
  );
  const passages = claims.flatMap((c) => c.chunks);
  let compared = 0;
  let differ = 0;
  const shown: string[] = [];
  for (const features of FEATURE_SETS) {
    const results = builds.map((b) => {
      const termStats = b.stats(passages);
      const shared = b.create({ termStats, features });
      return checks.map((c, k) => {
        const scorer = k % 2 ? shared : b.create({ termStats, features });
        return JSON.stringify(scorer.score(c.sentence, c.passage));
      });
    });
    results[0].forEach((r, k) => {
      compared++;
      if (r === results[1][k]) return;
      differ++;
      if (shown.length < 5) {
        shown.push(`${JSON.stringify(features)} ${JSON.stringify(checks[k])}\n  ${r}\n  ${results[1][k]}`);
      }
    });
  }
  for (const s of shown) console.log(s);
  console.log(`results of ${builds[1].label} that differ from ${builds[0].label}'s: ${differ} of ${compared}`);
  if (differ > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`sameVerdicts: ${(error as Error).message}`);
  process.exit(1);
});
