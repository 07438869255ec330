// The dev set of model-shaped answers (eval/answers/): loading it, lining its labelled sentences
// up with the verifier's verdicts, and the figures of issue 21. The answers were written by a
// separate writer from the captured passages, before any verdict was seen; the split is theirs.

import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { SentenceVerdict, TurnResult } from '../../src/domain/types';
import type { CapturedPassage } from '../../test/support/answerReplay';

export const CORPORA = ['site-policy', '18f-handbook'] as const;
export type Corpus = (typeof CORPORA)[number];
export const LABELS = ['backed', 'exempt', 'planted', 'abstain-hedge'] as const;
export type Label = (typeof LABELS)[number];

export interface LabelledSentence {
  text: string;
  label: Label;
  note?: string;
}

export interface WrittenAnswer {
  id: string;
  questionId: string;
  corpus: Corpus;
  question: string;
  kind: 'faithful' | 'defect' | 'abstain';
  defect?: string;
  split: 'dev' | 'test';
  answer: string;
  sentences: LabelledSentence[];
}

export interface CapturedQuestion {
  questionId: string;
  corpus: Corpus;
  question: string;
  answerable: boolean;
  evidence: CapturedPassage[];
}

async function readJsonl<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line !== '')
    .map(([line, n]) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${file}:${n}: not JSON (${(error as Error).message})`);
      }
    });
}

/** Every written answer and its question's captured evidence; a bad line fails with its file and line. */
export async function loadAnswerSet(
  dir: string,
): Promise<{ answers: WrittenAnswer[]; captured: Map<string, CapturedQuestion> }> {
  const answers: WrittenAnswer[] = [];
  const captured = new Map<string, CapturedQuestion>();
  for (const corpus of CORPORA) {
    for (const q of await readJsonl<CapturedQuestion>(path.join(dir, 'captured', `${corpus}.jsonl`))) {
      captured.set(q.questionId, { ...q, corpus });
    }
    for (const a of await readJsonl<WrittenAnswer>(path.join(dir, `${corpus}.jsonl`))) {
      const where = `${corpus}.jsonl ${a.id}`;
      if (!captured.has(a.questionId)) throw new Error(`${where}: no captured evidence for question ${a.questionId}`);
      if (a.split !== 'dev' && a.split !== 'test') throw new Error(`${where}: split must be dev or test`);
      for (const s of a.sentences) {
        if (!(LABELS as readonly string[]).includes(s.label)) throw new Error(`${where}: unknown label "${s.label}"`);
        if (!a.answer.includes(s.text)) {
          throw new Error(`${where}: labelled text is not in the answer: ${JSON.stringify(s.text)}`);
        }
      }
      answers.push({ ...a, corpus });
    }
  }
  return { answers, captured };
}

/** An answer as written is an abstention when it starts with NOT_FOUND (kind "abstain", or a faithful NOT_FOUND). */
export function isWrittenAbstention(a: WrittenAnswer): boolean {
  return /^\s*NOT_FOUND:/.test(a.answer);
}

const CITATION = /\s*\[E\d+(?:\s*,\s*E\d+)*\]/g;
const normalise = (text: string): string =>
  text.replace(CITATION, '').replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();

/** Ranges of `part` in `whole`, both normalised (citations, emphasis and spacing ignored). */
function locate(whole: string, part: string, from = 0): [number, number] | undefined {
  const at = whole.indexOf(part, from);
  return at < 0 || part === '' ? undefined : [at, at + part.length];
}

/**
 * The verdicts that cover each labelled sentence: the verifier may split differently from the
 * writer, so a label gets every verdict whose text overlaps it (by position in the answer).
 */
export function alignVerdicts(
  answer: WrittenAnswer,
  verdicts: readonly SentenceVerdict[],
): Map<LabelledSentence, SentenceVerdict[]> {
  const whole = normalise(answer.answer);
  const placed: Array<{ v: SentenceVerdict; range: [number, number] }> = [];
  let cursor = 0;
  for (const v of verdicts) {
    const range = locate(whole, normalise(v.text), cursor) ?? locate(whole, normalise(v.text));
    if (range) {
      placed.push({ v, range });
      cursor = range[1];
    }
  }
  const out = new Map<LabelledSentence, SentenceVerdict[]>();
  let labelCursor = 0;
  for (const s of answer.sentences) {
    const range = locate(whole, normalise(s.text), labelCursor) ?? locate(whole, normalise(s.text));
    if (range) labelCursor = range[1];
    out.set(s, range ? placed.filter((p) => p.range[0] < range[1] && range[0] < p.range[1]).map((p) => p.v) : []);
  }
  return out;
}

/** One replayed answer and what became of it. */
export interface Outcome {
  answer: WrittenAnswer;
  result: TurnResult;
  /** Cited captured passages the replay's searches did not return. */
  unretrieved: string[];
  aligned: Map<LabelledSentence, SentenceVerdict[]>;
}

/** A labelled sentence is shown as a kept claim when every verdict over it is kept and the turn answered. */
export function shownAsKept(o: Outcome, s: LabelledSentence): boolean {
  const vs = o.aligned.get(s) ?? [];
  return (
    !o.result.abstained &&
    vs.length > 0 &&
    vs.every((v) => v.verdict === 'kept' || v.verdict === 'exempt') &&
    vs.some((v) => v.verdict === 'kept')
  );
}

/** Shown: kept, or exempt (a lead-in, a hedge), in an answer that is not an abstention. */
function shown(o: Outcome, s: LabelledSentence): boolean {
  const vs = o.aligned.get(s) ?? [];
  return !o.result.abstained && vs.length > 0 && vs.every((v) => v.verdict !== 'dropped');
}

export interface Figures {
  answers: number;
  unretrieved: number;
  backedKept: [number, number];
  faithfulWhole: [number, number];
  plantedStopped: [number, number];
  stoppedByDrop: [number, number];
  abstentionsShown: [number, number];
  hedgesShown: [number, number];
  exemptShown: [number, number];
}

/** The figures of issue 21's "Done when" over a set of outcomes. */
export function figures(outcomes: readonly Outcome[], answerable: (questionId: string) => boolean): Figures {
  const f: Figures = {
    answers: outcomes.length,
    unretrieved: 0,
    backedKept: [0, 0],
    faithfulWhole: [0, 0],
    plantedStopped: [0, 0],
    stoppedByDrop: [0, 0],
    abstentionsShown: [0, 0],
    hedgesShown: [0, 0],
    exemptShown: [0, 0],
  };
  for (const o of outcomes) {
    if (o.unretrieved.length) f.unretrieved++;
    const a = o.answer;
    if (a.kind !== 'defect' && isWrittenAbstention(a)) {
      f.abstentionsShown[1]++;
      if (o.result.abstained) f.abstentionsShown[0]++;
      continue;
    }
    if (a.kind !== 'defect') {
      const backed = a.sentences.filter((s) => s.label === 'backed');
      for (const s of backed) {
        f.backedKept[1]++;
        if (shownAsKept(o, s)) f.backedKept[0]++;
      }
      for (const s of a.sentences.filter((x) => x.label === 'abstain-hedge')) {
        f.hedgesShown[1]++;
        if (shown(o, s)) f.hedgesShown[0]++;
      }
      for (const s of a.sentences.filter((x) => x.label === 'exempt')) {
        f.exemptShown[1]++;
        if (shown(o, s)) f.exemptShown[0]++;
      }
      if (answerable(a.questionId) && backed.length > 0) {
        f.faithfulWhole[1]++;
        if (backed.every((s) => shownAsKept(o, s))) f.faithfulWhole[0]++;
      }
      continue;
    }
    for (const s of a.sentences.filter((x) => x.label === 'planted')) {
      f.plantedStopped[1]++;
      if (shownAsKept(o, s)) continue;
      f.plantedStopped[0]++;
      f.stoppedByDrop[1]++;
      const vs = o.aligned.get(s) ?? [];
      if (vs.some((v) => v.verdict === 'dropped' && v.code !== 'off-topic')) f.stoppedByDrop[0]++;
    }
  }
  return f;
}

const pct = ([n, d]: [number, number]): string => (d ? `${((100 * n) / d).toFixed(1)}% (${n}/${d})` : '—');

export function formatFigures(name: string, f: Figures): string {
  return [
    `${name}: ${f.answers} answers${f.unretrieved ? `, ${f.unretrieved} with a cited passage the replay did not retrieve` : ''}`,
    `  faithful backed sentences kept            ${pct(f.backedKept)}   (gate ≥ 90%)`,
    `  faithful answers (answerable) kept whole  ${pct(f.faithfulWhole)}   (gate ≥ 80%)`,
    `  planted defects stopped                   ${pct(f.plantedStopped)}   (gate ≥ 95%)`,
    `    … by dropping the planted sentence      ${pct(f.stoppedByDrop)}   (gate ≥ 80%)`,
    `  faithful NOT_FOUND shown as abstentions   ${pct(f.abstentionsShown)}   (gate 100%)`,
    `  hedges shown (partial abstentions)        ${pct(f.hedgesShown)}`,
    `  exempt sentences shown                    ${pct(f.exemptShown)}`,
  ].join('\n');
}
