// `npm run bench:dev-answers`: the answers users get, measured on the question sets over the shared
// corpora with the offline (extractive) model, lexical retrieval and hybrid retrieval with the real
// all-MiniLM-L6-v2 in the same run. Per corpus and over both: gold-file recall@6, answerable
// correct (every keyword; and also with a gold file cited by a kept sentence), false abstention,
// unanswerable abstained. The follow-up sets are asked as conversations (each line after the turn it
// names, as `evident eval` does) and add: follow-ups that retrieved a right file, self-contained
// follow-ups changed by the rewrite.
//
// The indexes are kept between runs (embedding the handbook takes minutes on a loaded machine):
// EVIDENT_BENCH_CACHE, else ~/.cache/evident/bench-indexes.
//   npm run bench:dev-answers [-- --sets dev,followups,generalisation] [-- --modes lexical,hybrid] [-- --misses]
// Tune on dev and followups; the generalisation set is measured once, at the end (eval/generalisation/README.md).

import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine, folderDocSource } from '../src/core/engine';
import type { ExtractiveTuning } from '../src/core/models/extractiveModel';
import { readJsonl } from '../src/core/jsonl';
import {
  checkEvalQuestion,
  scoreItem,
  summarizeEvaluation,
  type EvalItem,
  type EvalQuestion,
} from '../src/core/eval/evaluation';
import { askConversations, withAfterCheck } from '../src/core/eval/conversations';
import { requireRealModel } from '../test/support/realModel';
import { SHARED_DATA } from '../test/support/workspace';
import { benchEmbedding, benchIndexDir } from './benchIndexes';

const CORPORA = ['site-policy', '18f-handbook'] as const;
const SET_FILES: Record<string, (corpus: string) => string> = {
  dev: (c) => `eval/dev/${c}.jsonl`,
  followups: (c) => `eval/dev/followups-${c}.jsonl`,
  generalisation: (c) => `eval/generalisation/${c}.jsonl`,
  // Written in session 4 after the first generalisation set had been measured (and tuned on since).
  'generalisation-2': (c) => `eval/generalisation-2/${c}.jsonl`,
  // Written in session 5 after the second set had been measured (and tuned on since).
  'generalisation-3': (c) => `eval/generalisation-3/${c}.jsonl`,
  // Written in session 6 after the third set had been measured (tuned on since session 7).
  'generalisation-4': (c) => `eval/generalisation-4/${c}.jsonl`,
  // Written in session 7, measured twice without reading its items (tuned on since session 8).
  'generalisation-5': (c) => `eval/generalisation-5/${c}.jsonl`,
  // Written in session 8, measured at its start and end without reading its items (confirmation data in session 9).
  'generalisation-6': (c) => `eval/generalisation-6/${c}.jsonl`,
  // Written in session 9, measured at its start and end without reading its items (confirmation data in session 10).
  'generalisation-7': (c) => `eval/generalisation-7/${c}.jsonl`,
  // Written in session 10 before anything ran on it: the held-out set (measure it, never read its items).
  'generalisation-8': (c) => `eval/generalisation-8/${c}.jsonl`,
};
type Mode = 'lexical' | 'hybrid';
type Line = EvalQuestion & { after?: string; selfContained?: boolean };

interface Row {
  items: EvalItem[];
  followUps: { retrievedRightFile: number; total: number; selfContained: number; selfContainedChanged: number };
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');

function figures(row: Row): string {
  const report = summarizeEvaluation(row.items, 6);
  const answerable = row.items.filter((i) => i.question.answerable);
  const withGoldCited = answerable.filter((i) => i.correct && citesGold(i)).length;
  const hits = answerable.filter((i) => (i.goldRecall ?? 0) > 0).length;
  const f = row.followUps;
  const followUps = f.total
    ? ` | ${pct(f.retrievedRightFile, f.total)} (${f.retrievedRightFile}/${f.total}) | ${f.selfContainedChanged}/${f.selfContained}`
    : '';
  return (
    `${pct(hits, answerable.length)} | ${pct(report.answerAccuracy * report.answerable, report.answerable)} | ${pct(withGoldCited, answerable.length)} | ` +
    `${pct(report.falseAbstentionRate * report.answerable, report.answerable)} | ${pct(report.abstentionRecall * report.unanswerable, report.unanswerable)}${followUps}`
  );
}

function citesGold(item: EvalItem): boolean {
  const gold = new Set(item.question.gold_files);
  if (gold.size === 0) return true;
  const sourceOf = new Map(item.result.evidence.map((e) => [e.id, e.source]));
  return item.result.sentences.some(
    (s) => s.verdict === 'kept' && s.citations.some((id) => gold.has(sourceOf.get(id) ?? '')),
  );
}

async function run(
  corpus: string,
  mode: Mode,
  setFile: string,
  modelDir: string,
  misses: boolean,
  dump?: string,
  tuning?: Partial<ExtractiveTuning>,
): Promise<Row> {
  const indexDir = benchIndexDir(corpus, mode);
  const engine = await Engine.open({
    docs: folderDocSource(path.join(SHARED_DATA, 'corpora', corpus)),
    indexDir,
    embedding: mode === 'hybrid' ? benchEmbedding(modelDir) : false,
  });
  try {
    const started = performance.now();
    const report = await engine.index();
    if (report.embedded) {
      console.error(
        `${corpus} (${mode}): indexed, ${report.embedded} passages embedded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    if (engine.status().retrieval !== mode) {
      throw new Error(`${corpus}: retrieval is ${engine.status().retrieval}, not ${mode}`);
    }
    const model = engine.createExtractiveModel(tuning);
    const questions = await readJsonl<Line>(path.resolve(__dirname, '..', setFile), withAfterCheck(checkEvalQuestion));
    const answered = await askConversations(questions, (q, previous) =>
      engine.ask(q.question, { model, id: q.id, ...(previous ? { follows: previous } : {}) }),
    );
    const items = answered.map(({ question, result }) => scoreItem(question, result));
    const figures = summarizeEvaluation(items, 6).followUps;
    const followUps = figures
      ? {
          retrievedRightFile: figures.rightFileRetrieved,
          total: figures.withRightFiles,
          selfContained: figures.selfContained,
          selfContainedChanged: figures.selfContainedChanged,
        }
      : { retrievedRightFile: 0, total: 0, selfContained: 0, selfContainedChanged: 0 };
    if (misses) {
      const byId = new Map(answered.map((a) => [a.question.id, a]));
      for (const { question, result } of answered) {
        if (question.after === undefined) continue;
        const gold = question.gold_files.length
          ? question.gold_files
          : question.selfContained
            ? []
            : (byId.get(question.after)?.question.gold_files ?? []);
        if (gold.length && !result.evidence.some((e) => gold.includes(e.source))) {
          console.log(
            `  follow-up miss (${mode}): ${question.id}: "${question.question}" answered as "${result.answeredAs}" → ${[...new Set(result.evidence.map((e) => e.source))].join(', ')}`,
          );
        }
      }
    }
    if (misses) {
      for (const item of items.filter((i) => !i.correct)) {
        const why = item.question.answerable
          ? item.result.abstained
            ? `abstained by ${item.result.abstainedBy ?? '?'}`
            : 'lacks a keyword'
          : 'answered';
        const gold = item.question.gold_files;
        const retrieved = gold.length
          ? item.result.evidence.some((e) => gold.includes(e.source))
            ? ''
            : ', no gold file retrieved'
          : '';
        console.log(
          `  wrong (${mode}): ${item.question.id} [${why}${retrieved}] ${item.question.question}${item.result.answeredAs && item.result.answeredAs !== item.question.question ? ` (as: ${item.result.answeredAs})` : ''}\n      → ${item.result.answer.replace(/\s+/g, ' ').slice(0, 220)}`,
        );
      }
    }
    if (dump) {
      appendFileSync(
        dump,
        items
          .map(
            (i) =>
              JSON.stringify({
                set: setFile,
                mode,
                id: i.question.id,
                question: i.question.question,
                answerable: i.question.answerable,
                keywords: i.question.answer_keywords,
                correct: i.correct,
                abstainedBy: i.result.abstained ? (i.result.abstainedBy ?? '?') : null,
                answer: i.result.answer,
                relevance: i.result.relevance,
                goldRetrieved: i.question.gold_files.some((g) => i.result.evidence.some((e) => e.source === g)),
                answeredAs: i.result.answeredAs,
                gold: i.question.gold_files,
                sentences: i.result.sentences.map((s) => ({ text: s.text, verdict: s.verdict, code: s.code })),
                evidence: i.result.evidence.map((e) => ({
                  id: e.id,
                  source: e.source,
                  heading: e.heading,
                  text: e.text,
                })),
              }) + '\n',
          )
          .join(''),
      );
    }
    return { items, followUps };
  } finally {
    await engine.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sets: { type: 'string' },
      modes: { type: 'string' },
      misses: { type: 'boolean' },
      corpora: { type: 'string' },
      // Every item's result as a JSONL line appended to this file (for reading misses by kind).
      dump: { type: 'string' },
      // The extractive model's tuning, as JSON (e.g. '{"minSimilarity":0.42}'), for sweeps.
      tuning: { type: 'string' },
    },
  });
  const tuning = values.tuning ? (JSON.parse(values.tuning) as Partial<ExtractiveTuning>) : undefined;
  const sets = (values.sets ?? 'dev,followups').split(',');
  const modes = (values.modes ?? 'lexical,hybrid').split(',') as Mode[];
  const corpora = values.corpora ? values.corpora.split(',') : [...CORPORA];
  for (const s of sets) if (!SET_FILES[s]) throw new Error(`unknown set ${s} (${Object.keys(SET_FILES).join(', ')})`);
  for (const m of modes) if (m !== 'lexical' && m !== 'hybrid') throw new Error(`unknown mode ${m} (lexical, hybrid)`);
  const modelDir = modes.includes('hybrid') ? requireRealModel() : '';
  console.log(
    `Model: ${modelDir || '(lexical only)'}; indexes kept in ${path.dirname(benchIndexDir(corpora[0], 'lexical'))}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}${tuning ? `; tuning ${JSON.stringify(tuning)}` : ''}\n`,
  );
  for (const set of sets) {
    const followUpSet = set === 'followups';
    console.log(`### ${set}\n`);
    console.log(
      `| corpus | retrieval | gold-file recall@6 | answerable correct (keywords) | … and a gold file cited | false abstention | unanswerable abstained${followUpSet ? ' | follow-ups retrieving a right file | self-contained changed' : ''} |`,
    );
    console.log(`|---|---|---|---|---|---|---|${followUpSet ? '---|---|' : ''}`);
    for (const mode of modes) {
      const total: Row = {
        items: [],
        followUps: { retrievedRightFile: 0, total: 0, selfContained: 0, selfContainedChanged: 0 },
      };
      for (const corpus of corpora) {
        const row = await run(corpus, mode, SET_FILES[set](corpus), modelDir, !!values.misses, values.dump, tuning);
        console.log(`| ${corpus} (${row.items.length}) | ${mode} | ${figures(row)} |`);
        total.items.push(...row.items);
        for (const k of Object.keys(total.followUps) as (keyof Row['followUps'])[]) {
          total.followUps[k] += row.followUps[k];
        }
      }
      if (corpora.length > 1) console.log(`| **both (${total.items.length})** | **${mode}** | ${figures(total)} |`);
    }
    console.log('');
  }
  console.log(
    `load average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
