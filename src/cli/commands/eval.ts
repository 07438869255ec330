// `evident eval --docs DIR --set FILE.jsonl`: runs an evaluation set and reports answer accuracy,
// abstention precision/recall, false abstentions, citation coverage, drop rate and recall@k of
// gold files; exits 1 when a gate given by flags is not met (for CI).

import { parseArgs } from 'node:util';
import * as path from 'node:path';
import type { CliCommand } from '../io';
import {
  ENGINE_FLAGS,
  ENGINE_FLAGS_HELP,
  chooseCliModel,
  numberFlag,
  openEngine,
  progressPrinter,
  topKFlag,
} from '../setup';
import { readJsonl } from '../../core/jsonl';
import { askConversations, withAfterCheck } from '../../core/eval/conversations';
import {
  checkEvalQuestion,
  scoreItem,
  summarizeEvaluation,
  type EvalItem,
  type EvalQuestion,
  type EvalReport,
} from '../../core/eval/evaluation';
import { DEFAULT_TOP_K } from '../../core/engine';

const GATES = {
  'min-accuracy': { field: 'accuracy', min: true },
  'min-abstention-precision': { field: 'abstentionPrecision', min: true },
  'min-abstention-recall': { field: 'abstentionRecall', min: true },
  'max-false-abstention': { field: 'falseAbstentionRate', min: false },
  'min-coverage': { field: 'citationCoverage', min: true },
  'max-drop-rate': { field: 'dropRate', min: false },
  'min-recall': { field: 'recallAtK', min: true },
} as const satisfies Record<string, { field: keyof EvalReport; min: boolean }>;

const HELP = `Usage: evident eval --docs DIR --set FILE.jsonl [options]

Runs every question of the set (lines {"id","question","answerable","answer_keywords","gold_files"})
and reports the figures below. Gates (fractions 0..1) make the exit code 1 when not met. A line with
"after": "<id of an earlier line>" is asked as a follow-up of that turn (as "ask --questions" does),
and the report adds how the follow-ups fared.

Options:
  --set FILE.jsonl              the evaluation set
  --model NAME                  extractive (default without GEMINI_API_KEY), gemini, gemini:MODEL_ID
  --json                        print the report as one JSON object
  --min-accuracy N              gate on answer accuracy (answers and abstentions)
  --min-abstention-precision N  gate on abstention precision
  --min-abstention-recall N     gate on abstention recall
  --max-false-abstention N      gate on the false-abstention rate
  --min-coverage N              gate on citation coverage
  --max-drop-rate N             gate on the sentence drop rate
  --min-recall N                gate on recall@k of gold files
${ENGINE_FLAGS_HELP}
  -h, --help                    show this help
`;

export const evaluate: CliCommand = async (argv, io) => {
  const gateFlags = Object.fromEntries(Object.keys(GATES).map((k) => [k, { type: 'string' as const }]));
  const { values } = parseArgs({
    args: argv,
    options: {
      ...ENGINE_FLAGS,
      ...gateFlags,
      set: { type: 'string' },
      model: { type: 'string' },
      json: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  if (!values.set) {
    io.stderr('evident: eval needs --set FILE.jsonl\n');
    return 2;
  }
  const gates = Object.entries(GATES).flatMap(([flag, gate]) => {
    const v = numberFlag((values as Record<string, string | undefined>)[flag], flag, 0, 1);
    return v === undefined ? [] : [{ flag, ...gate, value: v }];
  });
  const questions = await readJsonl<EvalQuestion>(path.resolve(io.cwd, values.set), withAfterCheck(checkEvalQuestion));
  const makeModel = chooseCliModel(values.model, io, values.timeout);
  const engine = await openEngine(values, io);
  const model = makeModel(engine);
  await engine.index({ signal: io.signal, onProgress: progressPrinter(io) });

  // A line with "after" is asked as a follow-up of that line's turn (one conversation per chain).
  let asked = 0;
  const items: EvalItem[] = (
    await askConversations(questions, (q, follows) => {
      if (io.isTTY) io.stderr(`\r\x1b[Kevaluating ${++asked}/${questions.length}`);
      return engine.ask(q.question, { model, id: q.id, signal: io.signal, ...(follows ? { follows } : {}) });
    })
  ).map(({ question, result }) => scoreItem(question, result));
  if (io.isTTY) io.stderr('\r\x1b[K');
  const k = topKFlag(values['top-k']) ?? DEFAULT_TOP_K;
  const report = summarizeEvaluation(items, k);

  const failures = gates.filter((g) => (g.min ? report[g.field] < g.value : report[g.field] > g.value));
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ ...report, model: model.name, retrieval: engine.status().retrieval, gates: gates.map((g) => ({ ...g, passed: !failures.includes(g) })) })}\n`,
    );
  } else {
    const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
    io.stdout(
      [
        `Evaluation: ${report.questions} questions (${report.answerable} answerable, ${report.unanswerable} not) · model ${model.name} · retrieval ${engine.status().retrieval}`,
        `  answer accuracy (all)        ${pct(report.accuracy)}`,
        `  answer accuracy (answerable) ${pct(report.answerAccuracy)}`,
        `  abstention precision         ${pct(report.abstentionPrecision)}`,
        `  abstention recall            ${pct(report.abstentionRecall)}`,
        `  false-abstention rate        ${pct(report.falseAbstentionRate)}`,
        `  citation coverage            ${pct(report.citationCoverage)}`,
        `  drop rate                    ${pct(report.dropRate)}`,
        `  ${`recall@${report.k} of gold files`.padEnd(29)}${pct(report.recallAtK)}`,
        `  abstentions by               model ${report.abstentionsBy.model} · verifier ${report.abstentionsBy.verifier} · relevance check ${report.abstentionsBy.relevance}`,
        '  before / after the verifier and the relevance check:',
        `    ${'answer accuracy (answerable)'.padEnd(30)}${pct(report.verifierOff.answerAccuracy).padStart(7)} → ${pct(report.verifierOn.answerAccuracy)}`,
        `    ${'abstention (all questions)'.padEnd(30)}${pct(report.verifierOff.abstentionRate).padStart(7)} → ${pct(report.verifierOn.abstentionRate)}`,
        `    ${'abstention recall'.padEnd(30)}${pct(report.verifierOff.abstentionRecall).padStart(7)} → ${pct(report.verifierOn.abstentionRecall)}`,
        `    ${'false-abstention rate'.padEnd(30)}${pct(report.verifierOff.falseAbstentionRate).padStart(7)} → ${pct(report.verifierOn.falseAbstentionRate)}`,
        `    ${'citation coverage'.padEnd(30)}${pct(report.verifierOff.citationCoverage).padStart(7)} → ${pct(report.verifierOn.citationCoverage)}`,
        `    ${'drop rate'.padEnd(30)}${pct(report.verifierOff.dropRate).padStart(7)} → ${pct(report.verifierOn.dropRate)}`,
        ...(report.followUps
          ? [
              `  follow-ups                   ${report.followUps.questions} · a right file retrieved ${pct(report.followUps.rightFileRetrieved / Math.max(1, report.followUps.withRightFiles))} (${report.followUps.rightFileRetrieved}/${report.followUps.withRightFiles}) · rewritten ${report.followUps.rewritten}` +
                ` · self-contained changed ${report.followUps.selfContainedChanged} of ${report.followUps.selfContained}`,
            ]
          : []),
        ...report.items
          .filter((i) => !i.correct)
          .map(
            (i) =>
              `  wrong: ${i.id} (${i.answerable ? (i.abstained ? `abstained on an answerable question (by the ${i.abstainedBy === 'relevance' ? 'relevance check' : i.abstainedBy})` : 'answer lacks a keyword') : 'answered an unanswerable question'})`,
          ),
        '',
      ].join('\n'),
    );
  }
  for (const f of failures) {
    io.stderr(`evident: gate --${f.flag} ${f.value} not met (${f.field} = ${report[f.field].toFixed(3)})\n`);
  }
  return failures.length ? 1 : 0;
};
