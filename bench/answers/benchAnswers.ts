// `npm run bench:verifier-answers`: every model-shaped answer of eval/answers/ replayed as Gemini would
// give it (the real @google/genai client against the local fake server: the scripted model
// searches with the question, then answers, its evidence ids mapped to this turn's), verified by
// the product's engine, and the figures of issue 21 printed per split.
//
//   npx tsx bench/answers/benchAnswers.ts [--set DIR] [--split dev|test|all] [--lexical] [--model DIR]
//       [--similarity] [--lm] [--threshold T] [--show dropped|kept|all] [--json FILE]
//
// --lexical: lexical retrieval only (no embedding model). --model: the embedding model folder
// (default ~/.cache/evident/models/all-MiniLM-L6-v2 or /work/models/all-MiniLM-L6-v2, or
// EVIDENT_EMBEDDING_MODEL); indexes are kept between runs in EVIDENT_BENCH_CACHE
// (bench/benchIndexes.ts). --similarity: give the verifier the embedding model's meaning
// (TextSimilarity). --lm: replay through the VS Code language-model adapter
// (src/host/lmChatModel.ts on a fake LanguageModelChat) instead of Gemini. --show: print the
// sentences a failure is about, for every answer chosen by --split.
// --set: another folder laid out like eval/answers/ (its answers and captured/), e.g. a fresh
// test set written after the tuning.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir, loadavg } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { benchEmbedding, benchIndexDir } from '../benchIndexes';
import { createGeminiModel, Engine, folderDocSource } from '../../src/core/engine';
import { loadEmbedder } from '../../src/core/retrieval/embedder';
import type { ChatModel, TextSimilarity } from '../../src/core/types';
import { FakeGeminiServer } from '../../test/support/fakeGemini';
import { geminiReplayScript, type ReplayReport } from '../../test/support/answerReplay';
import { embeddingSimilarity } from '../../test/support/embeddingSimilarity';
import {
  alignVerdicts,
  CORPORA,
  figures,
  formatFigures,
  loadAnswerSet,
  shownAsKept,
  type Corpus,
  type Outcome,
  type WrittenAnswer,
} from './answerSet';

const ROOT = path.join(__dirname, '../..');
const CORPUS_DIR = path.join(ROOT, '../shared/data/corpora');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: path.join(ROOT, 'eval/answers') },
      split: { type: 'string', default: 'all' },
      lexical: { type: 'boolean' },
      model: { type: 'string' },
      similarity: { type: 'boolean' },
      lm: { type: 'boolean' },
      show: { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string' },
      threshold: { type: 'string' },
    },
  });
  const split = values.split as 'dev' | 'test' | 'all';
  const { answers, captured } = await loadAnswerSet(path.resolve(values.set));
  const chosen = answers.filter(
    (a) => (split === 'all' || a.split === split) && (!values.only || a.id.includes(values.only)),
  );
  const modelDir =
    values.model ??
    process.env.EVIDENT_EMBEDDING_MODEL ??
    [path.join(homedir(), '.cache/evident/models/all-MiniLM-L6-v2'), '/work/models/all-MiniLM-L6-v2'].find((d) =>
      existsSync(path.join(d, 'onnx')),
    ) ??
    '/work/models/all-MiniLM-L6-v2';
  if (!values.lexical && !existsSync(path.join(modelDir, 'onnx'))) {
    throw new Error(
      `No embedding model at ${modelDir} (npm run fetch-model -- --out DIR, then --model DIR), or run with --lexical.`,
    );
  }
  const embedding = values.lexical ? (false as const) : benchEmbedding(modelDir);
  let similarity: TextSimilarity | undefined;
  if (values.similarity) {
    if (!embedding) throw new Error('--similarity needs the embedding model (drop --lexical).');
    similarity = embeddingSimilarity(await loadEmbedder(embedding));
  }

  const server = await FakeGeminiServer.start();
  const outcomes: Outcome[] = [];
  const t0 = performance.now();
  let verifyMs = 0;
  const similarityMs = { turn: 0, calls: 0, perTurn: [] as number[] };
  try {
    for (const corpus of CORPORA) {
      const mine = chosen.filter((a) => a.corpus === corpus);
      if (mine.length === 0) continue;
      const indexDir = benchIndexDir(corpus, embedding ? 'hybrid' : 'lexical');
      const engine = await Engine.open({
        docs: folderDocSource(path.join(CORPUS_DIR, corpus)),
        indexDir,
        embedding,
        verifier: { similarity, ...(values.threshold ? { threshold: Number(values.threshold) } : {}) },
      });
      await engine.index();
      timeSimilarity(engine, similarityMs);
      for (const answer of mine) {
        const q = captured.get(answer.questionId);
        if (!q) throw new Error(`no captured evidence for ${answer.questionId}`);
        const report: ReplayReport = { searches: [], missing: [] };
        const plan = { question: answer.question, answer: answer.answer, captured: q.evidence };
        const model = values.lm ? await lmModel(plan, report) : geminiModel(server, plan, report);
        const start = performance.now();
        similarityMs.turn = 0;
        similarityMs.calls = 0;
        const result = await engine.ask(answer.question, { model });
        verifyMs += performance.now() - start;
        if (similarityMs.calls) similarityMs.perTurn.push(similarityMs.turn);
        outcomes.push({
          answer,
          result,
          unretrieved: report.missing,
          aligned: alignVerdicts(answer, result.sentences),
        });
      }
      await engine.close();
    }
  } finally {
    await server.close();
  }
  const answerable = (id: string): boolean => captured.get(id)?.answerable ?? true;
  const route = `${values.lm ? 'VS Code LM adapter' : 'Gemini client + fake server'}, ${embedding ? 'hybrid retrieval (all-MiniLM-L6-v2)' : 'lexical retrieval'}${similarity ? ', verifier with TextSimilarity' : ''}`;
  console.log(
    `bench:verifier-answers — ${route}; ${outcomes.length} answers in ${((performance.now() - t0) / 1000).toFixed(1)} s (turns ${(verifyMs / Math.max(1, outcomes.length)).toFixed(0)} ms each on average)`,
  );
  for (const s of split === 'all' ? (['dev', 'test'] as const) : [split]) {
    console.log(
      formatFigures(
        `${s} split`,
        figures(
          outcomes.filter((o) => o.answer.split === s),
          answerable,
        ),
      ),
    );
  }
  if (similarityMs.perTurn.length) {
    const sorted = [...similarityMs.perTurn].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    console.log(
      `relevance in meaning (the turn's question ↔ kept sentences similarity): ${sorted.length} turns, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms per turn; load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
  }
  for (const o of outcomes.filter((x) => x.unretrieved.length)) {
    console.log(`  not retrieved in the replay: ${o.answer.id}: ${o.unretrieved.join('; ')}`);
  }
  if (values.show) {
    show(outcomes, values.show);
  }
  if (values.json) await writeFile(values.json, `${JSON.stringify(outcomes.map(summary), null, 1)}\n`);
}

/**
 * Times the similarity calls a turn makes through the engine's TextSimilarity (with the Gemini or LM
 * replay, only the relevance check's question ↔ kept sentences closeness uses it).
 */
function timeSimilarity(engine: Engine, into: { turn: number; calls: number }): void {
  const offered = engine.textSimilarity.bind(engine);
  engine.textSimilarity = () => {
    const similarity = offered();
    if (!similarity) return undefined;
    return {
      modelId: similarity.modelId,
      async similarity(query, texts, signal) {
        const start = performance.now();
        try {
          return await similarity.similarity(query, texts, signal);
        } finally {
          into.turn += performance.now() - start;
          into.calls++;
        }
      },
    };
  };
}

function geminiModel(
  server: FakeGeminiServer,
  plan: Parameters<typeof geminiReplayScript>[0],
  report: ReplayReport,
): ChatModel {
  server.respondWith(geminiReplayScript(plan, report));
  return createGeminiModel({ apiKey: 'bench-key', baseUrl: server.baseUrl, timeoutMs: 20_000, backoffMs: 10 });
}

async function lmModel(plan: Parameters<typeof geminiReplayScript>[0], report: ReplayReport): Promise<ChatModel> {
  const { languageModelReplay } = await import('../../test/support/fakeLanguageModel');
  return languageModelReplay(plan, report);
}

/** What each failure is about. */
function show(outcomes: Outcome[], what: string): void {
  for (const o of outcomes) {
    const lines: string[] = [];
    for (const [s, vs] of o.aligned) {
      const kept = shownAsKept(o, s);
      const bad =
        (s.label === 'backed' && !kept) ||
        (s.label === 'planted' && kept) ||
        ((s.label === 'exempt' || s.label === 'abstain-hedge') && vs.some((v) => v.verdict === 'dropped'));
      if (
        what === 'all' ||
        (what === 'dropped' && bad && s.label !== 'planted') ||
        (what === 'kept' && bad && s.label === 'planted')
      ) {
        lines.push(
          `   [${s.label}${kept ? ' SHOWN' : ''}] ${s.text}${s.note ? `   (note: ${s.note})` : ''}\n${vs.map((v) => `       -> ${v.verdict} ${v.support.toFixed(2)} ${v.reason}`).join('\n') || '       -> (no verdict lined up)'}`,
        );
      }
    }
    if (lines.length) {
      const rel = o.result.relevance ? ` relevance ${o.result.relevance.verdict}: ${o.result.relevance.reason}` : '';
      console.log(
        `\n${o.answer.id} (${o.answer.kind}${o.answer.defect ? `: ${o.answer.defect}` : ''})${o.result.abstained ? ` ABSTAINED by ${o.result.abstainedBy}: ${o.result.answer}` : ''}${rel}\n${lines.join('\n')}`,
      );
    }
  }
}

function summary(o: Outcome): unknown {
  return {
    id: o.answer.id,
    split: o.answer.split,
    abstained: o.result.abstained,
    abstainedBy: o.result.abstainedBy,
    relevance: o.result.relevance,
    unretrieved: o.unretrieved,
    sentences: [...o.aligned].map(([s, vs]) => ({
      label: s.label,
      text: s.text,
      verdicts: vs.map((v) => ({ verdict: v.verdict, reason: v.reason })),
    })),
  };
}

export type { Corpus, WrittenAnswer };

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
