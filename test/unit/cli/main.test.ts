import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../support/cli';
import { runCliProcess } from '../../support/cliProcess';
import { defaultModelCacheDir, makeTinyClassifierModel } from '../../support/tinyModels';
import { removeDir, snapshot, tempDir, writeDocs } from '../../support/workspace';

const SAMPLES = path.resolve(__dirname, '../../../samples');

describe('evident CLI (in-process, offline)', function () {
  this.timeout(60_000);
  let cache: string;
  let work: string;

  before(async () => {
    cache = await tempDir('evident-cache-');
    work = await tempDir('evident-work-');
  });

  after(async () => {
    await removeDir(cache);
    await removeDir(work);
  });

  const env = () => ({ XDG_CACHE_HOME: cache });

  it('ask --json answers about the samples offline with citations, evidence and the four numbers (contract shape)', async () => {
    const before = await snapshot(SAMPLES);
    const run = await runCli(
      ['ask', '--docs', SAMPLES, '--question', 'How long do I have to ask for a refund on an annual plan?', '--json'],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(out).slice(0, 6), [
      'question',
      'answer',
      'abstained',
      'sentences',
      'evidence',
      'metrics',
    ]);
    assert.equal(out.abstained, false);
    assert.match(out.answer, /90 days/);
    assert.match(out.answer, /\[E\d+\]/);
    for (const s of out.sentences) {
      assert.deepEqual(Object.keys(s).slice(0, 5), ['text', 'citations', 'verdict', 'reason', 'support']);
      assert.match(s.verdict, /^(kept|dropped|exempt)$/);
    }
    assert.ok(out.sentences.some((s: { verdict: string }) => s.verdict === 'kept'));
    const e1 = out.evidence[0];
    assert.deepEqual(Object.keys(e1), ['id', 'source', 'startLine', 'endLine', 'heading', 'text', 'version']);
    assert.equal(e1.id, 'E1');
    assert.ok(!path.isAbsolute(e1.source) && e1.source.startsWith('policies/'));
    assert.deepEqual(Object.keys(out.metrics), ['retrieved', 'coverage', 'dropped', 'abstained']);
    assert.equal(out.metrics.retrieved, out.evidence.length);
    assert.equal(out.model, 'extractive');
    assert.equal(out.retrieval, 'lexical');
    assert.match(out.notices.join(' '), /lexical only/);
    assert.match(run.stderr, /No embedding model.*lexical only/);
    assert.equal(run.stderr.match(/No embedding model/g)?.length, 1, 'said once');
    assert.deepEqual(await snapshot(SAMPLES), before, 'nothing written inside --docs');
  });

  it('ask prints a readable answer with the verifier report', async () => {
    const run = await runCli(
      ['ask', '--docs', SAMPLES, '--no-embeddings', '--question', 'Are monthly plans refundable?'],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /not refundable/);
    assert.match(run.stdout, /^Verifier: \d+ sentences, \d+ kept, \d+ dropped/m);
    assert.match(run.stdout, /✓ kept/);
    assert.match(run.stdout, /^Evidence:\n\s+E1\s+policies\/\S+\.md:\d+-\d+/m);
  });

  it('abstains on a question the samples do not cover', async () => {
    const run = await runCli(
      [
        'ask',
        '--docs',
        SAMPLES,
        '--no-embeddings',
        '--json',
        '--question',
        'What is the parental leave policy for employees based in Japan?',
      ],
      env(),
    );
    const out = JSON.parse(run.stdout);
    assert.equal(out.abstained, true);
    assert.match(out.answer, /^NOT_FOUND: /);
  });

  it('ask --questions prints one JSON object per line, in order, each with its id', async () => {
    const file = path.join(work, 'q.jsonl');
    await writeFile(
      file,
      [
        '{"id":"b","question":"Are monthly plans refundable?"}',
        '',
        '{"id":"a","question":"How long do I have to ask for a refund on an annual plan?"}',
      ].join('\n'),
    );
    const run = await runCli(['ask', '--docs', SAMPLES, '--no-embeddings', '--questions', file], env());
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.id),
      ['b', 'a'],
    );
    assert.ok(lines.every((l) => typeof l.answer === 'string' && Array.isArray(l.evidence)));
  });

  it('names the malformed line of a JSONL file and exits 2, answering nothing', async () => {
    const file = path.join(work, 'bad.jsonl');
    await writeFile(file, '{"id":"1","question":"ok?"}\n{"id":"2","question":\n');
    const run = await runCli(['ask', '--docs', SAMPLES, '--no-embeddings', '--questions', file], env());
    assert.equal(run.code, 2);
    assert.match(run.stderr, /bad\.jsonl:2: not valid JSON/);
    assert.equal(run.stdout, '');
    const missing = await runCli(['ask', '--docs', SAMPLES, '--questions', path.join(work, 'q2.jsonl')], env());
    assert.match(missing.stderr, /q2\.jsonl:0: file not found/);
    await writeFile(file, '{"id":"1"}\n');
    const shape = await runCli(['ask', '--docs', SAMPLES, '--questions', file], env());
    assert.match(shape.stderr, /bad\.jsonl:1: "question" must be a non-empty string/);
  });

  it('refuses a question over the 4,000-character cap before indexing, alone or as a batch line (FILE:LINE), with exit 2', async () => {
    const long = `Are refunds allowed? ${'x'.repeat(4000)}`;
    const one = await runCli(['ask', '--docs', SAMPLES, '--no-embeddings', '--question', long], env());
    assert.equal(one.code, 2);
    assert.match(
      one.stderr,
      /--question: The question is 4,021 characters long; at most 4,000 are accepted\. Shorten it/,
    );
    assert.equal(one.stdout, '');
    const file = path.join(work, 'long.jsonl');
    await writeFile(
      file,
      `${JSON.stringify({ id: 'a', question: 'Are refunds allowed?' })}\n${JSON.stringify({ id: 'b', question: long })}\n`,
    );
    const batch = await runCli(['ask', '--docs', SAMPLES, '--no-embeddings', '--questions', file], env());
    assert.equal(batch.code, 2);
    assert.match(batch.stderr, /long\.jsonl:2: .*at most 4,000/);
    assert.equal(batch.stdout, '');
  });

  it('ask --json carries the relevance verdict; --no-relevance-check turns the check off', async () => {
    const question = 'What is the stock option vesting schedule for employees?';
    const on = JSON.parse(
      (
        await runCli(
          [
            'ask',
            '--docs',
            SAMPLES,
            '--no-embeddings',
            '--json',
            '--question',
            'How long do I have to ask for a refund on an annual plan?',
          ],
          env(),
        )
      ).stdout,
    );
    assert.equal(on.relevance?.verdict, 'answers');
    const offTopic = await runCli(
      ['ask', '--docs', SAMPLES, '--no-embeddings', '--json', '--no-relevance-check', '--question', question],
      env(),
    );
    assert.equal(offTopic.code, 0);
    assert.equal(JSON.parse(offTopic.stdout).relevance, undefined);
  });

  it('refuses a --top-k that is not a whole number from 1 to 50, with exit 2 (2.5 once broke the shared store search)', async () => {
    for (const k of ['2.5', '0', '0.1', '51', 'six']) {
      const run = await runCli(['ask', '--docs', SAMPLES, '--no-embeddings', '--question', 'x', '--top-k', k], env());
      assert.equal(run.code, 2, k);
      assert.match(run.stderr, /--top-k must be a whole number from 1 to 50/, k);
    }
  });

  it('refuses a missing docs folder, an index inside the docs, unknown flags and commands, with exit 2', async () => {
    const missing = await runCli(['ask', '--docs', path.join(work, 'nope'), '--question', 'x'], env());
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no such folder/);
    const docs = await tempDir();
    await writeDocs(docs, { 'a.md': '# A\n\nText.\n' });
    const inside = await runCli(['index', '--docs', docs, '--index-dir', path.join(docs, '.idx')], env());
    assert.equal(inside.code, 2);
    assert.match(inside.stderr, /must be outside --docs/);
    await removeDir(docs);
    const flag = await runCli(['ask', '--docs', SAMPLES, '--bogus'], env());
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /Unknown option '--bogus'/);
    const cmd = await runCli(['frobnicate'], env());
    assert.equal(cmd.code, 2);
    assert.match(cmd.stderr, /unknown command "frobnicate"/);
    const both = await runCli(['ask', '--docs', SAMPLES], env());
    assert.match(both.stderr, /exactly one of --question/);
    const gemini = await runCli(['ask', '--docs', SAMPLES, '--question', 'x', '--model', 'gemini'], env());
    assert.match(gemini.stderr, /needs GEMINI_API_KEY/);
  });

  it('ask --escalation takes a local entailment model folder, and refuses unknown tiers and a judge without a key', async () => {
    const classifier = await makeTinyClassifierModel(defaultModelCacheDir());
    const run = await runCli(
      [
        'ask',
        '--docs',
        SAMPLES,
        '--no-embeddings',
        '--json',
        '--escalation',
        'entailment',
        '--entailment-model',
        classifier,
        '--question',
        'Are monthly plans refundable?',
      ],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).abstained, false);
    const bad = await runCli(['ask', '--docs', SAMPLES, '--question', 'x', '--escalation', 'oracle'], env());
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--escalation must be "entailment" or "judge"/);
    const judge = await runCli(['ask', '--docs', SAMPLES, '--question', 'x', '--escalation', 'judge'], env());
    assert.equal(judge.code, 2);
    assert.match(judge.stderr, /needs GEMINI_API_KEY/);
  });

  it('has --help for every command', async () => {
    for (const command of ['index', 'ask', 'verify', 'eval']) {
      const run = await runCli([command, '--help']);
      assert.equal(run.code, 0, `${command}: ${run.stderr}`);
      assert.match(run.stdout, new RegExp(`^Usage: evident ${command}`), command);
    }
    const top = await runCli(['--help']);
    assert.match(top.stdout, /Commands:/);
  });

  it('index reports documents and passages; a second run finds everything unchanged', async () => {
    const first = await runCli(['index', '--docs', SAMPLES, '--no-embeddings', '--json'], env());
    assert.equal(first.code, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    assert.ok(report.documents >= 6 && report.passages > report.documents);
    const second = JSON.parse((await runCli(['index', '--docs', SAMPLES, '--no-embeddings', '--json'], env())).stdout);
    assert.equal(second.unchanged, report.documents);
    assert.equal(second.added + second.updated + second.removed, 0);
  });

  it('eval reports the figures and fails a gate it does not meet', async () => {
    const set = path.join(work, 'set.jsonl');
    await writeFile(
      set,
      [
        '{"id":"a","question":"How long do I have to ask for a refund on an annual plan?","answerable":true,"answer_keywords":["90 days"],"gold_files":["policies/refunds-and-cancellations.md"]}',
        '{"id":"u","question":"What is the parental leave policy for employees based in Japan?","answerable":false,"answer_keywords":[],"gold_files":[]}',
      ].join('\n'),
    );
    const run = await runCli(['eval', '--docs', SAMPLES, '--no-embeddings', '--set', set, '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.questions, 2);
    assert.equal(report.accuracy, 1);
    assert.equal(report.abstentionRecall, 1);
    assert.equal(report.recallAtK, 1);
    const gated = await runCli(
      ['eval', '--docs', SAMPLES, '--no-embeddings', '--set', set, '--max-drop-rate', '0', '--min-accuracy', '1.01'],
      env(),
    );
    assert.equal(gated.code, 2, 'a gate outside 0..1 is a usage error');
    await writeFile(
      set,
      '\n{"id":"k","question":"Are monthly plans refundable?","answerable":true,"answer_keywords":["purple elephant"],"gold_files":[]}\n',
      { flag: 'a' },
    );
    const failing = await runCli(
      [
        'eval',
        '--docs',
        SAMPLES,
        '--no-embeddings',
        '--set',
        set,
        '--min-accuracy',
        '0.9',
        '--min-abstention-recall',
        '1',
      ],
      env(),
    );
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /wrong: k \(answer lacks a keyword\)/);
    assert.match(failing.stderr, /gate --min-accuracy 0\.9 not met \(accuracy = 0\.667\)/);
    assert.ok(!failing.stderr.includes('--min-abstention-recall'), 'a gate that is met is not reported');
    await writeFile(set, '{"id":"x","question":"q","answerable":"yes"}\n');
    const bad = await runCli(['eval', '--docs', SAMPLES, '--set', set], env());
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /set\.jsonl:1: "answerable" must be true or false/);
  });
});

describe('evident as a process', function () {
  this.timeout(60_000);

  it('exits quietly when the reader closes the pipe (evident ask … | head)', async () => {
    const cache = await tempDir('evident-pipe-');
    try {
      const run = await runCliProcess(
        ['ask', '--docs', SAMPLES, '--no-embeddings', '--question', 'Are monthly plans refundable?'],
        {
          closeStdoutAtOnce: true,
          env: { XDG_CACHE_HOME: cache },
        },
      );
      assert.doesNotMatch(run.stderr, /EPIPE|Error|\n\s+at /, run.stderr);
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await removeDir(cache);
    }
  });
});
