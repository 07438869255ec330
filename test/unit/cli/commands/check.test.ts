// `evident check --file F --docs DIR`: any text against the documents, through the CLI. The
// verdicts are the verifier's own: a turn of `evident ask` (the real Gemini client against the
// local fake server, scripted to cite well, cite a contradicted figure, launder a real id, cite an
// unknown id) re-checked with `--evidence` gives identical verdicts, reasons and scores.

import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { MAX_TEXT_CHARS } from '../../../../src/core/tools';
import { FakeGeminiServer, functionCallReply, textReply } from '../../../support/fakeGemini';
import { runCli } from '../../../support/cli';
import { REFUND_AND_TRAVEL_DOCS } from '../../../support/engineFixture';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

interface JsonSentence {
  text: string;
  citations: string[];
  verdict: string;
  reason: string;
  support: number;
  tier?: string;
  route?: string;
  line?: number;
  evidence?: { id?: string; source: string; startLine: number; endLine: number }[];
}

describe('evident check (any text against the docs, through the CLI)', function () {
  this.timeout(60_000);
  let docs: string;
  let work: string;
  let server: FakeGeminiServer;
  const engineFlags = () => ['--docs', docs, '--index-dir', path.join(work, 'index'), '--no-embeddings'];
  const env = () => ({
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: server.baseUrl,
    XDG_CACHE_HOME: path.join(work, 'cache'),
  });
  const textFile = async (name: string, text: string) => {
    const file = path.join(work, name);
    await writeFile(file, text);
    return file;
  };

  before(async () => {
    server = await FakeGeminiServer.start();
  });
  beforeEach(async () => {
    docs = await tempDir();
    work = await tempDir('evident-check-');
    await writeDocs(docs, REFUND_AND_TRAVEL_DOCS);
  });
  afterEach(async () => {
    await removeDir(docs);
    await removeDir(work);
  });
  after(() => server.close());

  it('gives the verdicts `evident ask` gave, for the same sentences and passages (--evidence)', async () => {
    const answer = [
      'Annual plans are refundable pro rata within 90 days of purchase [E1].',
      'Annual plans are refundable pro rata within 45 days of purchase [E1].',
      'Economy class is required for flights shorter than six hours [E1].',
      'Monthly plans can be paused for a year [E7].',
      'Here is what I found.',
    ].join(' ');
    server.enqueue(functionCallReply('searchPolicies', { query: 'annual plans refundable' }), textReply(answer));
    const asked = await runCli(
      [
        'ask',
        ...engineFlags(),
        '--model',
        'gemini',
        '--question',
        'Can I get a refund on an annual plan?',
        '--json',
        '--no-relevance-check',
      ],
      env(),
    );
    assert.equal(asked.code, 0, asked.stderr);
    const turn = JSON.parse(asked.stdout) as { sentences: JsonSentence[]; evidence: { id: string; text: string }[] };
    assert.equal(
      turn.evidence[0].text,
      'Annual plans are refundable pro rata within 90 days of purchase.',
      'the scripted answer assumes E1 is the annual plans passage',
    );
    assert.deepEqual(
      turn.sentences.map((s) => s.verdict),
      ['kept', 'dropped', 'dropped', 'dropped', 'exempt'],
    );
    const saved = await textFile('turn.json', asked.stdout);
    const sentences = await textFile('answer.md', turn.sentences.map((s) => s.text).join('\n\n'));

    const checked = await runCli(
      ['check', ...engineFlags(), '--file', sentences, '--evidence', saved, '--json'],
      env(),
    );
    assert.equal(checked.code, 0, checked.stderr);
    const out = JSON.parse(checked.stdout) as { sentences: JsonSentence[] };
    const verdictOf = (s: JsonSentence) => ({
      text: s.text,
      citations: s.citations,
      verdict: s.verdict,
      reason: s.reason,
      support: s.support,
      tier: s.tier,
    });
    assert.deepEqual(out.sentences.map(verdictOf), turn.sentences.map(verdictOf));
    assert.deepEqual(
      out.sentences.map((s) => s.route),
      ['cited', 'cited', 'cited', 'cited', 'none'],
    );
    assert.match(out.sentences[1].reason, /^value-mismatch/);
    assert.match(out.sentences[2].reason, /^low-support/);
    assert.match(out.sentences[3].reason, /^unknown-id: E7/);
  });

  it('checks each sentence against the passages retrieved for it: kept with its passage, a planted figure dropped, with lines', async () => {
    const file = await textFile(
      'reply.md',
      '# What the assistant said\n\nEconomy class is required for flights shorter than six hours.\n\nAnnual plans are refundable pro rata within 45 days of purchase [E3].\n',
    );
    const run = await runCli(['check', ...engineFlags(), '--file', file, '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(
      out.sentences.map((s: JsonSentence) => [s.text, s.verdict, s.route, s.line]),
      [
        ['What the assistant said', 'dropped', 'retrieved', 1],
        ['Economy class is required for flights shorter than six hours.', 'kept', 'retrieved', 3],
        ['Annual plans are refundable pro rata within 45 days of purchase [E3].', 'dropped', 'retrieved', 5],
      ],
    );
    assert.deepEqual(out.sentences[1].evidence, [
      {
        source: 'travel.md',
        startLine: 3,
        endLine: 3,
        heading: 'Travel',
        version: out.sentences[1].evidence[0].version,
      },
    ]);
    assert.match(out.sentences[2].reason, /^value-mismatch: '45 days' — the passage says 90 days/);
    assert.deepEqual(
      out.sentences[2].citations,
      ['E3'],
      'the ids as written are kept, though they name nothing of this check',
    );
    assert.deepEqual(out.metrics, { sentences: 3, kept: 1, dropped: 2, exempt: 0, retrieved: out.metrics.retrieved });
    assert.equal(out.coverage, 0.333);
    assert.equal(out.retrieval, 'lexical');
  });

  it('prints one line per sentence with its verdict, line and backing passage', async () => {
    const file = await textFile(
      'reply.md',
      'Economy class is required for flights shorter than six hours.\n\nAnnual plans are refundable within 45 days.\n',
    );
    const run = await runCli(['check', ...engineFlags(), '--file', file], env());
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split('\n');
    assert.match(
      lines[0],
      /reply\.md: 1 of 2 factual sentences backed \(coverage 50%\) · 1 dropped · 0 exempt · retrieval lexical only$/,
    );
    assert.match(lines[1], /^ {2}✓ kept {4}line 1 {2}"Economy class .*" \(travel\.md:3-3\)$/);
    assert.match(
      lines[2],
      /^ {2}✗ dropped line 3 {2}"Annual plans .*" — value-mismatch: .* \(closest: refunds\.md:5-5\)$/,
    );
  });

  it('never lets a document under --docs back itself', async () => {
    await writeDocs(docs, { 'draft.md': '# Draft\n\nContractors may expense standing desks up to 400 dollars.\n' });
    const run = await runCli(['check', ...engineFlags(), '--file', path.join(docs, 'draft.md'), '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(
      out.sentences.map((s: JsonSentence) => s.verdict),
      ['dropped', 'dropped'],
    );
    assert.ok(
      out.sentences.every((s: JsonSentence) => s.evidence?.every((e) => e.source !== 'draft.md')),
      JSON.stringify(out.sentences),
    );
    // A copy outside the docs folder is another text: the document backs it.
    const outside = await runCli(
      [
        'check',
        ...engineFlags(),
        '--file',
        await textFile('copy.md', 'Contractors may expense standing desks up to 400 dollars.\n'),
        '--json',
      ],
      env(),
    );
    const copy = JSON.parse(outside.stdout).sentences[0];
    assert.deepEqual([copy.verdict, copy.evidence[0].source], ['kept', 'draft.md']);
  });

  it('fails a CI gate: --fail-on-dropped, --min-coverage', async () => {
    const file = await textFile(
      'reply.md',
      'Economy class is required for flights shorter than six hours. Annual plans are refundable within 45 days.',
    );
    const dropped = await runCli(['check', ...engineFlags(), '--file', file, '--fail-on-dropped'], env());
    assert.equal(dropped.code, 1);
    assert.match(dropped.stderr, /1 sentence is not backed by the documents \(--fail-on-dropped\)/);
    assert.equal((await runCli(['check', ...engineFlags(), '--file', file, '--min-coverage', '0.5'], env())).code, 0);
    const under = await runCli(['check', ...engineFlags(), '--file', file, '--min-coverage', '0.6', '--json'], env());
    assert.equal(under.code, 1);
    assert.match(under.stderr, /coverage 0\.500 is under --min-coverage 0\.6/);
    assert.equal(JSON.parse(under.stdout).coverage, 0.5, 'the result is printed before the gate says no');
  });

  it('refuses bad input with exit 2 and a message that says what to give', async () => {
    const cases: [string[], RegExp][] = [
      [[], /--file F is required/],
      [['--file', path.join(work, 'missing.md')], /cannot read .*missing\.md \(ENOENT\)/],
      [['--file', await textFile('empty.md', '  \n')], /is empty: there is nothing to check/],
      [
        ['--file', await textFile('big.md', 'a'.repeat(MAX_TEXT_CHARS + 1))],
        /is 500,001 characters long; at most 500,000 are checked at once/,
      ],
      [
        [
          '--file',
          await textFile('ok.md', 'Hi.'),
          '--evidence',
          await textFile('bad.json', '{"evidence": [{"id": "E1"}]}'),
        ],
        /evidence 1 has no valid "source"/,
      ],
      [
        ['--file', await textFile('ok2.md', 'Hi.'), '--evidence', await textFile('notjson.json', 'not json')],
        /is not the JSON of an "evident ask --json" turn/,
      ],
      [
        ['--file', await textFile('ok3.md', 'Hi.'), '--min-coverage', '2'],
        /--min-coverage must be a number from 0 to 1/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['check', ...engineFlags(), ...args], env());
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
  });
});
