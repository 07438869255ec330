// `npm run bench:relevance`: the relevance check on the dev set (eval/dev, both corpora), offline
// (extractive model), with lexical retrieval and with hybrid retrieval on the real
// all-MiniLM-L6-v2 (`npm run fetch-model`), in one run. Each question is answered once with the
// check off; the check is then applied to the kept sentences with each candidate setting, and the
// issue-9 gates are computed (unanswerable abstained, answerable correct, false abstention). The
// setting is chosen here, on dev only. The indexes are kept between runs (bench/benchIndexes.ts).
//   npx tsx bench/relevanceDev.ts [-- --modes lexical,hybrid]

import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { requireRealModel } from '../test/support/realModel';
import { benchIndexDir } from './benchIndexes';
import { Engine, folderDocSource } from '../src/core/engine';
import { readJsonl } from '../src/core/jsonl';
import { checkEvalQuestion, type EvalQuestion } from '../src/core/eval/evaluation';
import { checkRelevance } from '../src/core/verifier/relevance';
import type { TurnResult } from '../src/domain/types';

const CORPORA = path.resolve(__dirname, '../../shared/data/corpora');
const SETS = ['18f-handbook', 'site-policy'];

interface Turn {
  q: EvalQuestion;
  r: TurnResult;
  stats: ReturnType<Engine['termStats']>;
}

async function answerAll(mode: 'lexical' | 'hybrid'): Promise<Turn[]> {
  const turns: Turn[] = [];
  for (const set of SETS) {
    const embedding = mode === 'hybrid' ? { modelId: requireRealModel(), allowRemote: false } : false;
    const engine = await Engine.open({
      docs: folderDocSource(path.join(CORPORA, set)),
      indexDir: benchIndexDir(set, mode),
      embedding,
      relevanceCheck: false,
    });
    try {
      await engine.index();
      if (engine.status().retrieval !== mode) {
        throw new Error(`${set}: retrieval is ${engine.status().retrieval}, not ${mode}`);
      }
      const model = engine.createExtractiveModel();
      const questions = await readJsonl<EvalQuestion>(
        path.resolve(__dirname, `../eval/dev/${set}.jsonl`),
        checkEvalQuestion,
      );
      for (const q of questions) {
        turns.push({ q, r: await engine.ask(q.question, { model }), stats: engine.termStats() });
      }
    } finally {
      await engine.close();
    }
  }
  return turns;
}

function gates(turns: Turn[], focusNeeded: number | undefined): string {
  let unansAbstained = 0;
  let unans = 0;
  let ans = 0;
  let correct = 0;
  let falseAbst = 0;
  for (const { q, r, stats } of turns) {
    let abstained = r.abstained;
    if (!abstained && focusNeeded !== undefined) {
      const kept = r.sentences.filter((s) => s.verdict === 'kept');
      const heading = (ids: string[]) => ids.map((id) => r.evidence.find((e) => e.id === id)?.heading ?? '').join('\n');
      abstained =
        checkRelevance({
          question: q.question,
          kept: kept.map((s) => ({ text: s.text, heading: heading(s.citations) })),
          termStats: stats,
          focusNeeded,
        }).verdict === 'off-topic';
    }
    if (q.answerable) {
      ans++;
      if (abstained) falseAbst++;
      else if (
        q.answer_keywords.every((k) => r.answer.toLowerCase().includes(k.toLowerCase())) &&
        (q.gold_files.length === 0 ||
          r.sentences.some(
            (s) =>
              s.verdict === 'kept' &&
              s.citations.some((id) => q.gold_files.includes(r.evidence.find((e) => e.id === id)?.source ?? '')),
          ))
      ) {
        correct++;
      }
    } else {
      unans++;
      if (abstained) unansAbstained++;
    }
  }
  const pct = (n: number, d: number) => `${((n / d) * 100).toFixed(1)}%`.padStart(6);
  return `${pct(unansAbstained, unans)} | ${pct(correct, ans)} | ${pct(falseAbst, ans)}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { modes: { type: 'string' } } });
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const mode of (values.modes ?? 'lexical,hybrid').split(',') as ('lexical' | 'hybrid')[]) {
    const turns = await answerAll(mode);
    console.log(
      `\n${mode} retrieval${mode === 'hybrid' ? ' (all-MiniLM-L6-v2)' : ''}; dev set: ${turns.length} questions (${turns.filter((t) => t.q.answerable).length} answerable)`,
    );
    console.log(
      'relevance check         | unanswerable abstained | answerable correct (keywords + gold file cited) | false abstention',
    );
    console.log(`off                     | ${gates(turns, undefined)}`);
    for (const f of [0.25, 0.34, 0.5]) console.log(`on, focus needed ${f.toFixed(2)}  | ${gates(turns, f)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
