// `npm run bench:verifier-compare -- [--rounds N] label=DIR [label=DIR…]`: the lexical support
// check of several builds (each DIR a checkout with src/, e.g. `git worktree add /tmp/main main`)
// timed in one run, interleaved (each round runs every build, the order reversed every other
// round), on the WiCE test pairs of `npm run bench:verifier`, with the same rows. Prints p50 and
// p90 per build and row, and how many verdicts (score, code, explanation) differ from the first
// build's: a speed change must show 0. A build with prepared passages (passageCache.ts) also gets
// the rows of a check against a prepared passage and of a passage prepared; every build gets the
// whole model-shaped answers of eval/answers/ dev as a turn checks them (a build without prepared
// passages: a new scorer per answer, its passages read at their first check; with them: the cited
// passages prepared, then the answer checked), whose ratio is the one a turn sees.

import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { loadWice } from './wice';
import { type AnswerCheck, evidenceTexts, loadAnswerChecks } from './answerChecks';

interface Scorer {
  score(sentence: string, passage: string): { score: number; code: string; explanation?: string };
}
interface Cache {
  ready(text: string): unknown;
}
interface Build {
  label: string;
  create: (options: object) => Scorer;
  termStats: unknown;
  answerStats: unknown;
  verifyAnswer: (text: string, evidence: AnswerCheck['evidence'], options: object) => Promise<unknown>;
  /** The build's cache of prepared passages, when it has one. */
  cache?: new (limit?: number, chars?: number) => Cache;
}

const ROWS = [
  'passage seen for the first time',
  'sentence and passage both first seen',
  'passage analysed before, new sentence',
  'same sentence and passage again',
  'sentence checked against a prepared passage',
  'passage prepared (once per passage)',
  'whole answer (dev): preparation + checks',
];

const quantile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const micro = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { rounds: { type: 'string', default: '3' } },
    allowPositionals: true,
  });
  const rounds = Number(values.rounds);
  if (positionals.length === 0 || !(rounds > 0)) {
    throw new Error('usage: compareBuilds.ts [--rounds N] label=DIR [label=DIR…]');
  }
  const claims = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/test.jsonl'));
  const pairs = claims.flatMap((c) => c.chunks.map((chunk) => ({ claim: c.claim, chunk })));
  const answers = await loadAnswerChecks('dev');
  const chunks = [...new Set(pairs.map((p) => p.chunk))];
  const builds: Build[] = [];
  for (const spec of positionals) {
    const [label, dir] = spec.split('=');
    if (!label || !dir) throw new Error(`expected label=DIR, got '${spec}'`);
    const lexical = (await import(path.resolve(dir, 'src/core/verifier/lexicalScorer.ts'))) as {
      createLexicalScorer: Build['create'];
    };
    const stats = (await import(
      path.resolve(
        dir,
        existsSync(path.resolve(dir, 'src/core/text/termStats.ts'))
          ? 'src/core/text/termStats.ts'
          : 'src/core/verifier/termStats.ts',
      )
    )) as {
      termStatsFromTexts: (texts: string[]) => unknown;
    };
    const verifier = (await import(path.resolve(dir, 'src/core/verifier/verifier.ts'))) as {
      verifyAnswer: Build['verifyAnswer'];
    };
    const cacheFile = path.resolve(dir, 'src/core/verifier/passageCache.ts');
    const cache = existsSync(cacheFile)
      ? ((await import(cacheFile)) as { PassageCache: NonNullable<Build['cache']> }).PassageCache
      : undefined;
    builds.push({
      label,
      create: lexical.createLexicalScorer,
      termStats: stats.termStatsFromTexts(pairs.map((p) => p.chunk)),
      answerStats: stats.termStatsFromTexts(evidenceTexts(answers)),
      verifyAnswer: verifier.verifyAnswer,
      cache,
    });
  }
  const samples = new Map<string, number[]>();
  const add = (b: Build, row: number, ms: number): void => {
    const key = `${b.label}|${row}`;
    if (!samples.has(key)) samples.set(key, []);
    samples.get(key)?.push(ms);
  };
  const verdicts = new Map<string, string[]>();
  // A pass of each first: the JIT and the stem cache warm.
  for (const b of builds) {
    for (const a of answers) await timeAnswer(b, a);
    const scorer = b.create({ termStats: b.termStats });
    verdicts.set(
      b.label,
      pairs.map((p) => {
        const r = scorer.score(p.claim, p.chunk);
        return `${r.score} ${r.code} ${r.explanation ?? ''}`;
      }),
    );
  }
  for (let round = 0; round < rounds; round++) {
    for (const b of round % 2 ? [...builds].reverse() : builds) {
      const scorer = b.create({ termStats: b.termStats });
      for (const p of pairs) {
        const t = performance.now();
        scorer.score(p.claim, p.chunk);
        add(b, 0, performance.now() - t);
      }
      for (const p of pairs) {
        const t = performance.now();
        b.create({ termStats: b.termStats }).score(p.claim, p.chunk);
        add(b, 1, performance.now() - t);
      }
      for (let i = 0; i < 200; i++) {
        const p = pairs[i];
        const s = b.create({ termStats: b.termStats });
        s.score(pairs[(i + 7) % pairs.length].claim, p.chunk);
        let t = performance.now();
        s.score(p.claim, p.chunk);
        add(b, 2, performance.now() - t);
        t = performance.now();
        s.score(p.claim, p.chunk);
        add(b, 3, performance.now() - t);
      }
      if (b.cache) {
        const cache = new b.cache(chunks.length, Infinity);
        for (const chunk of chunks) {
          const t = performance.now();
          cache.ready(chunk);
          add(b, 5, performance.now() - t);
        }
        const scorer = b.create({ termStats: b.termStats, passages: cache });
        for (const p of pairs) {
          const t = performance.now();
          scorer.score(p.claim, p.chunk);
          add(b, 4, performance.now() - t);
        }
      }
      for (const a of answers) add(b, 6, await timeAnswer(b, a));
    }
  }
  console.log(`WiCE test pairs: ${pairs.length}, ${rounds} rounds interleaved`);
  ROWS.forEach((row, r) => {
    for (const b of builds) {
      const sorted = [...(samples.get(`${b.label}|${r}`) ?? [])].sort((x, y) => x - y);
      if (sorted.length === 0) {
        console.log(`lexical, ${row.padEnd(44)} ${b.label.padEnd(10)} —`);
        continue;
      }
      console.log(
        `lexical, ${row.padEnd(44)} ${b.label.padEnd(10)} p50 ${micro(quantile(sorted, 0.5)).padStart(9)}  p90 ${micro(quantile(sorted, 0.9)).padStart(9)}  (n=${sorted.length})`,
      );
    }
  });
  const first = verdicts.get(builds[0].label) ?? [];
  for (const b of builds.slice(1)) {
    const differ = (verdicts.get(b.label) ?? []).filter((v, i) => v !== first[i]).length;
    console.log(`verdicts of ${b.label} that differ from ${builds[0].label}'s: ${differ} of ${first.length}`);
  }
}

/** One answer as a turn of the build checks it: the cited passages prepared when the build prepares them, then verified. */
async function timeAnswer(b: Build, a: AnswerCheck): Promise<number> {
  const t = performance.now();
  const cache = b.cache ? new b.cache() : undefined;
  const scorer = b.create({ termStats: b.answerStats, ...(cache ? { passages: cache } : {}) });
  if (cache) for (const e of a.cited) cache.ready(e.text);
  await b.verifyAnswer(a.answer, a.evidence, { scorer });
  return performance.now() - t;
}

main().catch((error: unknown) => {
  console.error(`bench:verifier-compare: ${(error as Error).message}`);
  process.exit(1);
});
