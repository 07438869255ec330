// `evident ask`: answers one question (--question) or a JSONL batch (--questions) with a verified,
// cited answer. The index is brought up to date first (cheap when nothing changed).

import { parseArgs } from 'node:util';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { documentVersion } from '../../core/docs/version';
import { CliError, type CliCommand } from '../io';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, chooseCliModel, openEngine, progressPrinter } from '../setup';
import { readJsonl, requireString } from '../../core/jsonl';
import { questionProblem } from '../../core/agent/question';
import type { TurnResult } from '../../domain/types';

const HELP = `Usage: evident ask --docs DIR (--question "TEXT" | --questions FILE.jsonl) [options]
       evident ask --store postgres://… [--docs DIR] (--question "TEXT" | --questions FILE.jsonl) [options]

Answers from the documents under DIR, or from a shared team index (--store; kept current by
"evident index --store", so nothing is indexed here; with --docs, each evidence says whether the
file there has the cited version). Every sentence cites the passage that backs it; sentences the
verifier cannot back are dropped (and reported); with no backed sentence the answer is NOT_FOUND.

Options:
  --question TEXT          one question
  --questions FILE.jsonl   lines {"id","question"}; prints one JSON object per line, same order
  --model NAME             extractive (offline, default without GEMINI_API_KEY), gemini, gemini:MODEL_ID
  --json                   print the result as one JSON object
${ENGINE_FLAGS_HELP}
  -h, --help               show this help
`;

interface QuestionLine {
  id: string;
  question: string;
}

export const ask: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: { ...ENGINE_FLAGS, question: { type: 'string' }, questions: { type: 'string' }, model: { type: 'string' }, json: { type: 'boolean' } },
    strict: true,
  });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  if ((values.question === undefined) === (values.questions === undefined)) {
    throw new CliError('give exactly one of --question "TEXT" or --questions FILE.jsonl.');
  }
  if (values.question !== undefined && !values.question.trim()) throw new CliError('--question is empty.');
  const problem = values.question === undefined ? undefined : questionProblem(values.question);
  if (problem) throw new CliError(`--question: ${problem}`);
  const batch = values.questions
    ? await readJsonl<QuestionLine>(
        path.resolve(io.cwd, values.questions),
        (v) => requireString(v, 'id') ?? requireString(v, 'question') ?? questionProblem(v.question as string),
      )
    : undefined;
  const makeModel = chooseCliModel(values.model, io);
  const engine = await openEngine(values, io);
  const model = makeModel(engine);
  try {
    if (!values.store) await engine.index({ signal: io.signal, onProgress: progressPrinter(io) });
    const files = values.store && values.docs ? sourceFiles(path.resolve(io.cwd, values.docs)) : undefined;
    if (batch) {
      for (const line of batch) {
        const result = await engine.ask(line.question, { model, id: line.id, signal: io.signal });
        io.stdout(`${JSON.stringify(toJson(result, files))}\n`);
      }
      return 0;
    }
    const result = await engine.ask(values.question ?? '', { model, signal: io.signal });
    io.stdout(values.json ? `${JSON.stringify(toJson(result, files))}\n` : render(result, files));
    return 0;
  } finally {
    await engine.close();
  }
};

/** Where a cited source is under --docs, and whether that file still has the cited version. */
type SourceFiles = (source: string, version: string) => { file: string; fileVersion: 'same' | 'changed' | 'missing' };

function sourceFiles(docsRoot: string): SourceFiles {
  return (source, version) => {
    const file = path.resolve(docsRoot, source);
    const rel = path.relative(docsRoot, file);
    if (rel.startsWith('..') || path.isAbsolute(rel) || !existsSync(file)) return { file, fileVersion: 'missing' };
    return { file, fileVersion: documentVersion(readFileSync(file, 'utf8')) === version ? 'same' : 'changed' };
  };
}

/** The CLI contract's object (product.md), plus model, retrieval mode and notices. */
export function toJson(result: TurnResult, files?: SourceFiles) {
  return {
    ...(result.id !== undefined ? { id: result.id } : {}),
    question: result.question,
    answer: result.answer,
    abstained: result.abstained,
    sentences: result.sentences.map((s) => ({ text: s.text, citations: s.citations, verdict: s.verdict, reason: s.reason, support: round(s.support), ...(s.tier ? { tier: s.tier } : {}) })),
    evidence: result.evidence.map((e) => ({ id: e.id, source: e.source, startLine: e.startLine, endLine: e.endLine, heading: e.heading, text: e.text, version: e.version, ...(files ? files(e.source, e.version) : {}) })),
    metrics: { ...result.metrics, coverage: round(result.metrics.coverage) },
    model: result.model,
    retrieval: result.retrieval,
    invocationId: result.invocationId,
    notices: result.notices,
    ...(result.relevance ? { relevance: result.relevance } : {}),
    ...(result.abstainedBy ? { abstainedBy: result.abstainedBy } : {}),
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function render(result: TurnResult, files?: SourceFiles): string {
  const lines: string[] = [result.answer, ''];
  const m = result.metrics;
  lines.push(
    `Verifier: ${result.sentences.length} sentences, ${result.sentences.filter((s) => s.verdict === 'kept').length} kept, ${m.dropped} dropped` +
      ` · coverage ${Math.round(m.coverage * 100)}% · ${m.retrieved} passages retrieved · ${m.abstained ? 'abstained' : 'answered'}` +
      ` · model ${result.model} · retrieval ${result.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'}`,
  );
  if (result.relevance && result.relevance.verdict !== 'answers') lines.push(`Relevance: ${result.relevance.verdict} — ${result.relevance.reason}`);
  for (const s of result.sentences) {
    const mark = s.verdict === 'kept' ? '✓ kept   ' : s.verdict === 'dropped' ? '✗ dropped' : '· exempt ';
    const cites = s.citations.length ? ` [${s.citations.join(', ')}]` : '';
    lines.push(`  ${mark} ${JSON.stringify(s.text)}${cites} support ${s.support.toFixed(2)}${s.verdict === 'kept' ? '' : ` — ${s.reason}`}`);
  }
  if (result.evidence.length) {
    lines.push('Evidence:');
    for (const e of result.evidence) {
      const local = files?.(e.source, e.version);
      const where = local ? (local.fileVersion === 'same' ? `  ${local.file}` : `  (${local.fileVersion === 'missing' ? 'not under --docs' : 'the file under --docs has changed since'})`) : '';
      lines.push(`  ${e.id.padEnd(4)} ${e.source}:${e.startLine}-${e.endLine}  ${e.heading}  (version ${e.version})${where}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

