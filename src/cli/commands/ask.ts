// `evident ask`: answers one question (--question) or a JSONL batch (--questions) with a verified,
// cited answer. The index is brought up to date first (cheap when nothing changed).

import { parseArgs } from 'node:util';
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { documentVersion } from '../../core/docs/version';
import { MAX_DOC_BYTES } from '../../core/docs/docSource';
import { CliError, type CliCommand, type CliIO } from '../io';
import { mkdirSync } from 'node:fs';
import {
  ENGINE_FLAGS,
  ENGINE_FLAGS_HELP,
  GROUNDING_FLAGS,
  GROUNDING_FLAGS_HELP,
  cacheRoot,
  chooseCliModel,
  groundedCliModel,
  isGroundedModelName,
  numberFlag,
  openEngine,
  progressPrinter,
  type GroundingFlags,
} from '../setup';
import { askGrounded } from '../../core/engine';
import { readJsonl, requireString } from '../../core/jsonl';
import { askConversations, withAfterCheck, type ConversationLine } from '../../core/eval/conversations';
import { standaloneQuestion } from '../../core/agent/followUp';
import { questionProblem } from '../../core/agent/question';
import type { TurnResult } from '../../domain/types';
import { staleSourcesWarning } from '../../domain/staleSources';
import { notice, noticeTexts } from '../../domain/notices';
import { describePartialRetrieval } from '../../domain/partialRetrieval';
import { escapeForTerminal } from '../terminalText';

const HELP = `Usage: evident ask --docs DIR (--question "TEXT" | --questions FILE.jsonl) [options]
       evident ask --store postgres://… [--docs DIR] (--question "TEXT" | --questions FILE.jsonl) [options]
       evident ask --model google-search[:MODEL_ID] (--question "TEXT" | --questions FILE.jsonl) [--json]
       evident ask --model vertex-ai-search[:MODEL_ID] --datastore NAME (--question … | --questions …) [--json]

Answers from the documents under DIR, or from a shared team index (--store; kept current by
"evident index --store", so nothing is indexed here; with --docs, each evidence says whether the
file there has the cited version). Every sentence cites the passage that backs it; sentences the
verifier cannot back are dropped (and reported); with no backed sentence the answer is NOT_FOUND.

Options:
  --question TEXT          one question
  --questions FILE.jsonl   lines {"id","question"}; prints one JSON object per line, same order. A line
                           with "after": "<id of an earlier line>" follows that turn in one
                           conversation: a follow-up ("and for part-time staff?") is answered as a
                           standalone question, given as "answeredAs" (evidence ids stay per turn)
  --model NAME             extractive (offline, default without GEMINI_API_KEY), gemini, gemini:MODEL_ID,
                           google-search[:MODEL_ID], vertex-ai-search[:MODEL_ID]
  --json                   print the result as one JSON object
  --no-index               answer from the index as it is, without bringing it up to date first
                           (e.g. while "evident index" fills in its vectors: the answer then says
                           retrieval is partial, with the share of passages that have a vector)
  --web-search             mixing routes: also give the Gemini model Google Search as a tool (a grounded
                           sub-call; its web sources join the turn's evidence and are verified the same way)
${ENGINE_FLAGS_HELP}
${GROUNDING_FLAGS_HELP}
  -h, --help               show this help
`;

interface QuestionLine extends ConversationLine {
  id: string;
  question: string;
}

export const ask: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...ENGINE_FLAGS,
      ...GROUNDING_FLAGS,
      question: { type: 'string' },
      questions: { type: 'string' },
      model: { type: 'string' },
      json: { type: 'boolean' },
      'web-search': { type: 'boolean' },
      'no-index': { type: 'boolean' },
    },
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
        withAfterCheck(
          (v) => requireString(v, 'id') ?? requireString(v, 'question') ?? questionProblem(v.question as string),
        ),
      )
    : undefined;
  if (isGroundedModelName(values.model)) return askWithGrounding(values, batch, io);
  if (values.datastore || values['search-filter'] || values['max-results']) {
    throw new CliError('--datastore, --search-filter and --max-results are for --model vertex-ai-search.');
  }
  const makeModel = chooseCliModel(values.model, io, values.timeout);
  const webSearch = values['web-search'] ? webSearchFor(values.model, io, values.timeout) : undefined;
  const engine = await openEngine(values, io, { answerOnly: values['no-index'] });
  const model = makeModel(engine);
  try {
    // Another process indexing the folder: answer from what it committed rather than race it.
    if (!values.store && !values['no-index']) {
      await engine.index({
        signal: io.signal,
        onProgress: progressPrinter(io),
        modelWhenNeeded: true,
        whenBusy: 'answer',
      });
    }
    const files = values.store && values.docs ? sourceFiles(path.resolve(io.cwd, values.docs)) : undefined;
    const warnStale = (result: TurnResult) => warnAboutStaleSources(result, io);
    if (batch) {
      await askConversations(
        batch,
        (line, follows) =>
          engine.ask(line.question, {
            model,
            id: line.id,
            signal: io.signal,
            webSearch,
            ...(follows ? { follows } : {}),
          }),
        (_, result) => {
          warnStale(result);
          io.stdout(`${JSON.stringify(toJson(result, files))}\n`);
        },
      );
      return 0;
    }
    const result = await engine.ask(values.question ?? '', { model, signal: io.signal, webSearch });
    warnStale(result);
    if (values.json && result.partialRetrieval) {
      io.stderr(`evident: ${describePartialRetrieval(result.partialRetrieval)}\n`);
    }
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
    // Over the size limit it cannot hold the indexed version (and is not read whole).
    if (statSync(file).size > MAX_DOC_BYTES) return { file, fileVersion: 'changed' };
    return { file, fileVersion: documentVersion(readFileSync(file, 'utf8')) === version ? 'same' : 'changed' };
  };
}

/** A cited file that changed after indexing is said on stderr and in the JSON notices. */
export function warnAboutStaleSources(result: TurnResult, io: Pick<CliIO, 'stderr'>): void {
  const warning = staleSourcesWarning(result);
  if (!warning) return;
  result.notices.push(notice('cited-file-changed', warning));
  io.stderr(`evident: ${escapeForTerminal(warning)}\n`);
}

/** `--web-search`: Google Search as the `searchWeb` tool of a Gemini model (needs the same key). */
function webSearchFor(modelName: string | undefined, io: Parameters<CliCommand>[1], timeout?: string) {
  if (modelName === undefined || !(modelName === 'gemini' || modelName.startsWith('gemini:'))) {
    throw new CliError('--web-search needs --model gemini[:MODEL_ID] (a model that calls tools).');
  }
  return groundedCliModel(
    { model: `google-search${modelName.includes(':') ? modelName.slice(modelName.indexOf(':')) : ''}`, timeout },
    io,
  );
}

/**
 * The second route: the provider searches (Google Search or a Vertex AI Search data store), so
 * there is no --docs and no index; metrics and audit go to the cache folder (or --index-dir).
 */
async function askWithGrounding(
  values: GroundingFlags & {
    docs?: string;
    'index-dir'?: string;
    question?: string;
    json?: boolean;
    threshold?: string;
  },
  batch: QuestionLine[] | undefined,
  io: Parameters<CliCommand>[1],
): Promise<number> {
  if (values.docs !== undefined) {
    throw new CliError(
      `--docs is not used by --model ${values.model}: the provider searches, not the workspace index (see "Mixing routes" in docs/user-guide.md).`,
    );
  }
  const model = groundedCliModel(values, io);
  // Vertex AI Search chunks carry text: the lexical check runs on them with this threshold.
  const threshold = numberFlag(values.threshold, 'threshold', 0, 1);
  const logDir = values['index-dir']
    ? path.resolve(io.cwd, values['index-dir'])
    : path.join(cacheRoot(io.env), 'grounded');
  mkdirSync(logDir, { recursive: true });
  const ask = (question: string, id?: string) =>
    askGrounded(question, {
      model,
      id,
      signal: io.signal,
      verifier: { threshold },
      metricsLog: path.join(logDir, 'metrics.jsonl'),
      auditLog: path.join(logDir, 'audit.jsonl'),
      onLogError: (m) => io.stderr(`evident: ${m}\n`),
    });
  if (batch) {
    // A follow-up goes to the provider as its standalone question (the provider sees one question a turn).
    await askConversations(
      batch,
      async (line, follows) => {
        if (!follows) return ask(line.question, line.id);
        const standalone = standaloneQuestion(line.question, follows);
        return { ...(await ask(standalone.text, line.id)), question: line.question, answeredAs: standalone.text };
      },
      (_, result) => io.stdout(`${JSON.stringify(toJson(result))}\n`),
    );
    return 0;
  }
  const result = await ask(values.question ?? '');
  io.stdout(values.json ? `${JSON.stringify(toJson(result))}\n` : render(result));
  return 0;
}

/** The CLI contract's object (docs/cli.md), plus model, retrieval mode and notices. */
export function toJson(result: TurnResult, files?: SourceFiles) {
  return {
    ...(result.id !== undefined ? { id: result.id } : {}),
    question: result.question,
    ...(result.answeredAs !== undefined ? { answeredAs: result.answeredAs } : {}),
    answer: result.answer,
    abstained: result.abstained,
    sentences: result.sentences.map((s) => ({
      text: s.text,
      citations: s.citations,
      verdict: s.verdict,
      reason: s.reason,
      support: round(s.support),
      ...(s.tier ? { tier: s.tier } : {}),
    })),
    evidence: result.evidence.map((e) => ({
      id: e.id,
      source: e.source,
      startLine: e.startLine,
      endLine: e.endLine,
      heading: e.heading,
      text: e.text,
      version: e.version,
      ...(e.uri !== undefined ? { uri: e.uri } : {}),
      ...(e.title !== undefined ? { title: e.title } : {}),
      ...(files && e.uri === undefined ? files(e.source, e.version) : {}),
      ...(e.stale ? { stale: true } : {}),
    })),
    metrics: { ...result.metrics, coverage: round(result.metrics.coverage) },
    model: result.model,
    retrieval: result.retrieval,
    invocationId: result.invocationId,
    notices: noticeTexts(result.notices),
    ...(result.relevance ? { relevance: result.relevance } : {}),
    ...(result.abstainedBy ? { abstainedBy: result.abstainedBy } : {}),
    ...(result.partialRetrieval ? { partialRetrieval: result.partialRetrieval } : {}),
    ...(result.grounding
      ? {
          grounding: {
            supports: result.grounding.supports,
            queries: result.grounding.queries,
            ...(result.grounding.searchSuggestions ? { searchSuggestions: result.grounding.searchSuggestions } : {}),
          },
        }
      : {}),
  };
}

const RETRIEVAL_LABEL: Record<TurnResult['retrieval'], string> = {
  hybrid: 'hybrid',
  lexical: 'lexical only',
  'google-search': 'Google Search (built-in grounding)',
  'vertex-ai-search': 'Vertex AI Search (built-in grounding)',
};

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function render(result: TurnResult, files?: SourceFiles): string {
  // Document text reaches the answer: control characters are escaped, line breaks kept.
  const lines: string[] = [result.answer.split('\n').map(escapeForTerminal).join('\n'), ''];
  if (result.answeredAs !== undefined && result.answeredAs !== result.question) {
    lines.push(`Answered as: ${escapeForTerminal(result.answeredAs)}`);
  }
  const m = result.metrics;
  lines.push(
    `Verifier: ${result.sentences.length} sentences, ${result.sentences.filter((s) => s.verdict === 'kept').length} kept, ${m.dropped} dropped` +
      ` · coverage ${Math.round(m.coverage * 100)}% · ${m.retrieved} passages retrieved · ${m.abstained ? 'abstained' : 'answered'}` +
      ` · model ${result.model} · retrieval ${RETRIEVAL_LABEL[result.retrieval]}`,
  );
  if (result.partialRetrieval) lines.push(describePartialRetrieval(result.partialRetrieval));
  if (result.relevance && result.relevance.verdict !== 'answers') {
    lines.push(`Relevance: ${result.relevance.verdict} — ${result.relevance.reason}`);
  }
  for (const s of result.sentences) {
    const mark = s.verdict === 'kept' ? '✓ kept   ' : s.verdict === 'dropped' ? '✗ dropped' : '· exempt ';
    const cites = s.citations.length ? ` [${s.citations.join(', ')}]` : '';
    lines.push(
      `  ${mark} ${JSON.stringify(s.text)}${cites} support ${s.support.toFixed(2)}${s.verdict === 'kept' ? '' : ` — ${s.reason}`}`,
    );
  }
  if (result.evidence.length) {
    lines.push('Evidence:');
    for (const e of result.evidence) {
      const local = e.uri === undefined ? files?.(e.source, e.version) : undefined;
      const where = local
        ? local.fileVersion === 'same'
          ? `  ${escapeForTerminal(local.file)}`
          : `  (${local.fileVersion === 'missing' ? 'not under --docs' : 'the file under --docs has changed since'})`
        : '';
      lines.push(
        e.uri !== undefined
          ? `  ${e.id.padEnd(4)} ${escapeForTerminal(e.uri)}  ${escapeForTerminal(e.title ?? '')}`
          : `  ${e.id.padEnd(4)} ${escapeForTerminal(e.source)}:${e.startLine}-${e.endLine}  ${escapeForTerminal(e.heading)}  (version ${e.version}${e.stale ? ', changed since' : ''})${where}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
