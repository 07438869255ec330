// Checks shared by the tests that keep the question sets under eval/ honest against the shared
// corpora they are written for (../shared/data/corpora, outside the repository): the corpora's
// Markdown read once, the copied-words rule, keywords found in gold files, and the absence proofs
// of unanswerable questions. Each check returns the problems it found (empty when the set is
// sound), so that a test reports all of them at once.

import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readJsonl } from '../../src/core/jsonl';
import { checkEvalQuestion, type EvalQuestion } from '../../src/core/eval/evaluation';
import {
  CORPORA,
  corporaMissing as sharedCorporaMissing,
  describeWithCorpora as describeWithSharedCorpora,
} from './sharedData';

export const ROOT = join(__dirname, '..', '..');
export { CORPORA };
export const CORPUS_NAMES = ['site-policy', '18f-handbook'] as const;
export type CorpusName = (typeof CORPUS_NAMES)[number];

/** Why the corpus checks cannot run here, or undefined when the corpora are present. */
export function corporaMissing(): string | undefined {
  return sharedCorporaMissing(CORPUS_NAMES);
}

/** A describe block over the corpora, or a skipped one whose title says why. */
export function describeWithCorpora(title: string, body: (this: Mocha.Suite) => void): void {
  describeWithSharedCorpora(CORPUS_NAMES, title, body);
}

/** Every Markdown file of a corpus by its path relative to the corpus folder ('/'-separated). */
export async function readCorpus(name: CorpusName): Promise<Map<string, string>> {
  const dir = join(CORPORA, name);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
  const files = new Map<string, string>();
  for (const path of paths) files.set(path, await readFile(join(dir, path), 'utf8'));
  return files;
}

export async function readQuestions<T extends EvalQuestion = EvalQuestion>(file: string): Promise<T[]> {
  return readJsonl<T>(file, checkEvalQuestion);
}

/** A question reduced to its words: what "the same question" means when sets are compared. */
export function normalizedQuestion(text: string): string {
  return words(text).join(' ');
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9$%]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

/** Every run of n consecutive words of a text, as space-joined strings. */
export function wordRuns(text: string, n: number): string[] {
  const w = words(text);
  const runs: string[] = [];
  for (let i = 0; i + n <= w.length; i++) runs.push(w.slice(i, i + n).join(' '));
  return runs;
}

export function corpusRuns(files: Map<string, string>, n: number): Set<string> {
  const runs = new Set<string>();
  for (const text of files.values()) for (const run of wordRuns(text, n)) runs.add(run);
  return runs;
}

/** Runs of n words that a text copies from the corpus whose runs are given. */
export function copiedRuns(id: string, text: string, runs: Set<string>, n: number): string[] {
  return wordRuns(text, n)
    .filter((run) => runs.has(run))
    .map((run) => `${id}: "${run}" is copied from a document`);
}

/**
 * An answerable question is answered in its gold files: 1–3 keywords, each in some gold file,
 * none given away by the texts the question is asked as (the question, and for a follow-up its
 * standalone rewrite).
 */
export function keywordProblems(item: EvalQuestion, files: Map<string, string>, askedAs: string[]): string[] {
  const problems: string[] = [];
  if (item.answer_keywords.length < 1 || item.answer_keywords.length > 3) {
    problems.push(`${item.id}: ${item.answer_keywords.length} keywords (1–3 expected)`);
  }
  if (item.gold_files.length < 1) problems.push(`${item.id}: no gold file`);
  for (const gold of item.gold_files) {
    if (!files.has(gold)) problems.push(`${item.id}: gold file ${gold} is not in the corpus`);
  }
  for (const keyword of item.answer_keywords) {
    const lower = keyword.toLowerCase();
    if (!item.gold_files.some((gold) => files.get(gold)?.toLowerCase().includes(lower))) {
      problems.push(`${item.id}: keyword "${keyword}" is in none of its gold files`);
    }
    for (const text of askedAs) {
      if (text.toLowerCase().includes(lower)) {
        problems.push(`${item.id}: keyword "${keyword}" is given away by "${text}"`);
      }
    }
  }
  return problems;
}

export interface AbsenceProof {
  /** Files (relative to the corpus) that discuss the topic, or "*" for the whole corpus. */
  files: string[] | '*';
  /** Case-insensitive patterns, matched on whitespace-collapsed text; none may match. */
  absent: string[];
}

export async function readProofs(file: string): Promise<Record<string, AbsenceProof>> {
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, AbsenceProof>;
}

/**
 * An unanswerable question carries no keywords or gold files, and its proof holds: the asked
 * fact matches none of its patterns in the files on its topic.
 */
export function absenceProblems(
  item: EvalQuestion,
  proof: AbsenceProof | undefined,
  files: Map<string, string>,
): string[] {
  const problems: string[] = [];
  if (item.answer_keywords.length || item.gold_files.length) {
    problems.push(`${item.id}: unanswerable items carry no keywords or gold files`);
  }
  if (!proof || proof.absent.length === 0) {
    return [...problems, `${item.id}: no proof (the patterns that show the fact is absent)`];
  }
  const scope = proof.files === '*' ? [...files.keys()] : proof.files;
  if (scope.length === 0) problems.push(`${item.id}: the proof names no file`);
  for (const file of scope) {
    const text = files.get(file)?.replace(/\s+/g, ' ');
    if (text === undefined) {
      problems.push(`${item.id}: ${file} is not in the corpus`);
      continue;
    }
    for (const pattern of proof.absent) {
      const match = new RegExp(pattern, 'i').exec(text);
      if (match) problems.push(`${item.id}: ${file} mentions /${pattern}/ ("${match[0]}")`);
    }
  }
  return problems;
}

/** A set of each corpus, with the corpus's documents: what the checks below run over. */
export interface CorpusSets<T extends EvalQuestion> {
  docs: Map<CorpusName, Map<string, string>>;
  sets: Map<CorpusName, T[]>;
}

const asQuestion = (item: EvalQuestion): string[] => [item.question];

/** Every copied run of n words, over every set; `askedAs` gives the texts of an item to check. */
export function setCopyProblems<T extends EvalQuestion>(
  { docs, sets }: CorpusSets<T>,
  n: number,
  askedAs: (item: T) => string[] = asQuestion,
): string[] {
  return [...sets].flatMap(([name, items]) => {
    const runs = corpusRuns(docs.get(name)!, n);
    return items.flatMap((item) => askedAs(item).flatMap((text) => copiedRuns(item.id, text, runs, n)));
  });
}

/** keywordProblems for every answerable item of every set. */
export function setKeywordProblems<T extends EvalQuestion>(
  { docs, sets }: CorpusSets<T>,
  askedAs: (item: T) => string[] = asQuestion,
): string[] {
  return [...sets].flatMap(([name, items]) =>
    items.filter((i) => i.answerable).flatMap((item) => keywordProblems(item, docs.get(name)!, askedAs(item))),
  );
}

/** absenceProblems for every unanswerable item of every set, and any proof that proves no unanswerable item. */
export function setAbsenceProblems<T extends EvalQuestion>(
  { docs, sets }: CorpusSets<T>,
  proofs: Record<string, AbsenceProof>,
): string[] {
  const unanswerable = new Set(
    [...sets.values()]
      .flat()
      .filter((i) => !i.answerable)
      .map((i) => i.id),
  );
  const stray = Object.keys(proofs)
    .filter((id) => !unanswerable.has(id))
    .map((id) => `${id}: a proof for a line that is not an unanswerable question`);
  return [
    ...stray,
    ...[...sets].flatMap(([name, items]) =>
      items.filter((i) => !i.answerable).flatMap((item) => absenceProblems(item, proofs[item.id], docs.get(name)!)),
    ),
  ];
}
