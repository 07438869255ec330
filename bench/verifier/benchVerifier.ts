// `npm run bench:verifier`: what each tier of the support check costs per sentence–passage check,
// timed on the code as it ships (bundled by esbuild with the product's options,
// tools/bench/runBundled.mjs). Lexical on real WiCE pairs: first sight of a passage (the scorer
// keeps the sentence, as when one sentence cites several passages; WiCE claims have about three chunks each), first
// sight of both (a new scorer per check), and a passage already analysed for another sentence
// or for the same one, as when one answer cites it several times. Then the product's unit of
// work: a passage prepared once when it enters a turn's evidence (its time, and the memory it
// keeps), a sentence checked against a prepared passage (the same loop as the first-seen row with
// every passage prepared beforehand, untimed: what a turn pays per check), and whole model-shaped
// answers of eval/answers/ dev (n sentences over their k cited passages: preparing those
// passages and checking the answer, as `verifyAnswer` does in a turn); entailment on the tiny generated classifier (the
// transformers.js + ONNX path only: a real NLI model costs more); judge through the real
// Gemini SDK against the local fake server (client and HTTP overhead only: a real model adds
// its own latency, typically hundreds of milliseconds or more).

import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  createEntailmentScorer,
  createJudgeScorer,
  createLexicalScorer,
  termStatsFromTexts,
  verifyAnswer,
} from '../../src/core/verifier';
import { approximateBytes, PassageCache, readyPassage, type ReadyPassage } from '../../src/core/verifier/passageCache';
import { type AnswerCheck, evidenceTexts, loadAnswerChecks } from './answerChecks';
import { createGeminiModel } from '../../src/core/models/geminiModel';
import { FakeGeminiServer, textReply } from '../../test/support/fakeGemini';
import { defaultModelCacheDir, makeTinyClassifierModel } from '../../test/support/tinyModels';
import type { SupportResult, SupportScorer } from '../../src/core/types';
import { loadWice } from './wice';

const q = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const fmt = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
  return `mean ${fmt(mean)}  p50 ${fmt(q(0.5))}  p95 ${fmt(q(0.95))}  (n=${samples.length})`;
}

/** One lexical check, timed as it runs: the lexical tier answers at once (a promise would be a wider tier's). */
function checkNow(scorer: SupportScorer, claim: string, chunk: string): SupportResult {
  const result = scorer.score(claim, chunk);
  if (result instanceof Promise) {
    throw new Error("The lexical scorer returned a promise: its time would not be the check's.");
  }
  return result;
}

async function main(): Promise<void> {
  const claims = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/test.jsonl'));
  const pairs = claims.flatMap((c) => c.chunks.map((chunk) => ({ claim: c.claim, chunk })));
  const chars = pairs.reduce((a, p) => a + p.chunk.length, 0) / pairs.length;
  console.log(`WiCE test pairs: ${pairs.length}, mean passage ${chars.toFixed(0)} characters`);

  // Lexical, first sight of each passage (two passes: the first warms the JIT and stem cache).
  const termStats = termStatsFromTexts(pairs.map((p) => p.chunk));
  const row = (label: string, samples: number[]): void => console.log(`${label.padEnd(52)} ${stats(samples)}`);
  for (const label of ['lexical, first pass (cold stem cache)', 'lexical, passage seen for the first time']) {
    const scorer = createLexicalScorer({ termStats });
    const samples: number[] = [];
    for (const p of pairs) {
      const t = performance.now();
      checkNow(scorer, p.claim, p.chunk);
      samples.push(performance.now() - t);
    }
    row(label, samples);
  }
  // Nothing kept: a new scorer for every check, so sentence and passage are both first seen.
  const fresh: number[] = [];
  for (const p of pairs) {
    const t = performance.now();
    checkNow(createLexicalScorer({ termStats }), p.claim, p.chunk);
    fresh.push(performance.now() - t);
  }
  row('lexical, sentence and passage both first seen', fresh);
  // The passage analysed before for another sentence (the next claim's), then this sentence.
  const other: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < 200; i++) {
    const p = pairs[i];
    const scorer = createLexicalScorer({ termStats });
    checkNow(scorer, pairs[(i + 7) % pairs.length].claim, p.chunk);
    let t = performance.now();
    checkNow(scorer, p.claim, p.chunk);
    other.push(performance.now() - t);
    t = performance.now();
    checkNow(scorer, p.claim, p.chunk);
    again.push(performance.now() - t);
  }
  row('lexical, passage analysed before, new sentence', other);
  row('lexical, same sentence and passage again', again);
  await preparedRows(pairs, termStats, row);

  // Entailment: the tiny generated classifier through transformers.js.
  const folder = await makeTinyClassifierModel(defaultModelCacheDir());
  const entailment = createEntailmentScorer({ model: 'tiny', localModelPath: folder });
  let t = performance.now();
  await entailment.score(pairs[0].claim, pairs[0].chunk);
  console.log(`${'entailment (tiny model), load + first check'.padEnd(52)} ${(performance.now() - t).toFixed(0)} ms`);
  const nli: number[] = [];
  for (const p of pairs.slice(0, 100)) {
    t = performance.now();
    await entailment.score(p.claim, p.chunk);
    nli.push(performance.now() - t);
  }
  console.log(`${'entailment (tiny model), per check'.padEnd(52)} ${stats(nli)}`);

  // Judge: real SDK, fake server.
  const server = await FakeGeminiServer.start();
  try {
    server.respondWith(() => textReply('NO'));
    const judge = createJudgeScorer(
      createGeminiModel({ apiKey: 'bench', baseUrl: server.baseUrl, stream: false, attempts: 1 }),
    );
    await judge.score(pairs[0].claim, pairs[0].chunk);
    const asked: number[] = [];
    for (const p of pairs.slice(0, 100)) {
      t = performance.now();
      await judge.score(p.claim, p.chunk);
      asked.push(performance.now() - t);
    }
    console.log(`${'judge (SDK + local fake server), per check'.padEnd(52)} ${stats(asked)}`);
  } finally {
    await server.close();
  }
}

/** The rows of the prepared passage: its preparation, its memory, a check against it, whole answers. */
async function preparedRows(
  pairs: { claim: string; chunk: string }[],
  termStats: ReturnType<typeof termStatsFromTexts>,
  row: (label: string, samples: number[]) => void,
): Promise<void> {
  const chunks = [...new Set(pairs.map((p) => p.chunk))];
  // (b) Preparing: each passage once, fresh (the stem cache is warm from the rows above).
  const prepared: number[] = [];
  for (const chunk of chunks) {
    const t = performance.now();
    readyPassage(chunk);
    prepared.push(performance.now() - t);
  }
  row('lexical, passage prepared (once per passage)', prepared);

  // (a) Checks against prepared passages: the first-seen loop, every passage prepared beforehand.
  const cache = new PassageCache(chunks.length, Infinity);
  const kept: ReadyPassage[] = chunks.map((c) => cache.ready(c));
  const checks: number[] = [];
  for (let round = 0; round < 2; round++) {
    const scorer = createLexicalScorer({ termStats, passages: cache });
    for (const p of pairs) {
      const t = performance.now();
      checkNow(scorer, p.claim, p.chunk);
      if (round === 1) checks.push(performance.now() - t);
    }
  }
  row('lexical, sentence checked against a prepared passage', checks);

  // Memory: the heap a prepared passage keeps, measured (garbage collected before and after) and estimated.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const held = chunks.map((c) => readyPassage(c));
  gc();
  const heap = (process.memoryUsage().heapUsed - before) / held.length;
  const estimate = held.reduce((a, p) => a + approximateBytes(p), 0) / held.length;
  const text = chunks.reduce((a, c) => a + c.length, 0) / chunks.length;
  console.log(
    `${'lexical, memory per prepared passage'.padEnd(52)} heap ${(heap / 1024).toFixed(1)} KB measured, ${(estimate / 1024).toFixed(1)} KB estimated (passage ${(text / 1024).toFixed(1)} KB of text, n=${held.length})`,
  );
  void kept;

  // (c) Whole answers: the cited passages prepared, then the answer verified, a fresh cache per answer.
  const answers = await loadAnswerChecks('dev');
  const answerStats = termStatsFromTexts(evidenceTexts(answers));
  const timed = { total: [] as number[], prepare: [] as number[], check: [] as number[] };
  for (let round = 0; round < 3; round++) {
    for (const a of answers) {
      const { prepare, check } = await timeAnswer(a, answerStats);
      if (round === 0) continue;
      timed.total.push(prepare + check);
      timed.prepare.push(prepare);
      timed.check.push(check);
    }
  }
  const n = answers.reduce((x, a) => x + a.sentences, 0) / answers.length;
  const k = answers.reduce((x, a) => x + a.cited.length, 0) / answers.length;
  const label = `answers dev: ${answers.length}, mean ${n.toFixed(1)} sentences over ${k.toFixed(1)} cited passages`;
  console.log(label);
  row('lexical, whole answer: cited passages prepared', timed.prepare);
  row('lexical, whole answer: its sentences checked', timed.check);
  row('lexical, whole answer: preparation + checks', timed.total);
  const perSentence = answers.map((a, i) => timed.check[i] / Math.max(1, a.sentences)).sort((x, y) => x - y);
  console.log(
    `${'lexical, whole answer: checks per sentence'.padEnd(52)} p50 ${(q(perSentence, 0.5) * 1000).toFixed(1)} µs`,
  );
}

/** One answer as a turn checks it: its cited passages prepared (as they enter the evidence), then verified. */
async function timeAnswer(
  a: AnswerCheck,
  termStats: ReturnType<typeof termStatsFromTexts>,
): Promise<{ prepare: number; check: number }> {
  const cache = new PassageCache();
  const scorer = createLexicalScorer({ termStats, passages: cache });
  const t0 = performance.now();
  for (const e of a.cited) cache.ready(e.text);
  const t1 = performance.now();
  await verifyAnswer(a.answer, a.evidence, { scorer });
  return { prepare: t1 - t0, check: performance.now() - t1 };
}

main().catch((error: unknown) => {
  console.error(`bench:verifier: ${(error as Error).message}`);
  process.exit(1);
});
