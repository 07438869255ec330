// Evaluation of "Check Text Against the Docs" / `evident check` on the model-shaped answers
// (eval/answers: 184 answers, a faithful one and one with a planted defect per question, every
// sentence labelled). Each answer is checked twice in one run, over the real corpus index:
//   - `retrieved`: as Check Text does, with no ledger: every sentence against the passages
//     retrieved for it (the answer's ids name nothing of the check);
//   - `cited`: with the captured evidence of its question as the ledger (what `ask` would do;
//     the verifier's own figure, for comparison).
// Reported per split (`dev`, and `test`, on which nothing here was tuned): backed sentences kept,
// planted sentences dropped, defect answers caught (a planted sentence dropped), faithful answers
// left whole (no backed sentence dropped).
// Usage: npm run eval:check-text [-- --model DIR | --no-embeddings] [-- --json]

import { mkdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine, folderDocSource } from '../src/core/engine';
import { checkText, type CheckedSentence } from '../src/core/tools';
import type { Evidence, EvidenceLookup } from '../src/domain/types';
import { defaultModelDir } from '../tools/model/modelDir';

const ROOT = path.resolve(__dirname, '..');
const CORPORA = ['site-policy', '18f-handbook'] as const;

interface Labelled {
  text: string;
  label: 'backed' | 'exempt' | 'planted' | 'abstain-hedge';
}
interface AnswerLine {
  id: string;
  questionId: string;
  corpus: string;
  question: string;
  kind: 'faithful' | 'defect';
  defect?: string;
  split: 'dev' | 'test';
  answer: string;
  sentences: Labelled[];
}
interface Captured {
  questionId: string;
  evidence: Omit<Evidence, 'passageId'>[];
}

type Route = 'retrieved' | 'cited';
interface Tally {
  backed: number;
  backedKept: number;
  planted: number;
  plantedDropped: number;
  defects: number;
  defectsCaught: number;
  /** Defect answers caught, by kind of planted defect. */
  byDefect: Record<string, { caught: number; of: number }>;
  faithful: number;
  faithfulWhole: number;
}

const emptyTally = (): Tally => ({
  backed: 0,
  backedKept: 0,
  planted: 0,
  plantedDropped: 0,
  defects: 0,
  defectsCaught: 0,
  byDefect: {},
  faithful: 0,
  faithfulWhole: 0,
});

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

function ledgerOf(evidence: Captured['evidence']): EvidenceLookup {
  const items = evidence.map((e) => ({ ...e, passageId: e.id }));
  const byId = new Map(items.map((e) => [e.id, e]));
  return { get: (id) => byId.get(id), all: () => items };
}

/** The checked sentences overlapping each labelled sentence (labels are exact substrings of the answer). */
function verdictsOf(
  answer: AnswerLine,
  checked: CheckedSentence[],
): { label: Labelled['label']; verdicts: string[] }[] {
  let from = 0;
  return answer.sentences.map((s) => {
    const start = answer.answer.indexOf(s.text, from);
    if (start < 0) throw new Error(`${answer.id}: labelled text not in the answer: ${s.text}`);
    from = start + s.text.length;
    const end = start + s.text.length;
    return { label: s.label, verdicts: checked.filter((c) => c.start < end && c.end > start).map((c) => c.verdict) };
  });
}

function add(tally: Tally, answer: AnswerLine, matched: ReturnType<typeof verdictsOf>): void {
  let caught = false;
  let whole = true;
  for (const m of matched) {
    if (m.label === 'backed') {
      tally.backed++;
      const kept = m.verdicts.length > 0 && !m.verdicts.includes('dropped');
      if (kept) tally.backedKept++;
      else whole = false;
    }
    if (m.label === 'planted') {
      tally.planted++;
      if (m.verdicts.includes('dropped')) {
        tally.plantedDropped++;
        caught = true;
      }
    }
  }
  if (answer.kind === 'defect') {
    tally.defects++;
    if (caught) tally.defectsCaught++;
    const kind = (tally.byDefect[answer.defect ?? 'unknown'] ??= { caught: 0, of: 0 });
    kind.of++;
    if (caught) kind.caught++;
  } else {
    tally.faithful++;
    if (whole) tally.faithfulWhole++;
  }
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}% (${n}/${d})` : '—');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { model: { type: 'string' }, 'no-embeddings': { type: 'boolean' }, json: { type: 'boolean' } },
  });
  const modelDir = values.model ?? defaultModelDir(process.env);
  const embedding = values['no-embeddings']
    ? false
    : { modelId: 'all-MiniLM-L6-v2', localModelPath: modelDir, allowRemote: false };
  const tallies = new Map<string, Tally>();
  const tally = (route: Route, split: string) => {
    const key = `${route}/${split}`;
    if (!tallies.has(key)) tallies.set(key, emptyTally());
    return tallies.get(key) as Tally;
  };
  let retrieval = '';
  for (const corpus of CORPORA) {
    const docs = path.resolve(ROOT, '../shared/data/corpora', corpus);
    const indexDir = path.join(os.tmpdir(), 'evident-check-text-eval', `${corpus}-${embedding ? 'hybrid' : 'lexical'}`);
    mkdirSync(indexDir, { recursive: true });
    const engine = await Engine.open({ docs: folderDocSource(docs), indexDir, embedding });
    try {
      await engine.index({ modelWhenNeeded: true });
      retrieval = engine.status().retrieval;
      const captured = new Map(
        readJsonl<Captured>(path.join(ROOT, 'eval/answers/captured', `${corpus}.jsonl`)).map((c) => [c.questionId, c]),
      );
      for (const answer of readJsonl<AnswerLine>(path.join(ROOT, 'eval/answers', `${corpus}.jsonl`))) {
        const retrievedCheck = await checkText(answer.answer, engine, { k: 6 });
        add(tally('retrieved', answer.split), answer, verdictsOf(answer, retrievedCheck.sentences));
        const evidence = captured.get(answer.questionId)?.evidence;
        if (!evidence) throw new Error(`${answer.id}: no captured evidence for ${answer.questionId}`);
        const citedCheck = await checkText(answer.answer, engine, { k: 6, evidence: ledgerOf(evidence) });
        add(tally('cited', answer.split), answer, verdictsOf(answer, citedCheck.sentences));
      }
    } finally {
      await engine.close();
    }
  }
  if (values.json) {
    console.log(JSON.stringify({ retrieval, tallies: Object.fromEntries(tallies) }));
    return;
  }
  console.log(
    `retrieval: ${retrieval}; load: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    '| route | split | backed sentences kept | planted sentences dropped | defect answers caught | faithful answers left whole |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const route of ['retrieved', 'cited'] as const) {
    for (const split of ['dev', 'test']) {
      const t = tally(route, split);
      console.log(
        `| ${route} | ${split} | ${pct(t.backedKept, t.backed)} | ${pct(t.plantedDropped, t.planted)} | ${pct(t.defectsCaught, t.defects)} | ${pct(t.faithfulWhole, t.faithful)} |`,
      );
    }
  }
  // Diagnostic: which kinds of defect each route catches (dev and test together).
  const kinds = [...new Set([...tallies.values()].flatMap((t) => Object.keys(t.byDefect)))].sort();
  const caughtOf = (route: Route, kind: string) => {
    const parts = ['dev', 'test'].map((split) => tally(route, split).byDefect[kind] ?? { caught: 0, of: 0 });
    return `${parts[0].caught + parts[1].caught}/${parts[0].of + parts[1].of}`;
  };
  console.log('\n| defect (dev + test) | retrieved | cited |');
  console.log('|---|---|---|');
  for (const kind of kinds) console.log(`| ${kind} | ${caughtOf('retrieved', kind)} | ${caughtOf('cited', kind)} |`);
}

void main();
