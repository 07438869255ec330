// Keeps the generalisation sets (eval/generalisation/, -2/ … -8/) what they claim
// to be: new questions, never tuned on, over the two shared corpora. Lines in the `evident eval
// --set` shape with ids of their set and corpus; no id or question shared with the dev sets
// (eval/dev/, the follow-ups included) nor with an earlier generalisation set; at least 100
// questions, a third of them unanswerable near-misses; phrased by people (no run of 5 words copied
// from a document, stricter than the dev set's 6); every answerable question answered in its gold
// files by its keywords; every unanswerable one proven uncovered by the patterns in the set's
// absent-facts.json.

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

const EVAL = join(ROOT, 'eval');
const DEV = join(EVAL, 'dev');
const FIELDS = ['answer_keywords', 'answerable', 'gold_files', 'id', 'question'];

interface GeneralisationSet {
  /** Its folder under eval/. */
  folder: string;
  idPrefix: Record<CorpusName, string>;
}

const SETS: GeneralisationSet[] = [
  { folder: 'generalisation', idPrefix: { 'site-policy': 'gen-sp-', '18f-handbook': 'gen-18f-' } },
  // Written in session 4, after the first set had been measured once (and so became tuning data).
  {
    folder: 'generalisation-2',
    idPrefix: { 'site-policy': 'gen2-sp-', '18f-handbook': 'gen2-18f-' },
  },
  // Written in session 5, after the second set had been measured once (and so became tuning data).
  {
    folder: 'generalisation-3',
    idPrefix: { 'site-policy': 'gen3-sp-', '18f-handbook': 'gen3-18f-' },
  },
  // Written in session 6, after the third set had been measured once (and so became tuning data).
  {
    folder: 'generalisation-4',
    idPrefix: { 'site-policy': 'gen4-sp-', '18f-handbook': 'gen4-18f-' },
  },
  // Written in session 7, after the fourth set had been measured once (and so became tuning data).
  {
    folder: 'generalisation-5',
    idPrefix: { 'site-policy': 'gen5-sp-', '18f-handbook': 'gen5-18f-' },
  },
  // Written in session 8, after the fifth set had been measured (at the start and end of session 7) and so became tuning data.
  {
    folder: 'generalisation-6',
    idPrefix: { 'site-policy': 'gen6-sp-', '18f-handbook': 'gen6-18f-' },
  },
  // Written in session 9 (ids gen9-: gen7- and gen8- name questions of eval/answers-fresh-5/ and -6/).
  {
    folder: 'generalisation-7',
    idPrefix: { 'site-policy': 'gen9-sp-', '18f-handbook': 'gen9-18f-' },
  },
  // Written in session 10 (ids gen10-: gen10a- names the questions of eval/answers-fresh-7/).
  {
    folder: 'generalisation-8',
    idPrefix: { 'site-policy': 'gen10-sp-', '18f-handbook': 'gen10-18f-' },
  },
];

for (const [i, set] of SETS.entries()) {
  /** The sets written before it (folders under eval/): it must repeat none of them, nor the dev sets. */
  const earlier = SETS.slice(0, i).map((s) => s.folder);
  const folder = join(EVAL, set.folder);

  describeWithCorpora(`generalisation set (eval/${set.folder}/) over the shared corpora`, function () {
    const docs = new Map<CorpusName, Map<string, string>>();
    const sets = new Map<CorpusName, EvalQuestion[]>();
    /** The questions this set must not repeat, by where they come from. */
    const taken = new Map<string, EvalQuestion[]>();
    let proofs: Record<string, AbsenceProof>;

    before(async function () {
      const dev: EvalQuestion[] = [];
      for (const name of CORPUS_NAMES) {
        docs.set(name, await readCorpus(name));
        sets.set(name, await readQuestions(join(folder, `${name}.jsonl`)));
        for (const file of [`${name}.jsonl`, `followups-${name}.jsonl`]) dev.push(...(await readQuestions(join(DEV, file))));
      }
      taken.set('eval/dev/', dev);
      for (const folder of earlier) {
        const items: EvalQuestion[] = [];
        for (const name of CORPUS_NAMES) items.push(...(await readQuestions(join(EVAL, folder, `${name}.jsonl`))));
        taken.set(`eval/${folder}/`, items);
      }
      proofs = await readProofs(join(folder, 'absent-facts.json'));
    });

    const all = (): EvalQuestion[] => [...sets.values()].flat();

    it('is in the `evident eval --set` shape, each id named for its set and corpus', () => {
      for (const [name, items] of sets) {
        for (const item of items) {
          assert.deepEqual(Object.keys(item).sort(), FIELDS, `${item.id}: fields`);
          const prefix = set.idPrefix[name];
          assert.ok(item.id.startsWith(prefix), `${item.id}: ids in ${name}.jsonl start with ${prefix}`);
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

    const others = earlier.length ? `the dev sets and ${earlier.map((f) => `eval/${f}/`).join(', ')}` : 'the dev sets';
    it(`shares no id and no question with ${others}, and repeats none of its own`, () => {
      const items = all();
      assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'duplicate ids');
      assert.equal(new Set(items.map((i) => normalizedQuestion(i.question))).size, items.length, 'a question asked twice');
      for (const [where, theirs] of taken) {
        const ids = new Set(theirs.map((i) => i.id));
        const questions = new Set(theirs.map((i) => normalizedQuestion(i.question)));
        assert.deepEqual(items.filter((i) => ids.has(i.id)).map((i) => i.id), [], `ids also in ${where}`);
        assert.deepEqual(
          items.filter((i) => questions.has(normalizedQuestion(i.question))).map((i) => i.id),
          [],
          `questions also in ${where}`,
        );
      }
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
}
