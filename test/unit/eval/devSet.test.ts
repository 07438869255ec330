// Keeps the retrieval and answer dev set (eval/dev/) honest against the two shared corpora it is
// written for: lines in the `evident eval --set` shape, questions phrased by people rather than
// copied (no run of 6 words shared with any document), every answerable question answered in its
// gold files by its keywords, and every unanswerable one proven uncovered by the patterns in
// eval/dev/absent-facts.json (the asked fact appears nowhere in the files that discuss the topic).

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { EvalQuestion } from '../../../src/core/eval/evaluation';
import {
  CORPUS_NAMES,
  describeWithCorpora,
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

const DEV = join(ROOT, 'eval', 'dev');

describeWithCorpora('dev set (eval/dev/) over the shared corpora', function () {
  const docs = new Map<CorpusName, Map<string, string>>();
  const sets = new Map<CorpusName, EvalQuestion[]>();
  let proofs: Record<string, AbsenceProof>;

  before(async function () {
    for (const name of CORPUS_NAMES) {
      docs.set(name, await readCorpus(name));
      sets.set(name, await readQuestions(join(DEV, `${name}.jsonl`)));
    }
    proofs = await readProofs(join(DEV, 'absent-facts.json'));
  });

  const all = (): EvalQuestion[] => [...sets.values()].flat();

  it('holds at least 120 questions with unique ids, at least a quarter of them unanswerable', () => {
    const items = all();
    assert.ok(items.length >= 120, `questions: ${items.length}`);
    assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'duplicate ids');
    const unanswerable = items.filter((i) => !i.answerable).length;
    assert.ok(unanswerable / items.length >= 0.25, `unanswerable: ${unanswerable} of ${items.length}`);
    for (const [name, items] of sets) assert.ok(items.filter((i) => !i.answerable).length >= 15, `${name}: too few unanswerable questions`);
  });

  it('phrases every question as people ask, never copying a run of 6 words from a document', () => {
    assert.deepEqual(setCopyProblems({ docs, sets }, 6), []);
  });

  it('answers every answerable question in its gold files, with 1–3 keywords found there and not given away', () => {
    assert.deepEqual(setKeywordProblems({ docs, sets }), []);
  });

  it('proves every unanswerable question uncovered: the asked fact matches nothing in the files on its topic', () => {
    assert.deepEqual(setAbsenceProblems({ docs, sets }, proofs), []);
  });
});
