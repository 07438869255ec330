// The two tools an agent calls, with one meaning wherever they are offered (VS Code's language
// model tools, the MCP server): `search` returns passages under evidence ids recorded in the
// conversation's ledger; `check` checks an answer, its ids against that ledger and its sentences
// without ids against passages retrieved for them (textCheck.ts). Results have the shapes of
// toolSchemas.ts; the text an agent reads is toolText.ts.

import type { Evidence } from '../../domain/types';
import { checkText, type CheckIndex, type TextCheck } from './textCheck';
import { readCheckInput, readSearchInput } from './toolInput';
import { ToolLedgers } from './toolLedger';
import type { CheckRoute } from './toolSchemas';

/** A passage as the search tool returns it: its evidence id and the fields of the passage an agent needs. */
export type ToolPassage = Pick<Evidence, 'id' | 'source' | 'startLine' | 'endLine' | 'heading' | 'text' | 'version'>;

export interface SearchDocsResult {
  passages: ToolPassage[];
}

export interface CheckedEvidence {
  /** Present when the sentence cited it (route `cited`); passages retrieved for a sentence have none. */
  id?: string;
  source: string;
  startLine: number;
  endLine: number;
}

export interface CheckAnswerResult {
  sentences: {
    text: string;
    verdict: 'kept' | 'dropped' | 'exempt';
    reason: string;
    route: CheckRoute;
    evidence: CheckedEvidence[];
  }[];
  coverage: number;
}

export interface DocsToolsOptions {
  /** Passages a search returns when the agent does not say (the configured top k, read at each call). */
  topK: () => number;
  ledgers?: ToolLedgers;
}

export class DocsTools {
  readonly ledgers: ToolLedgers;

  constructor(
    private readonly index: () => Promise<CheckIndex>,
    private readonly options: DocsToolsOptions,
  ) {
    this.ledgers = options.ledgers ?? new ToolLedgers();
  }

  /** `conversation` keys the ledger (a chat session, an MCP connection); `tool` names the tool in error messages. */
  async search(
    conversation: string,
    tool: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<SearchDocsResult & { evidence: Evidence[] }> {
    const input = readSearchInput(tool, args);
    const found = await (await this.index()).searchPassages(input.query, input.k ?? this.options.topK(), signal);
    signal?.throwIfAborted();
    const ledger = this.ledgers.forSearch(conversation);
    const evidence = found.map((p) => ledger.record(p));
    return { passages: evidence.map(toolPassage), evidence };
  }

  async check(
    conversation: string,
    tool: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<{ result: CheckAnswerResult; check: TextCheck }> {
    const input = readCheckInput(tool, args);
    // A conversation that never searched (or whose ledger was freed) still has a ledger: an empty one, so its ids fail the lookup.
    const evidence = this.ledgers.forCheck(conversation) ?? { get: () => undefined, all: () => [] };
    const check = await checkText(input.answer, await this.index(), {
      evidence,
      question: input.question,
      k: this.options.topK(),
      signal,
    });
    return { result: checkAnswerResult(check), check };
  }
}

function toolPassage(e: Evidence): ToolPassage {
  return {
    id: e.id,
    source: e.source,
    startLine: e.startLine,
    endLine: e.endLine,
    heading: e.heading,
    text: e.text,
    version: e.version,
  };
}

/** The structured result of a check, as the tools return it. */
export function checkAnswerResult(check: TextCheck): CheckAnswerResult {
  return {
    sentences: check.sentences.map((s) => ({
      text: s.text,
      verdict: s.verdict,
      reason: s.reason,
      route: s.route,
      evidence: s.evidence.map((e) => ({
        ...(s.route === 'cited' ? { id: e.id } : {}),
        source: e.source,
        startLine: e.startLine,
        endLine: e.endLine,
      })),
    })),
    coverage: Math.round(check.coverage * 1000) / 1000,
  };
}
