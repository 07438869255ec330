// `evident ask --model google-search|vertex-ai-search`: the second route through the CLI, with the
// real @google/genai client against the local fake Gemini server (no --docs, no index).
// Also `evident ask` on bad input: a blank question in a batch is reported with FILE:LINE before
// any answer; an empty docs folder says there are no documents; a source name with a newline (or
// a control sequence in a document) cannot print a fake line or drive the terminal.

import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeGeminiServer, errorReply, groundedReply, hangReply, malformedReply } from '../../../support/fakeGemini';
import { runCli } from '../../../support/cli';
import { GROUNDED_DEMO } from '../../../support/fakeGeminiModes';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

/** Three sentences; the second comes after multi-byte characters (é, ü: 2 bytes each in UTF-8). */
const CAFE_ANSWER = GROUNDED_DEMO.text;
const CAFE_SOURCES = GROUNDED_DEMO.sources;

describe('evident ask --model google-search (built-in grounding through the CLI)', function () {
  this.timeout(30_000);
  let server: FakeGeminiServer;
  let cache: string;
  const env = () => ({ GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.baseUrl, XDG_CACHE_HOME: cache });

  before(async () => {
    server = await FakeGeminiServer.start();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    cache = await mkdtemp(path.join(os.tmpdir(), 'evident-grounded-cli-'));
  });
  afterEach(async () => {
    await rm(cache, { recursive: true, force: true });
  });
  after(async () => {
    await server.close();
  });

  it('keeps the two covered sentences with their chunks as evidence, drops the third (absent from answer), coverage 2/3', async () => {
    server.enqueue(
      groundedReply(CAFE_ANSWER, CAFE_SOURCES, [
        { text: 'Café Müller in Düsseldorf opened in 1926.', chunks: [0] },
        { text: 'Its terrace seats forty guests.', chunks: [1] },
      ]),
    );
    const run = await runCli(
      ['ask', '--model', 'google-search', '--question', 'When did Café Müller open?', '--json'],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual(
      out.sentences.map((s: { text: string; verdict: string; citations: string[] }) => [
        s.text,
        s.verdict,
        s.citations,
      ]),
      [
        ['Café Müller in Düsseldorf opened in 1926.', 'kept', ['E1']],
        ['Its terrace seats forty guests.', 'kept', ['E2']],
        ['It also runs a ferry to the moon every Sunday.', 'dropped', []],
      ],
    );
    assert.match(out.sentences[2].reason, /^no-grounding-support/);
    assert.equal(out.answer, 'Café Müller in Düsseldorf opened in 1926. Its terrace seats forty guests.');
    assert.ok(!out.answer.includes('ferry'));
    assert.deepEqual(
      out.evidence.map((e: { id: string; uri: string; source: string; title: string }) => [
        e.id,
        e.uri,
        e.source,
        e.title,
      ]),
      [
        [
          'E1',
          'https://history.example.org/cafe-mueller',
          'https://history.example.org/cafe-mueller',
          'Café Müller: a history',
        ],
        [
          'E2',
          'https://www.visit-dus.example.com/terrace',
          'https://www.visit-dus.example.com/terrace',
          'Terraces of Düsseldorf',
        ],
      ],
    );
    assert.equal(out.metrics.coverage, 0.667);
    assert.deepEqual(
      { ...out.metrics, coverage: undefined },
      { retrieved: 2, coverage: undefined, dropped: 1, abstained: false },
    );
    assert.equal(out.abstained, false);
    assert.equal(out.retrieval, 'google-search');
    assert.equal(out.model, 'google-search:gemini-2.5-flash');
    // The request: the googleSearch tool, the key, no function declarations.
    assert.equal(server.requests.length, 1);
    assert.deepEqual(server.requests[0].body.tools, [{ googleSearch: {} }]);
    assert.equal(server.requests[0].apiKey, 'test-key');
    // The audit log records each support with its sentence, chunk ids and uris.
    const audit = (await readFile(path.join(cache, 'evident', 'grounded', 'audit.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(audit.length, 1);
    assert.deepEqual(
      audit[0].supports.map((s: { sentence: string; chunks: string[]; uris: string[] }) => [
        s.sentence,
        s.chunks,
        s.uris,
      ]),
      [
        ['Café Müller in Düsseldorf opened in 1926.', ['E1'], ['https://history.example.org/cafe-mueller']],
        ['Its terrace seats forty guests.', ['E2'], ['https://www.visit-dus.example.com/terrace']],
      ],
    );
    const metrics = JSON.parse(
      (await readFile(path.join(cache, 'evident', 'grounded', 'metrics.jsonl'), 'utf8')).trim(),
    );
    assert.equal(metrics.retrieval, 'google-search');
    assert.equal(metrics.dropped, 1);
  });

  it('prints a readable report with the web sources', async () => {
    server.enqueue(
      groundedReply(CAFE_ANSWER, CAFE_SOURCES, [{ text: 'Its terrace seats forty guests.', chunks: [1] }]),
    );
    const run = await runCli(
      ['ask', '--model', 'google-search:gemini-2.5-pro', '--question', 'How many seats?'],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Its terrace seats forty guests\.\n/);
    assert.match(run.stdout, /E2 +https:\/\/www\.visit-dus\.example\.com\/terrace {2}Terraces of Düsseldorf/);
    assert.match(
      run.stdout,
      /✗ dropped "It also runs a ferry to the moon every Sunday\." support 0\.00 — no-grounding-support/,
    );
    assert.equal(server.requests[0].model, 'gemini-2.5-pro');
  });

  it('refuses --docs, a missing key, a missing or malformed data store, vertex flags on google-search, and --web-search without Gemini (exit 2, no call)', async () => {
    const cases: Array<[string[], Record<string, string | undefined>, RegExp]> = [
      [['--model', 'google-search', '--docs', '.'], env(), /--docs is not used by --model google-search/],
      [['--model', 'google-search'], { ...env(), GEMINI_API_KEY: undefined }, /needs GEMINI_API_KEY/],
      [['--model', 'vertex-ai-search'], env(), /needs --datastore projects\/P\/locations/],
      [['--model', 'vertex-ai-search', '--datastore', 'my-store'], env(), /not a Vertex AI Search data store name/],
      [
        ['--model', 'google-search', '--datastore', 'projects/p/locations/global/collections/c/dataStores/d'],
        env(),
        /are for --model vertex-ai-search/,
      ],
      [
        [
          '--model',
          'vertex-ai-search',
          '--datastore',
          'projects/p/locations/global/collections/c/dataStores/d',
          '--max-results',
          '11',
        ],
        env(),
        /--max-results must be a number from 1 to 10/,
      ],
      [['--model', 'extractive', '--web-search'], env(), /--web-search needs --model gemini/],
    ];
    for (const [flags, e, message] of cases) {
      const run = await runCli(['ask', ...flags, '--question', 'q?'], e);
      assert.equal(run.code, 2, `${flags.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message);
    }
    assert.equal(server.requests.length, 0);
  });

  it('says clearly when the key lacks access (403) and gives up after retries on 429 (exit 1)', async () => {
    server.enqueue(errorReply(403, 'Permission denied: the key may not use Google Search grounding.'));
    const denied = await runCli(['ask', '--model', 'google-search', '--question', 'q?', '--json'], env());
    assert.equal(denied.code, 1);
    assert.match(
      denied.stderr,
      /Gemini \+ Google Search refused the credentials \(HTTP 403\): Permission denied: the key may not use Google Search grounding\./,
    );
    assert.equal(denied.stdout, '');
    assert.equal(server.requests.length, 1, 'a 403 is not retried');

    server.enqueue(errorReply(429), errorReply(429), errorReply(429));
    const limited = await runCli(['ask', '--model', 'google-search', '--question', 'q?', '--json'], env());
    assert.equal(limited.code, 1);
    assert.match(
      limited.stderr,
      /Gemini \+ Google Search quota or rate limit reached \(HTTP 429\) after 3 attempts\. Try again later\./,
    );
    assert.equal(server.requests.length, 4);
    assert.equal(server.remaining, 0);
  });

  it('--timeout bounds a request to a silent server, retries included; a malformed reply says what happened (exit 1)', async () => {
    const docs = await tempDir();
    try {
      await writeDocs(docs, { 'refunds.md': '# Refunds\n\nAnnual plans are refundable within 90 days.\n' });
      const ask = (...extra: string[]) =>
        runCli(
          ['ask', '--docs', docs, '--no-embeddings', '--model', 'gemini', '--question', 'Refunds?', ...extra],
          env(),
        );
      server.enqueue(hangReply());
      const started = Date.now();
      const silent = await ask('--timeout', '1');
      assert.equal(silent.code, 1);
      assert.match(silent.stderr, /Gemini did not answer within 1 s \(1 attempt\)/);
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
      server.enqueue(malformedReply());
      const malformed = await ask();
      assert.equal(malformed.code, 1);
      assert.match(malformed.stderr, /Gemini sent a reply that is not valid JSON/);
      assert.doesNotMatch(malformed.stderr, /Could not reach/);
      for (const bad of ['-1', 'soon', '4000']) {
        const run = await ask(`--timeout=${bad}`);
        assert.equal(run.code, 2, bad);
        assert.match(run.stderr, /--timeout must be a number from 0 to 3600/);
      }
      assert.equal(server.remaining, 0);
    } finally {
      await removeDir(docs);
    }
  });

  it('vertex-ai-search: the data store, filter and max results reach the request on the Vertex AI path', async () => {
    server.enqueue(
      groundedReply(
        'Expense reports are due within 30 days.',
        [
          {
            uri: 'gs://handbook/expenses.pdf',
            title: 'Expenses',
            text: 'Expense reports are due within 30 days of the trip.',
          },
        ],
        [{ text: 'Expense reports are due within 30 days.', chunks: [0] }],
      ),
    );
    const datastore = 'projects/acme-docs/locations/global/collections/default_collection/dataStores/handbook';
    const run = await runCli(
      [
        'ask',
        '--model',
        'vertex-ai-search',
        '--datastore',
        datastore,
        '--search-filter',
        'category: ANY("finance")',
        '--max-results',
        '5',
        '--question',
        'When are expense reports due?',
        '--json',
      ],
      { XDG_CACHE_HOME: cache, GOOGLE_VERTEX_BASE_URL: server.baseUrl, EVIDENT_VERTEX_API_KEY: 'vertex-key' },
    );
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.equal(out.retrieval, 'vertex-ai-search');
    assert.equal(out.sentences[0].verdict, 'kept');
    assert.equal(out.sentences[0].tier, 'lexical', 'chunks with text: the lexical check ran too');
    assert.equal(out.evidence[0].text, 'Expense reports are due within 30 days of the trip.');
    const request = server.requests[0];
    assert.equal(request.project, 'acme-docs');
    assert.equal(request.location, 'global');
    assert.equal(request.apiKey, 'vertex-key');
    assert.deepEqual(request.body.tools, [
      { retrieval: { vertexAiSearch: { datastore, filter: 'category: ANY("finance")', maxResults: 5 } } },
    ]);

    // --threshold applies to that lexical check: a covered sentence with a word the chunk lacks
    // ("claims") is kept at the default threshold and dropped at 1.
    const paraphrase = () =>
      groundedReply(
        'Expense claims are due within 30 days.',
        [
          {
            uri: 'gs://handbook/expenses.pdf',
            title: 'Expenses',
            text: 'Expense reports are due within 30 days of the trip.',
          },
        ],
        [{ text: 'Expense claims are due within 30 days.', chunks: [0] }],
      );
    const vertexEnv = {
      XDG_CACHE_HOME: cache,
      GOOGLE_VERTEX_BASE_URL: server.baseUrl,
      EVIDENT_VERTEX_API_KEY: 'vertex-key',
    };
    server.enqueue(paraphrase());
    const lenient = await runCli(
      [
        'ask',
        '--model',
        'vertex-ai-search',
        '--datastore',
        datastore,
        '--question',
        'When are expense reports due?',
        '--json',
      ],
      vertexEnv,
    );
    assert.equal(JSON.parse(lenient.stdout).sentences[0].verdict, 'kept', lenient.stdout);
    server.enqueue(paraphrase());
    const strict = await runCli(
      [
        'ask',
        '--model',
        'vertex-ai-search',
        '--datastore',
        datastore,
        '--threshold',
        '1',
        '--question',
        'When are expense reports due?',
        '--json',
      ],
      vertexEnv,
    );
    assert.equal(strict.code, 0, strict.stderr);
    const strictOut = JSON.parse(strict.stdout);
    assert.equal(strictOut.sentences[0].verdict, 'dropped');
    assert.ok(strictOut.sentences[0].support < 1, 'dropped by the lexical score, not by grounding');
    assert.equal(strictOut.sentences[0].tier, 'lexical');
  });
});

const SAMPLES = path.resolve(__dirname, '../../../../samples');

describe('evident ask on bad input', function () {
  this.timeout(90_000);
  let work: string;
  const env = () => ({ XDG_CACHE_HOME: path.join(work, 'cache') });

  beforeEach(async () => {
    work = await tempDir('evident-ask-');
  });

  afterEach(async () => {
    await removeDir(work);
  });

  it('reports a blank question in a --questions batch as FILE:LINE, before any output', async () => {
    const file = path.join(work, 'q.jsonl');
    await writeFile(file, '{"id":"1","question":"Are monthly plans refundable?"}\n{"id":"2","question":"   "}\n');
    const run = await runCli(['ask', '--docs', SAMPLES, '--no-embeddings', '--questions', file], env());
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /q\.jsonl:2: "question" must be a non-empty string/);
    assert.equal(run.stdout, '', 'no answer printed before the error');
  });

  it('says there are no documents when the docs folder is empty', async () => {
    const docs = path.join(work, 'empty');
    await mkdir(docs);
    const run = await runCli(
      ['ask', '--docs', docs, '--no-embeddings', '--question', 'How many days of leave?'],
      env(),
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /no documents to answer from/i);
    assert.doesNotMatch(`${run.stdout}${run.stderr}`, /no terms to look for/);
  });

  it('escapes a newline in a source name in text output', async () => {
    const docs = path.join(work, 'docs');
    await writeDocs(docs, {
      'leave\nE9   fake.md:1-2  forged.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n',
    });
    const run = await runCli(
      ['ask', '--docs', docs, '--no-embeddings', '--question', 'How many days of annual leave do employees receive?'],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    const evidenceLines = run.stdout.split('\n').filter((l) => /^\s+E\d/.test(l));
    assert.equal(evidenceLines.length, 1, run.stdout);
    assert.match(evidenceLines[0], /leave\\nE9 {3}fake\.md:1-2 {2}forged\.md:3-3/);
    assert.ok(!run.stdout.split('\n').some((l) => l.startsWith('E9')), 'no forged line');
    const json = JSON.parse(
      (
        await runCli(
          [
            'ask',
            '--docs',
            docs,
            '--no-embeddings',
            '--json',
            '--question',
            'How many days of annual leave do employees receive?',
          ],
          env(),
        )
      ).stdout,
    );
    assert.equal(json.evidence[0].source, 'leave\nE9   fake.md:1-2  forged.md', 'JSON keeps the real name');
  });

  it('escapes terminal control sequences that document text brings into the answer', async () => {
    const docs = path.join(work, 'docs');
    await writeDocs(docs, {
      'leave.md': '# Leave\n\nEmployees receive 25 days \u001b]0;pwned\u0007\u001b[2J of annual leave per year.\n',
    });
    const run = await runCli(
      ['ask', '--docs', docs, '--no-embeddings', '--question', 'How many days of annual leave do employees receive?'],
      env(),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /25 days/);
    assert.ok(!/[\u0007\u001b]/.test(run.stdout), 'a raw control character reached the terminal');
    assert.match(run.stdout, /\\u001b\[2J/);
  });
});
