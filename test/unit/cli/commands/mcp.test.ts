// `evident mcp`: the built CLI started as an MCP server and driven by the official SDK's client
// over stdio, as Claude Code or Cursor would: initialize, tools/list, both tools (the client checks
// each structuredContent against the listed outputSchema), bad arguments, a 1 MB answer, an
// unknown tool, and a document edited while the server runs. Logs must reach stderr only: a
// stray line on stdout would break the client's JSON-RPC stream. Then `evident mcp --store` on a
// shared index (a PGlite server speaking the PostgreSQL protocol), searched as its indexer keeps it.

import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CHECK_INPUT_SCHEMA,
  CHECK_OUTPUT_SCHEMA,
  SEARCH_INPUT_SCHEMA,
  SEARCH_OUTPUT_SCHEMA,
  type CheckAnswerResult,
  type ToolPassage as Passage,
} from '../../../../src/core/tools';
import { ensureBuiltCli } from '../../../support/builtCli';
import { runCli } from '../../../support/cli';
import { REFUND_AND_TRAVEL_DOCS } from '../../../support/engineFixture';
import { startTestPostgres, type TestPostgres } from '../../../support/pgliteServer';
import { tinyEmbeddingModelDir } from '../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

type CheckedSentence = CheckAnswerResult['sentences'][number];

const textOf = (result: object) =>
  ((result as { content?: unknown }).content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('evident mcp (the built CLI, through the SDK client over stdio)', function () {
  this.timeout(120_000);
  let docs: string;
  let work: string;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  before(async () => {
    const cli = ensureBuiltCli();
    docs = await tempDir();
    work = await tempDir('evident-mcp-');
    await writeDocs(docs, REFUND_AND_TRAVEL_DOCS);
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--docs', docs, '--index-dir', path.join(work, 'index'), '--no-embeddings'],
      env: { ...getDefaultEnvironment(), XDG_CACHE_HOME: path.join(work, 'cache'), HF_ENDPOINT: 'http://127.0.0.1:9' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'evident-test', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    await removeDir(docs);
    await removeDir(work);
  });

  it('initializes as "evident" with tools and instructions that say search, cite, then check', () => {
    assert.equal(client.getServerVersion()?.name, 'evident');
    assert.ok(client.getServerCapabilities()?.tools);
    assert.match(client.getInstructions() ?? '', /search_docs first.*\[E1\].*check_answer/);
  });

  it('lists search_docs and check_answer, read-only, with the input and output schemas of the core', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['search_docs', 'check_answer'],
    );
    const [search, check] = tools;
    assert.deepEqual(search.inputSchema, JSON.parse(JSON.stringify(SEARCH_INPUT_SCHEMA)));
    assert.deepEqual(search.outputSchema, JSON.parse(JSON.stringify(SEARCH_OUTPUT_SCHEMA)));
    assert.deepEqual(check.inputSchema, JSON.parse(JSON.stringify(CHECK_INPUT_SCHEMA)));
    assert.deepEqual(check.outputSchema, JSON.parse(JSON.stringify(CHECK_OUTPUT_SCHEMA)));
    for (const tool of tools) assert.equal(tool.annotations?.readOnlyHint, true);
    assert.match(search.description ?? '', /evidence id.*check_answer/s);
  });

  it('search_docs returns passages under ids, as structuredContent and as text', async () => {
    const result = await client.callTool({
      name: 'search_docs',
      arguments: { query: 'annual plans refundable', k: 2 },
    });
    assert.notEqual(result.isError, true, textOf(result));
    const { passages } = result.structuredContent as { passages: Passage[] };
    assert.deepEqual(
      passages.map((p) => p.id),
      ['E1', 'E2'],
    );
    assert.deepEqual(
      { ...passages[0], version: 'v' },
      {
        id: 'E1',
        source: 'refunds.md',
        startLine: 5,
        endLine: 5,
        heading: 'Refunds > Annual plans',
        text: 'Annual plans are refundable pro rata within 90 days of purchase.',
        version: 'v',
      },
    );
    assert.match(passages[0].version, /^[0-9a-f]{16}$/);
    assert.match(textOf(result), /\[E1\] refunds\.md:5-5 — Refunds > Annual plans/);
  });

  it('check_answer keeps what its ids back, drops a planted figure and an unknown id, and checks a sentence without id by retrieval', async () => {
    const answer = [
      'Annual plans are refundable pro rata within 90 days of purchase [E1].',
      'Annual plans are refundable pro rata within 45 days of purchase [E1].',
      'Monthly plans can be paused for a year [E42].',
      'Economy class is required for flights shorter than six hours.',
    ].join(' ');
    const result = await client.callTool({
      name: 'check_answer',
      arguments: { answer, question: 'What do the policies say?' },
    });
    assert.notEqual(result.isError, true, textOf(result));
    const { sentences, coverage } = result.structuredContent as { sentences: CheckedSentence[]; coverage: number };
    assert.deepEqual(
      sentences.map((s) => [s.verdict, s.route]),
      [
        ['kept', 'cited'],
        ['dropped', 'cited'],
        ['dropped', 'cited'],
        ['kept', 'retrieved'],
      ],
    );
    assert.deepEqual(sentences[0].evidence, [{ id: 'E1', source: 'refunds.md', startLine: 5, endLine: 5 }]);
    assert.match(sentences[1].reason, /^value-mismatch: '45 days' — the passage says 90 days/);
    assert.match(sentences[2].reason, /^unknown-id: E42/);
    assert.deepEqual(sentences[3].evidence, [{ source: 'travel.md', startLine: 3, endLine: 3 }]);
    assert.equal(coverage, 0.5);
    assert.match(textOf(result), /^2 of 4 factual sentences backed by the documents \(coverage 50%\); 2 dropped/);
  });

  it('answers a bad argument with a tool error the agent can read, and an unknown tool with a JSON-RPC error', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['search_docs', { query: 5 }, /search_docs needs "query" as a string/],
      ['search_docs', {}, /search_docs needs "query" as a string/],
      ['search_docs', { query: 'refunds', k: 99 }, /"k" must be a whole number from 1 to 50/],
      ['check_answer', { answer: 'x', extra: true }, /check_answer has no argument "extra"/],
    ];
    for (const [name, args, message] of cases) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} was not an error`);
      assert.match(textOf(result), message);
    }
    await assert.rejects(
      client.callTool({ name: 'delete_docs', arguments: {} }),
      (e: Error & { code?: number }) => e.code === -32602 && /Unknown tool "delete_docs"/.test(e.message),
    );
  });

  it('bounds a 1 MB answer with a clear message, and goes on serving', async () => {
    const answer = 'Annual plans are refundable pro rata within 90 days of purchase [E1]. '.repeat(15_000);
    assert.ok(answer.length >= 1_000_000);
    const result = await client.callTool({ name: 'check_answer', arguments: { answer } });
    assert.equal(result.isError, true);
    assert.match(
      textOf(result),
      /"answer" is 1,050,000 characters long; at most 50,000 are accepted\. Check the answer in parts/,
    );
    const after = await client.callTool({ name: 'search_docs', arguments: { query: 'economy class' } });
    assert.notEqual(after.isError, true);
  });

  it('keeps the index current: a document added while it runs is found by the next search', async () => {
    await writeFile(path.join(docs, 'parking.md'), '# Parking\n\nVisitors park in the north garage on level two.\n');
    // The freshness check runs at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'visitors park garage' } });
    const { passages } = result.structuredContent as { passages: Passage[] };
    assert.equal(passages[0]?.source, 'parking.md', JSON.stringify(passages));
  });

  it('keeps the SDK in its own bundle: the CLI requires it only for evident mcp, the extension and engine never', () => {
    const dist = path.resolve(__dirname, '../../../../dist');
    for (const bundle of ['cli.js', 'engine.js', 'extension.js']) {
      assert.doesNotMatch(
        readFileSync(path.join(dist, bundle), 'utf8'),
        /node_modules\/@modelcontextprotocol\/sdk/,
        `${bundle} holds the MCP SDK`,
      );
    }
    assert.match(
      readFileSync(path.join(dist, 'mcpSdk.js'), 'utf8'),
      /node_modules\/@modelcontextprotocol\/sdk\/dist\/(?:cjs|esm)\/server\/index\.js/,
    );
    assert.match(
      readFileSync(path.join(dist, 'cli.js'), 'utf8'),
      /import\("\.\/mcpSdk\.js"\)/,
      'the CLI loads the SDK bundle beside it, on demand',
    );
  });

  it('refuses a line that is not JSON-RPC on stderr and goes on serving', async () => {
    const child = spawn(
      process.execPath,
      [ensureBuiltCli(), 'mcp', '--docs', docs, '--index-dir', path.join(work, 'index-raw'), '--no-embeddings'],
      {
        env: {
          ...getDefaultEnvironment(),
          XDG_CACHE_HOME: path.join(work, 'cache'),
          HF_ENDPOINT: 'http://127.0.0.1:9',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      child.stdin.write('this is not JSON\n');
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
      );
      const deadline = Date.now() + 30_000;
      while (!out.includes('"id":1') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.match(out, /"serverInfo":\{"name":"evident"/, `no initialize answer; stderr: ${err}`);
      assert.match(err, /evident mcp: protocol error: /);
      assert.equal(
        out
          .split('\n')
          .filter((l) => l.trim())
          .every((l) => JSON.parse(l).jsonrpc === '2.0'),
        true,
        'stdout carries JSON-RPC only',
      );
    } finally {
      child.kill();
    }
  });

  it('logs to stderr only (the JSON-RPC stream on stdout stayed clean throughout)', () => {
    assert.match(stderr, /evident mcp: serving search_docs and check_answer on stdio/);
    assert.doesNotMatch(stderr, /Error: |at .*\.js:\d+/, 'a stack trace reached stderr');
  });
});

describe('evident mcp --store (a shared index on a PGlite server, through the SDK client over stdio)', function () {
  this.timeout(120_000);
  let server: TestPostgres;
  let docs: string;
  let cache: string;
  let model: string;
  let client: Client;

  before(async () => {
    server = await startTestPostgres({ kind: 'pglite' });
    model = await tinyEmbeddingModelDir();
    docs = await tempDir();
    cache = await tempDir('evident-mcp-store-');
    await writeDocs(docs, REFUND_AND_TRAVEL_DOCS);
    const indexed = await runCli(
      ['index', '--docs', docs, '--store', server.url, '--embedding-model', model, '--offline'],
      { XDG_CACHE_HOME: cache },
    );
    assert.equal(indexed.code, 0, indexed.stderr);
    client = new Client({ name: 'evident-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [ensureBuiltCli(), 'mcp', '--store', server.url, '--embedding-model', model, '--offline'],
        env: { ...getDefaultEnvironment(), XDG_CACHE_HOME: cache },
        stderr: 'pipe',
      }),
    );
  });

  after(async () => {
    await client?.close();
    await server?.stop();
    await removeDir(docs);
    await removeDir(cache);
  });

  it('searches and checks against the shared index, and indexes nothing itself: an edit shows once the indexer has run', async () => {
    const found = await client.callTool({ name: 'search_docs', arguments: { query: 'annual plans refundable', k: 1 } });
    assert.notEqual(found.isError, true, textOf(found));
    const [annual] = (found.structuredContent as { passages: Passage[] }).passages;
    assert.deepEqual(
      [annual.id, annual.source, annual.text],
      ['E1', 'refunds.md', 'Annual plans are refundable pro rata within 90 days of purchase.'],
    );
    const checked = await client.callTool({
      name: 'check_answer',
      arguments: {
        answer:
          'Annual plans are refundable pro rata within 90 days of purchase [E1]. Annual plans are refundable pro rata within 30 days of purchase.',
      },
    });
    const { sentences } = checked.structuredContent as { sentences: CheckedSentence[] };
    assert.deepEqual(
      sentences.map((s) => [s.verdict, s.route]),
      [
        ['kept', 'cited'],
        ['dropped', 'retrieved'],
      ],
    );

    await writeFile(path.join(docs, 'parking.md'), '# Parking\n\nVisitors park in the north garage on level two.\n');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const query = { name: 'search_docs', arguments: { query: 'visitors park north garage', k: 1 } };
    const before = (await client.callTool(query)).structuredContent as { passages: Passage[] };
    assert.notEqual(before.passages[0]?.source, 'parking.md', 'the server indexed the shared index itself');
    const reindexed = await runCli(
      ['index', '--docs', docs, '--store', server.url, '--embedding-model', model, '--offline'],
      { XDG_CACHE_HOME: cache },
    );
    assert.equal(reindexed.code, 0, reindexed.stderr);
    const after = (await client.callTool(query)).structuredContent as { passages: Passage[] };
    assert.equal(after.passages[0]?.source, 'parking.md', JSON.stringify(after.passages));
  });
});
