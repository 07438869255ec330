// Keeps the follow-up dev set (eval/dev/followups-*.jsonl) sound: conversations whose first line
// is an `evident eval --set` record and whose follow-ups add `after` (an earlier line of the same
// file) and `standalone` (the self-contained question a good rewrite produces), with
// `selfContained: true` on a follow-up that changes subject and needs no rewrite. At least 40
// follow-ups over both corpora, about ten of them unanswerable, the two shapes of the issue that
// asked for the set included; phrased by people (no run of 5 words copied from a document, in the
// question or its rewrite); keywords found in gold files; absence proofs in
// eval/dev/followups-absent-facts.json.

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

/** A line of the follow-up set: a first turn, or a follow-up when `after` is set. */
interface FollowUpLine extends EvalQuestion {
  after?: string;
  standalone?: string;
  selfContained?: boolean;
}

const DEV = join(ROOT, 'eval', 'dev');
const GENERALISATION = join(ROOT, 'eval', 'generalisation');
const ID_PREFIX: Record<CorpusName, string> = { 'site-policy': 'fu-sp-', '18f-handbook': 'fu-18f-' };
const FIRST_FIELDS = ['answer_keywords', 'answerable', 'gold_files', 'id', 'question'];
const FOLLOW_UP_FIELDS = [...FIRST_FIELDS, 'after', 'standalone'].sort();

const isFollowUp = (line: FollowUpLine): boolean => line.after !== undefined;
/** The texts a line is asked as: the question, and for a follow-up its standalone rewrite. */
const askedAs = (line: FollowUpLine): string[] => (line.standalone === undefined ? [line.question] : [line.question, line.standalone]);

describeWithCorpora('follow-up dev set (eval/dev/followups-*.jsonl) over the shared corpora', function () {
  const docs = new Map<CorpusName, Map<string, string>>();
  const sets = new Map<CorpusName, FollowUpLine[]>();
  const others: EvalQuestion[] = [];
  const generalisation: EvalQuestion[] = [];
  let proofs: Record<string, AbsenceProof>;

  before(async function () {
    for (const name of CORPUS_NAMES) {
      docs.set(name, await readCorpus(name));
      sets.set(name, await readQuestions<FollowUpLine>(join(DEV, `followups-${name}.jsonl`)));
      others.push(...(await readQuestions(join(DEV, `${name}.jsonl`))));
      generalisation.push(...(await readQuestions(join(GENERALISATION, `${name}.jsonl`))));
    }
    proofs = await readProofs(join(DEV, 'followups-absent-facts.json'));
  });

  const all = (): FollowUpLine[] => [...sets.values()].flat();
  const followUps = (): FollowUpLine[] => all().filter(isFollowUp);

  it('chains every follow-up to an earlier line of its conversation file, with its standalone rewrite', () => {
    for (const [name, lines] of sets) {
      const seen = new Set<string>();
      assert.ok(lines.length > 0 && !isFollowUp(lines[0]), `${name}: the file starts with a first turn`);
      for (const line of lines) {
        assert.ok(line.id.startsWith(ID_PREFIX[name]), `${line.id}: ids in followups-${name}.jsonl start with ${ID_PREFIX[name]}`);
        if (!isFollowUp(line)) {
          assert.deepEqual(Object.keys(line).sort(), FIRST_FIELDS, `${line.id}: fields of a first turn`);
        } else {
          const fields = Object.keys(line).filter((key) => key !== 'selfContained').sort();
          assert.deepEqual(fields, FOLLOW_UP_FIELDS, `${line.id}: fields of a follow-up`);
          assert.ok(seen.has(line.after!), `${line.id}: "after" names ${line.after}, not an earlier line of this file`);
          assert.ok(typeof line.standalone === 'string' && line.standalone.trim().length > 0, `${line.id}: "standalone" must be a question`);
          assert.ok(line.selfContained === undefined || line.selfContained === true, `${line.id}: "selfContained" is true or absent`);
          if (line.selfContained) assert.equal(line.standalone, line.question, `${line.id}: a self-contained follow-up is its own rewrite`);
          else assert.notEqual(normalizedQuestion(line.standalone!), normalizedQuestion(line.question), `${line.id}: an elliptical follow-up needs a rewrite`);
        }
        seen.add(line.id);
      }
    }
  });

  it('holds at least 40 follow-ups over both corpora: about ten unanswerable, some self-contained', () => {
    const lines = followUps();
    assert.ok(lines.length >= 40, `follow-ups: ${lines.length}`);
    for (const [name, own] of sets) assert.ok(own.filter(isFollowUp).length >= 15, `${name}: too few follow-ups`);
    assert.ok(lines.filter((l) => !l.answerable).length >= 8, `unanswerable follow-ups: ${lines.filter((l) => !l.answerable).length}`);
    assert.ok(lines.filter((l) => l.selfContained).length >= 4, `self-contained follow-ups: ${lines.filter((l) => l.selfContained).length}`);
  });

  it("includes the issue's two shapes: a part-time follow-up to a travel question, a travel question after leave questions", () => {
    const lines = sets.get('18f-handbook')!;
    const byId = new Map(lines.map((l) => [l.id, l]));
    const travel = (line: FollowUpLine | undefined): boolean => !!line?.gold_files.some((g) => g.includes('/travel-and-leave-policies/'));
    const leave = (line: FollowUpLine | undefined): boolean => !!line?.gold_files.includes('pages/travel-and-leave/leave.md');
    const partTime = lines.filter((l) => isFollowUp(l) && /^and for part-time staff\?$/i.test(l.question) && travel(byId.get(l.after!)));
    assert.ok(partTime.some((l) => !l.answerable), 'an unanswerable "and for part-time staff?" after a travel question');
    const travelAfterLeave = lines.filter((l) => l.selfContained && travel(l) && leave(byId.get(l.after!)) && leave(byId.get(byId.get(l.after!)!.after ?? '')));
    assert.ok(travelAfterLeave.length >= 1, 'a self-contained travel question after two leave questions');
  });

  it('shares no id with the other sets and no question with the generalisation set', () => {
    const lines = all();
    assert.equal(new Set(lines.map((l) => l.id)).size, lines.length, 'duplicate ids');
    const taken = new Set([...others, ...generalisation].map((i) => i.id));
    assert.deepEqual(lines.filter((l) => taken.has(l.id)).map((l) => l.id), [], 'ids also in another set');
    const held = new Set(generalisation.map((i) => normalizedQuestion(i.question)));
    assert.deepEqual(lines.filter((l) => askedAs(l).some((t) => held.has(normalizedQuestion(t)))).map((l) => l.id), [], 'questions of the generalisation set');
  });

  it('phrases every question and rewrite as people ask, never copying a run of 5 words from a document', () => {
    assert.deepEqual(setCopyProblems({ docs, sets }, 5, askedAs), []);
  });

  it('answers every answerable line in its gold files, with 1–3 keywords found there and given away by neither the question nor its rewrite', () => {
    assert.deepEqual(setKeywordProblems({ docs, sets }, askedAs), []);
  });

  it('proves every unanswerable line uncovered: the asked fact matches nothing in the files on its topic', () => {
    assert.deepEqual(setAbsenceProblems({ docs, sets }, proofs), []);
  });
});
