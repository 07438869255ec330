// `evident ask` on bad input: a blank question in a batch is reported with FILE:LINE before any
// answer; an empty docs folder says there are no documents; a source name with a newline (or
// a control sequence in a document) cannot print a fake line or drive the terminal.

import { strict as assert } from 'node:assert';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../../support/cli';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

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
    const run = await runCli(['ask', '--docs', docs, '--no-embeddings', '--question', 'How many days of leave?'], env());
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /no documents to answer from/i);
    assert.doesNotMatch(`${run.stdout}${run.stderr}`, /no terms to look for/);
  });

  it('escapes a newline in a source name in text output', async () => {
    const docs = path.join(work, 'docs');
    await writeDocs(docs, { 'leave\nE9   fake.md:1-2  forged.md': '# Leave\n\nEmployees receive 25 days of annual leave per year.\n' });
    const run = await runCli(['ask', '--docs', docs, '--no-embeddings', '--question', 'How many days of annual leave do employees receive?'], env());
    assert.equal(run.code, 0, run.stderr);
    const evidenceLines = run.stdout.split('\n').filter((l) => /^\s+E\d/.test(l));
    assert.equal(evidenceLines.length, 1, run.stdout);
    assert.match(evidenceLines[0], /leave\\nE9 {3}fake\.md:1-2 {2}forged\.md:3-3/);
    assert.ok(!run.stdout.split('\n').some((l) => l.startsWith('E9')), 'no forged line');
    const json = JSON.parse((await runCli(['ask', '--docs', docs, '--no-embeddings', '--json', '--question', 'How many days of annual leave do employees receive?'], env())).stdout);
    assert.equal(json.evidence[0].source, 'leave\nE9   fake.md:1-2  forged.md', 'JSON keeps the real name');
  });

  it('escapes terminal control sequences that document text brings into the answer', async () => {
    const docs = path.join(work, 'docs');
    await writeDocs(docs, { 'leave.md': '# Leave\n\nEmployees receive 25 days \u001b]0;pwned\u0007\u001b[2J of annual leave per year.\n' });
    const run = await runCli(['ask', '--docs', docs, '--no-embeddings', '--question', 'How many days of annual leave do employees receive?'], env());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /25 days/);
    assert.ok(!/[\u0007\u001b]/.test(run.stdout), 'a raw control character reached the terminal');
    assert.match(run.stdout, /\\u001b\[2J/);
  });
});
