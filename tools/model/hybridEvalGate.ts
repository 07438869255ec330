// `npm run eval:gate:hybrid`: the second evaluation gate of `npm test`. The samples' evaluation
// set with the extractive model and hybrid retrieval on the real all-MiniLM-L6-v2 (the folder
// `npm run fetch-model` wrote: tools/model/modelDir.ts), through the shipped CLI, offline. It
// fails with the reason when the model is not there or does not load (the CLI would otherwise
// answer lexical only, and a lexical run must not pass for a hybrid one), and when a gate is not
// met. The gates sit just under the figures measured (docs/measurements.md).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultModelDir } from './modelDir';

const ROOT = resolve(__dirname, '../..');
const GATES = [
  '--min-accuracy',
  '0.70',
  '--min-abstention-precision',
  '0.6',
  '--min-abstention-recall',
  '0.85',
  '--max-false-abstention',
  '0.2',
  '--min-recall',
  '0.98',
];

function fail(reason: string): never {
  process.stderr.write(`eval:gate:hybrid: ${reason}\n`);
  process.exit(1);
}

const modelDir = defaultModelDir(process.env);
for (const file of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx']) {
  if (!existsSync(join(modelDir, file))) {
    fail(
      `the real all-MiniLM-L6-v2 is not in ${modelDir} (${file} is missing): run \`npm run fetch-model\` (or set EVIDENT_MODEL_DIR)`,
    );
  }
}
const indexDir = mkdtempSync(join(tmpdir(), 'evident-hybrid-gate-'));
try {
  const run = spawnSync(
    process.execPath,
    [
      join(ROOT, 'dist/cli.js'),
      'eval',
      '--docs',
      'samples',
      '--set',
      'samples/eval-set.jsonl',
      '--model',
      'extractive',
      '--embedding-model',
      modelDir,
      '--offline',
      '--index-dir',
      indexDir,
      '--json',
      ...GATES,
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, GEMINI_API_KEY: '' } },
  );
  if (run.error) fail(`could not run the CLI: ${run.error.message}`);
  let report: {
    retrieval?: string;
    accuracy: number;
    abstentionPrecision: number;
    abstentionRecall: number;
    falseAbstentionRate: number;
    recallAtK: number;
    gates: { flag: string; value: number; passed: boolean }[];
  };
  try {
    report = JSON.parse(run.stdout);
  } catch {
    fail(`the CLI printed no report (exit ${run.status}): ${run.stderr.trim() || run.stdout.trim()}`);
  }
  if (report.retrieval !== 'hybrid') {
    fail(`retrieval was ${report.retrieval}, not hybrid: the model in ${modelDir} did not load (${run.stderr.trim()})`);
  }
  const pct = (n: number) => `${(100 * n).toFixed(1)}%`;
  process.stdout.write(
    `eval:gate:hybrid (samples, extractive, hybrid with ${modelDir}): accuracy ${pct(report.accuracy)}, abstention precision ${pct(report.abstentionPrecision)}, ` +
      `recall ${pct(report.abstentionRecall)}, false abstention ${pct(report.falseAbstentionRate)}, recall@6 ${pct(report.recallAtK)}\n`,
  );
  for (const gate of report.gates.filter((g) => !g.passed)) {
    process.stderr.write(`eval:gate:hybrid: gate ${gate.flag} ${gate.value} not met\n`);
  }
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(indexDir, { recursive: true, force: true });
}
