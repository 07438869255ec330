// `evident check --file F --docs DIR`: checks any text (an answer pasted from another assistant,
// a PR description, a draft policy) against the documents, sentence by sentence, with the same
// verifier `ask` uses; for scripts and CI gates (--fail-on-dropped, --min-coverage).

import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeDocument } from '../../core/docs/docSource';
import { toSourcePath } from '../../core/docs/docFolders';
import { checkText, MAX_TEXT_CHARS, type CheckedSentence, type TextCheck } from '../../core/tools';
import type { Evidence, EvidenceLookup } from '../../domain/types';
import { noticeTexts } from '../../domain/notices';
import { questionProblem } from '../../core/agent/question';
import { CliError, type CliCommand, type CliIO } from '../io';
import { DEFAULT_TOP_K } from '../../core/engine';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, numberFlag, openEngine, progressPrinter, topKFlag } from '../setup';
import { escapeForTerminal } from '../terminalText';

const HELP = `Usage: evident check --file F --docs DIR [options]

Checks each sentence of F against the documents under DIR with the verifier "evident ask" uses:
a sentence is kept when a passage of the documents backs it, dropped when none does (with the
reason: a figure the passage contradicts, words it does not contain…), exempt when it states
nothing. Sentences are checked against the passages retrieved for each of them; with --evidence,
sentences citing that turn's ids ([E2]) are checked against those passages, as "ask" checked them.
When F is one of the documents, its own passages never back it.

Options:
  --file F                 the text to check (Markdown or plain text; "-" reads standard input)
  --question TEXT          the question the text answers (also searched with each sentence)
  --evidence FILE          the JSON an "evident ask --json" turn printed: its evidence list is the
                           ledger of the text's ids (re-check a saved answer)
  --json                   print the result as one JSON object
  --fail-on-dropped        exit 1 when any sentence is dropped (a CI gate)
  --min-coverage N         exit 1 when the share of factual sentences kept is under N (0..1)
  --no-index               check against the index as it is, without bringing it up to date
${ENGINE_FLAGS_HELP}
  -h, --help               show this help

Exit codes: 0 checked (and gates met), 1 a gate not met or a failure, 2 bad input.
`;

export const check: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...ENGINE_FLAGS,
      file: { type: 'string' },
      question: { type: 'string' },
      evidence: { type: 'string' },
      json: { type: 'boolean' },
      'fail-on-dropped': { type: 'boolean' },
      'min-coverage': { type: 'string' },
      'no-index': { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  if (!values.file) throw new CliError('--file F is required (the text to check; "-" reads standard input).');
  const minCoverage = numberFlag(values['min-coverage'], 'min-coverage', 0, 1);
  const problem = values.question === undefined ? undefined : questionProblem(values.question);
  if (problem) throw new CliError(`--question: ${problem}`);
  const text = await readText(values.file, io);
  const evidence = values.evidence ? await readEvidence(path.resolve(io.cwd, values.evidence)) : undefined;
  const engine = await openEngine(values, io, { answerOnly: values['no-index'] });
  try {
    const notices: string[] = [];
    if (!values.store && !values['no-index']) {
      notices.push(
        ...noticeTexts(
          (await engine.index({ signal: io.signal, onProgress: progressPrinter(io), modelWhenNeeded: true })).notices,
        ),
      );
    }
    const k = topKFlag(values['top-k']) ?? DEFAULT_TOP_K;
    const excludeSource =
      values.file === '-' || !values.docs
        ? undefined
        : sourceOf(path.resolve(io.cwd, values.file), path.resolve(io.cwd, values.docs));
    const result = await checkText(text, engine, {
      evidence,
      question: values.question,
      k,
      excludeSource,
      signal: io.signal,
      onProgress: checkProgress(io),
    });
    const retrieval = engine.status().retrieval;
    io.stdout(
      values.json
        ? `${JSON.stringify(toJson(values.file, text, result, retrieval, notices))}\n`
        : render(values.file, text, result, retrieval),
    );
    return gate(result, { failOnDropped: values['fail-on-dropped'], minCoverage }, io);
  } finally {
    await engine.close();
  }
};

async function readText(file: string, io: CliIO): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = file === '-' ? await readStdin() : await readFile(path.resolve(io.cwd, file));
  } catch (error) {
    throw new CliError(
      `--file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  const decoded = decodeDocument(bytes);
  if (!decoded.ok) throw new CliError(`--file: ${file} cannot be checked: ${decoded.reason}.`);
  if (!decoded.text.trim()) throw new CliError(`--file: ${file} is empty: there is nothing to check.`);
  if (decoded.text.length > MAX_TEXT_CHARS) {
    throw new CliError(
      `--file: ${file} is ${decoded.text.length.toLocaleString('en-US')} characters long; at most ${MAX_TEXT_CHARS.toLocaleString('en-US')} are checked at once. Check it in parts.`,
    );
  }
  return decoded.text;
}

/** The file's source path when it is one of the documents (symlinks resolved): its own passages must not back it. */
function sourceOf(file: string, docs: string): string | undefined {
  try {
    return toSourcePath([{ name: path.basename(docs), root: realpathSync(docs) }], realpathSync(file));
  } catch {
    return undefined;
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The `evidence` list of an `ask --json` turn, as the ledger of the text's ids. */
async function readEvidence(file: string): Promise<EvidenceLookup> {
  let turn: unknown;
  try {
    turn = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliError(
      `--evidence: ${file} is not the JSON of an "evident ask --json" turn (${(error as Error).message}).`,
    );
  }
  const list = (turn as { evidence?: unknown })?.evidence;
  if (!Array.isArray(list)) {
    throw new CliError(`--evidence: ${file} has no "evidence" list (give the JSON "evident ask --json" printed).`);
  }
  const byId = new Map<string, Evidence>();
  list.forEach((item: Record<string, unknown>, i) => {
    const bad =
      ['id', 'source', 'heading', 'text', 'version'].find((key) => typeof item?.[key] !== 'string') ??
      ['startLine', 'endLine'].find((key) => typeof item?.[key] !== 'number');
    if (bad) throw new CliError(`--evidence: ${file}: evidence ${i + 1} has no valid "${bad}".`);
    const e = item as unknown as Evidence;
    byId.set(e.id, {
      id: e.id,
      passageId: e.id,
      source: e.source,
      startLine: e.startLine,
      endLine: e.endLine,
      heading: e.heading,
      text: e.text,
      version: e.version,
    });
  });
  return { get: (id) => byId.get(id), all: () => [...byId.values()] };
}

function checkProgress(io: CliIO): ((p: { done: number; total: number }) => void) | undefined {
  if (!io.isTTY) return undefined;
  return ({ done, total }) => io.stderr(`\r\x1b[Kchecking: sentence ${done}/${total}${done === total ? '\n' : ''}`);
}

/** 1-based line of an offset of the text. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function counts(result: TextCheck) {
  const of = (verdict: CheckedSentence['verdict']) => result.sentences.filter((s) => s.verdict === verdict).length;
  return {
    sentences: result.sentences.length,
    kept: of('kept'),
    dropped: of('dropped'),
    exempt: of('exempt'),
    retrieved: result.retrieved,
  };
}

/** `ask --json`'s sentence shape, plus how each sentence was checked, where it is, and what backs it. */
export function toJson(file: string, text: string, result: TextCheck, retrieval: string, notices: string[]) {
  return {
    file,
    sentences: result.sentences.map((s) => ({
      text: s.text,
      citations: s.citations,
      verdict: s.verdict,
      reason: s.reason,
      support: Math.round(s.support * 1000) / 1000,
      ...(s.tier ? { tier: s.tier } : {}),
      route: s.route,
      line: lineAt(text, s.start),
      evidence: s.evidence.map((e) => ({
        ...(s.route === 'cited' ? { id: e.id } : {}),
        source: e.source,
        startLine: e.startLine,
        endLine: e.endLine,
        heading: e.heading,
        version: e.version,
      })),
    })),
    coverage: Math.round(result.coverage * 1000) / 1000,
    metrics: counts(result),
    retrieval,
    notices,
  };
}

function render(file: string, text: string, result: TextCheck, retrieval: string): string {
  const c = counts(result);
  const lines = [
    `${escapeForTerminal(file)}: ${c.kept} of ${c.kept + c.dropped} factual sentences backed (coverage ${Math.round(result.coverage * 100)}%) · ${c.dropped} dropped · ${c.exempt} exempt · retrieval ${retrieval === 'lexical' ? 'lexical only' : retrieval}`,
  ];
  for (const s of result.sentences) {
    const mark = s.verdict === 'kept' ? '✓ kept   ' : s.verdict === 'dropped' ? '✗ dropped' : '· exempt ';
    const where = s.evidence
      .map(
        (e) => `${s.route === 'cited' ? `[${e.id}] ` : ''}${escapeForTerminal(e.source)}:${e.startLine}-${e.endLine}`,
      )
      .join(', ');
    const backing = where ? ` (${s.verdict === 'kept' ? '' : 'closest: '}${where})` : '';
    lines.push(
      `  ${mark} line ${lineAt(text, s.start)}  ${JSON.stringify(s.text)}${s.verdict === 'kept' ? '' : ` — ${s.reason}`}${backing}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function gate(result: TextCheck, gates: { failOnDropped?: boolean; minCoverage?: number }, io: CliIO): number {
  const dropped = result.sentences.filter((s) => s.verdict === 'dropped').length;
  if (gates.failOnDropped && dropped > 0) {
    io.stderr(
      `evident check: ${dropped} sentence${dropped === 1 ? ' is' : 's are'} not backed by the documents (--fail-on-dropped).\n`,
    );
    return 1;
  }
  if (gates.minCoverage !== undefined && result.coverage < gates.minCoverage) {
    io.stderr(`evident check: coverage ${result.coverage.toFixed(3)} is under --min-coverage ${gates.minCoverage}.\n`);
    return 1;
  }
  return 0;
}
