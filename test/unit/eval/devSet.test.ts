// Keeps the retrieval and answer dev set (eval/dev/) honest against the two shared corpora it is
// written for: lines in the `evident eval --set` shape, questions phrased by people rather than
// copied (no run of 6 words shared with any document), every answerable question answered in its
// gold files by its keywords, and every unanswerable one proven uncovered by the patterns in
// eval/dev/absent-facts.json (the asked fact appears nowhere in the files that discuss the topic).

import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readJsonl } from '../../../src/core/jsonl';
import { checkEvalQuestion, type EvalQuestion } from '../../../src/core/eval/evaluation';

const ROOT = join(__dirname, '..', '..', '..');
const DEV = join(ROOT, 'eval', 'dev');
const CORPORA = join(ROOT, '..', 'shared', 'data', 'corpora');
const SETS = ['site-policy', '18f-handbook'] as const;

interface AbsenceProof {
  /** Files (relative to the corpus) that discuss the topic, or "*" for the whole corpus. */
  files: string[] | '*';
  /** Case-insensitive patterns, matched on whitespace-collapsed text; none may match. */
  absent: string[];
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

function words(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9$%]+/g, ' ').trim().split(' ').filter(Boolean);
}

/** Every 6-word run of a text, as space-joined strings. */
function sixWordRuns(text: string): string[] {
  const w = words(text);
  const runs: string[] = [];
  for (let i = 0; i + 6 <= w.length; i++) runs.push(w.slice(i, i + 6).join(' '));
  return runs;
}

describe('dev set (eval/dev/) over the shared corpora', function () {
  const docs = new Map<string, Map<string, string>>();
  const sets = new Map<string, EvalQuestion[]>();
  let proofs: Record<string, AbsenceProof>;

  before(async function () {
    if (!existsSync(CORPORA)) this.skip(); // the shared corpora are outside the repository
    for (const name of SETS) {
      const files = new Map<string, string>();
      for (const file of await markdownFiles(join(CORPORA, name))) files.set(file, await readFile(join(CORPORA, name, file), 'utf8'));
      docs.set(name, files);
      sets.set(name, await readJsonl<EvalQuestion>(join(DEV, `${name}.jsonl`), checkEvalQuestion));
    }
    proofs = JSON.parse(await readFile(join(DEV, 'absent-facts.json'), 'utf8')) as Record<string, AbsenceProof>;
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
    for (const [name, items] of sets) {
      const runs = new Set<string>();
      for (const text of docs.get(name)!.values()) for (const run of sixWordRuns(text)) runs.add(run);
      for (const item of items) {
        for (const run of sixWordRuns(item.question)) assert.ok(!runs.has(run), `${item.id}: "${run}" is copied from a ${name} document`);
      }
    }
  });

  it('answers every answerable question in its gold files, with 1–3 keywords found there and not given away', () => {
    for (const [name, items] of sets) {
      const files = docs.get(name)!;
      for (const item of items.filter((i) => i.answerable)) {
        assert.ok(item.answer_keywords.length >= 1 && item.answer_keywords.length <= 3, `${item.id}: keyword count`);
        assert.ok(item.gold_files.length >= 1, `${item.id}: no gold file`);
        for (const gold of item.gold_files) assert.ok(files.has(gold), `${item.id}: gold file ${gold} is not in ${name}`);
        for (const keyword of item.answer_keywords) {
          const found = item.gold_files.some((gold) => files.get(gold)!.toLowerCase().includes(keyword.toLowerCase()));
          assert.ok(found, `${item.id}: keyword "${keyword}" is in none of its gold files`);
          assert.ok(!item.question.toLowerCase().includes(keyword.toLowerCase()), `${item.id}: keyword "${keyword}" is given away by the question`);
        }
      }
    }
  });

  it('proves every unanswerable question uncovered: the asked fact matches nothing in the files on its topic', () => {
    const unanswerable = new Set(all().filter((i) => !i.answerable).map((i) => i.id));
    assert.deepEqual(Object.keys(proofs).filter((id) => !unanswerable.has(id)), [], 'proofs for questions that are not unanswerable');
    for (const [name, items] of sets) {
      const files = docs.get(name)!;
      for (const item of items.filter((i) => !i.answerable)) {
        assert.deepEqual([item.answer_keywords, item.gold_files], [[], []], `${item.id}: unanswerable items carry no keywords or gold files`);
        const proof = proofs[item.id];
        assert.ok(proof && proof.absent.length > 0, `${item.id}: add the patterns that prove it is not covered to absent-facts.json`);
        const scope = proof.files === '*' ? [...files.keys()] : proof.files;
        for (const file of scope) {
          assert.ok(files.has(file), `${item.id}: ${file} is not in ${name}`);
          const text = files.get(file)!.replace(/\s+/g, ' ');
          for (const pattern of proof.absent) {
            const match = new RegExp(pattern, 'i').exec(text);
            assert.equal(match, null, `${item.id}: ${file} mentions /${pattern}/ ("${match?.[0]}")`);
          }
        }
      }
    }
  });
});
