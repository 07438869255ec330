import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../../support/cli';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

// Real turns: the CLI's `ask --questions` with the offline extractive model on a small docs folder,
// each turn logged by the core's writer; then `evident metrics` reads that log.
const DOCS = {
  'hr/leave.md':
    "# Leave\n\n## Annual leave\n\nEmployees receive 25 days of annual leave per calendar year.\n\n## Sick leave\n\nSick leave requires a doctor's note after three consecutive days.\n",
  'security/passwords.md':
    '# Passwords\n\nPasswords must be at least 14 characters long and are rotated every 180 days.\n',
};
const ANSWERED = [
  'How many days of annual leave do employees receive?',
  "When does sick leave require a doctor's note?",
  'How long must passwords be?',
];
const ABSTAINED = [
  'What is the dress code at the Mars office?',
  'Which submarine does the Antarctic team use?',
  'Who won the 1987 chess olympiad?',
];

describe('evident metrics (CLI, after real turns)', function () {
  this.timeout(120_000);
  let docs: string;
  let work: string;

  before(async () => {
    docs = await tempDir('evident-docs-');
    work = await tempDir('evident-metrics-');
    await writeDocs(docs, DOCS);
  });
  after(async () => {
    await removeDir(docs);
    await removeDir(work);
  });

  async function askAll(indexDir: string, questions: string[]): Promise<{ abstained: boolean }[]> {
    const file = path.join(work, `questions-${path.basename(indexDir)}.jsonl`);
    await writeFile(file, questions.map((q, i) => JSON.stringify({ id: `q${i}`, question: q })).join('\n'));
    const run = await runCli([
      'ask',
      '--docs',
      docs,
      '--index-dir',
      indexDir,
      '--no-embeddings',
      '--model',
      'extractive',
      '--questions',
      file,
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  }

  async function metrics(indexDir: string, ...extra: string[]) {
    const run = await runCli(['metrics', '--docs', docs, '--index-dir', indexDir, '--json', ...extra]);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout);
  }

  it('40 answered turns then 40 abstained (fresh index folder): an abstention alert', async () => {
    const indexDir = path.join(work, 'shift');
    const questions = [
      ...Array.from({ length: 40 }, (_, i) => ANSWERED[i % 3]),
      ...Array.from({ length: 40 }, (_, i) => ABSTAINED[i % 3]),
    ];
    const results = await askAll(indexDir, questions);
    assert.equal(results.filter((r) => !r.abstained).length, 40, 'the first 40 answered');
    assert.ok(
      results.slice(40).every((r) => r.abstained),
      'the last 40 abstained',
    );

    const report = await metrics(indexDir);
    assert.deepEqual(Object.keys(report).slice(0, 7), [
      'turns',
      'overall',
      'byDay',
      'byModel',
      'byIndexVersion',
      'byTopic',
      'alerts',
    ]);
    assert.equal(report.turns, 80);
    assert.equal(report.overall.abstentionRate, 0.5);
    assert.deepEqual(Object.keys(report.byModel), ['extractive']);
    assert.ok(report.byTopic.hr && report.byTopic.security, `topics are areas: ${Object.keys(report.byTopic)}`);
    const alert = report.alerts.find(
      (a: { metric: string; rule: string }) => a.metric === 'abstained' && a.rule === 'recent',
    );
    assert.ok(alert, JSON.stringify(report.alerts));
    assert.deepEqual(Object.keys(alert).slice(0, 4), ['metric', 'baseline', 'recent', 'reason']);
    assert.deepEqual(alert.recent, { rate: 1, n: 30 });
    assert.equal(alert.baseline.n, 50);
    assert.ok(alert.baseline.rate <= 0.2);
    assert.ok(
      report.alerts.every((a: { metric: string }) => a.metric === 'abstained'),
      'no drop or coverage alert: the extractive model drops nothing',
    );

    const text = await runCli(['metrics', '--docs', docs, '--index-dir', indexDir]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^Turns: 80 /m);
    assert.match(text.stdout, /ALERTS \(\d+\)\n {2}! \[recent\] abstention rate rose from/);
    assert.match(text.stdout, /BY TOPIC\n.*turns +abstained +abstention +drop rate +coverage +retrieved\n/);
    assert.match(text.stdout, /^ {2}all turns +80 +40 +50\.0% +0\.0% +100\.0% /m);
  });

  it('80 turns alternating answered and abstained: no alert', async () => {
    const indexDir = path.join(work, 'steady');
    const questions = Array.from({ length: 80 }, (_, i) => (i % 2 ? ABSTAINED : ANSWERED)[i % 3]);
    const results = await askAll(indexDir, questions);
    assert.equal(results.filter((r) => r.abstained).length, 40);
    const report = await metrics(indexDir);
    assert.equal(report.turns, 80);
    assert.deepEqual(report.alerts, []);
  });

  it('--since, threshold flags, an index with no log yet, and bad input', async () => {
    const indexDir = path.join(work, 'shift');
    assert.equal((await metrics(indexDir, '--since', '2999-01-01')).turns, 0);
    assert.deepEqual((await metrics(indexDir, '--z', '50')).alerts, [], 'a stricter threshold silences the alert');
    const empty = await runCli(['metrics', '--docs', docs, '--index-dir', path.join(work, 'none'), '--json']);
    assert.equal(empty.code, 0);
    assert.equal(JSON.parse(empty.stdout).turns, 0);
    assert.match(empty.stderr, /no turn log yet/);
    const badDate = await runCli(['metrics', '--docs', docs, '--index-dir', indexDir, '--since', 'yesterday-ish']);
    assert.equal(badDate.code, 2);
    assert.match(badDate.stderr, /--since must be a date/);
    const badZ = await runCli(['metrics', '--docs', docs, '--index-dir', indexDir, '--min-change', '3']);
    assert.equal(badZ.code, 2);
    assert.match(badZ.stderr, /--min-change must be a number from 0 to 1/);
  });
});
