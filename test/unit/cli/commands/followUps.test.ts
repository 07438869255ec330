// Follow-ups through the CLI contract: `evident ask --questions` lines with "after" continue one
// conversation (a follow-up is answered as a standalone question, given as "answeredAs"; evidence
// ids stay per turn), and `evident eval` asks such lines after the turn they name. Bad "after"
// values are input errors named as FILE:LINE, before any answer.

import { strict as assert } from 'node:assert';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { runCli } from '../../../support/cli';
import { LEAVE_AND_TRAVEL_DOCS as DOCS } from '../../../support/engineFixture';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

describe('follow-ups in evident ask --questions and evident eval ("after")', function () {
  this.timeout(120_000);
  let work: string;
  let docs: string;
  const env = () => ({ XDG_CACHE_HOME: path.join(work, 'cache') });

  before(async () => {
    work = await tempDir('evident-followups-');
    docs = path.join(work, 'docs');
    await writeDocs(docs, DOCS);
  });

  after(async () => {
    await removeDir(work);
  });

  it('answers a follow-up as its standalone question, says so in "answeredAs", and answers a new subject alone', async () => {
    const file = path.join(work, 'chat.jsonl');
    await writeFile(
      file,
      [
        { id: 'q1', question: 'How many days of annual leave do employees get?' },
        { id: 'q2', after: 'q1', question: 'and for contractors?' },
        { id: 'q3', after: 'q2', question: 'Which class of travel is required for short flights?' },
        { id: 'q4', question: 'and for contractors?' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const run = await runCli(['ask', '--docs', docs, '--no-embeddings', '--questions', file], env());
    assert.equal(run.code, 0, run.stderr);
    const [first, second, third, alone] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown> & { answer: string; evidence: { id: string }[] });
    assert.equal(first.answeredAs, undefined, 'a first turn follows nothing');
    assert.match(first.answer, /25 days/);
    assert.equal(second.question, 'and for contractors?');
    assert.equal(second.answeredAs, 'How many days of annual leave do employees get — and for contractors?');
    assert.match(second.answer, /^Contractors get 10 days of annual leave per year \[E\d\]\.$/);
    assert.equal(second.evidence[0].id, 'E1', 'evidence ids are numbered per turn');
    assert.equal(
      third.answeredAs,
      'Which class of travel is required for short flights?',
      'a question that stands alone is answered as asked',
    );
    assert.match(third.answer, /Economy class/);
    assert.equal(alone.answeredAs, undefined, 'without "after" a line follows nothing');
  });

  it('refuses an "after" that names no earlier line, as FILE:LINE, before any answer', async () => {
    const file = path.join(work, 'bad.jsonl');
    await writeFile(
      file,
      '{"id":"q1","question":"How many days of annual leave do employees get?"}\n{"id":"q2","after":"q9","question":"and for contractors?"}\n',
    );
    const run = await runCli(['ask', '--docs', docs, '--no-embeddings', '--questions', file], env());
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /bad\.jsonl:2: "after" names "q9", which is not the id of an earlier line of this file/);
    assert.equal(run.stdout, '');
    await writeFile(file, '{"id":"q1","after":"q1","question":"How many days?"}\n');
    const self = await runCli(['ask', '--docs', docs, '--no-embeddings', '--questions', file], env());
    assert.equal(self.code, 2);
    assert.match(self.stderr, /bad\.jsonl:1: "after" names the line itself/);
  });

  it('evaluates a set with follow-ups as conversations, and reports how the follow-ups fared', async () => {
    const set = path.join(work, 'set.jsonl');
    await writeFile(
      set,
      [
        {
          id: 'q1',
          question: 'How many days of annual leave do employees get?',
          answerable: true,
          answer_keywords: ['25 days'],
          gold_files: ['leave.md'],
        },
        {
          id: 'q2',
          after: 'q1',
          question: 'and for contractors?',
          answerable: true,
          answer_keywords: ['10 days'],
          gold_files: ['leave.md'],
        },
        {
          id: 'q3',
          after: 'q2',
          selfContained: true,
          question: 'Which class of travel is required for short flights?',
          answerable: true,
          answer_keywords: ['Economy'],
          gold_files: ['travel.md'],
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const run = await runCli(['eval', '--docs', docs, '--no-embeddings', '--set', set, '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as {
      answerAccuracy: number;
      followUps: Record<string, number>;
      items: { id: string; answeredAs?: string }[];
    };
    assert.equal(report.answerAccuracy, 1, run.stdout);
    assert.deepEqual(report.followUps, {
      questions: 2,
      withRightFiles: 2,
      rightFileRetrieved: 2,
      rewritten: 1,
      selfContained: 1,
      selfContainedChanged: 0,
    });
    assert.equal(
      report.items.find((i) => i.id === 'q2')?.answeredAs,
      'How many days of annual leave do employees get — and for contractors?',
    );
  });
});
