// Keeps the generalisation set (eval/generalisation/) what it claims to be: new questions, never
// tuned on, over the two shared corpora. Lines in the `evident eval --set` shape with ids of their
// corpus; no id or question shared with the dev sets (eval/dev/, the follow-ups included); at
// least 100 questions, a third of them unanswerable near-misses; phrased by people (no run of 5
// words copied from a document, stricter than the dev set's 6); every answerable question answered
// in its gold files by its keywords; every unanswerable one proven uncovered by the patterns in
// eval/generalisation/absent-facts.json.

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { EvalQuestion } from '../../../src/core/eval/evaluation';
import {
  CORPUS_NAMES,
  describeWithCorpora,
  normalizedQuestion,
  readCorpus,
  readProofs,
  readQuestions,
  ROOT,
  setAbsenceProblems,
  setCopyProblems,
  setKeywordProblems,
  type AbsenceProof,
  type CorpusName,
} from '../../support/evalSets';

const GENERALISATION = join(ROOT, 'eval', 'generalisation');
const DEV = join(ROOT, 'eval', 'dev');
const ID_PREFIX: Record<CorpusName, string> = { 'site-policy': 'gen-sp-', '18f-handbook': 'gen-18f-' };
const FIELDS = ['answer_keywords', 'answerable', 'gold_files', 'id', 'question'];

describeWithCorpora('generalisation set (eval/generalisation/) over the shared corpora', function () {
  const docs = new Map<CorpusName, Map<string, string>>();
  const sets = new Map<CorpusName, EvalQuestion[]>();
  const dev: EvalQuestion[] = [];
  let proofs: Record<string, AbsenceProof>;

  before(async function () {
    for (const name of CORPUS_NAMES) {
      docs.set(name, await readCorpus(name));
      sets.set(name, await readQuestions(join(GENERALISATION, `${name}.jsonl`)));
      for (const file of [`${name}.jsonl`, `followups-${name}.jsonl`]) dev.push(...(await readQuestions(join(DEV, file))));
    }
    proofs = await readProofs(join(GENERALISATION, 'absent-facts.json'));
  });

  const all = (): EvalQuestion[] => [...sets.values()].flat();

  it('is in the `evident eval --set` shape, each id named for its corpus', () => {
    for (const [name, items] of sets) {
      for (const item of items) {
        assert.deepEqual(Object.keys(item).sort(), FIELDS, `${item.id}: fields`);
        assert.ok(item.id.startsWith(ID_PREFIX[name]), `${item.id}: ids in ${name}.jsonl start with ${ID_PREFIX[name]}`);
      }
    }
  });

  it('holds at least 100 questions, about half per corpus, at least a third of them unanswerable', () => {
    const items = all();
    assert.ok(items.length >= 100, `questions: ${items.length}`);
    for (const [name, own] of sets) {
      assert.ok(own.length >= items.length * 0.4, `${name}: ${own.length} of ${items.length} questions`);
      assert.ok(own.filter((i) => !i.answerable).length >= 15, `${name}: too few unanswerable questions`);
    }
    const unanswerable = items.filter((i) => !i.answerable).length;
    assert.ok(unanswerable * 3 >= items.length, `unanswerable: ${unanswerable} of ${items.length}`);
  });

  it('shares no id and no question with the dev sets, and repeats none of its own', () => {
    const items = all();
    assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'duplicate ids');
    assert.equal(new Set(items.map((i) => normalizedQuestion(i.question))).size, items.length, 'a question asked twice');
    const devIds = new Set(dev.map((i) => i.id));
    const devQuestions = new Set(dev.map((i) => normalizedQuestion(i.question)));
    assert.deepEqual(items.filter((i) => devIds.has(i.id)).map((i) => i.id), [], 'ids also in eval/dev/');
    assert.deepEqual(items.filter((i) => devQuestions.has(normalizedQuestion(i.question))).map((i) => i.id), [], 'questions also in eval/dev/');
  });

  it('phrases every question as people ask, never copying a run of 5 words from a document', () => {
    assert.deepEqual(setCopyProblems({ docs, sets }, 5), []);
  });

  it('answers every answerable question in its gold files, with 1–3 keywords found there and not given away', () => {
    assert.deepEqual(setKeywordProblems({ docs, sets }), []);
  });

  it('proves every unanswerable question uncovered: the asked fact matches nothing in the files on its topic', () => {
    assert.deepEqual(setAbsenceProblems({ docs, sets }, proofs), []);
  });
});
