// Evident's language model tools for Copilot agent mode and any chat (`#evidentDocs`):
// evident_searchDocs and evident_checkAnswer, read-only, so no confirmation is asked. Their
// meaning is the core's (src/core/tools, reached through the engine bundle on first call); here
// they are adapted to VS Code: the conversation is the chat session VS Code ties each call to
// (its stable API gives a tool no request id, so the ledger is per session, freed after an idle
// time), cancellation comes from the token, and the result is the structured JSON the MCP server
// returns plus a note for the model with each file as a link to its lines.

import * as vscode from 'vscode';
import type { DocsTools, ToolPassage } from '../core/tools';
import { readIndexSettings } from './settings';
import { LanguageModelTools } from '../shared/ids';
import { loadEngineApi } from './engineLoader';
import { errorMessage, isAbortError } from './log';
import type { SourceHighlighter } from './sourceHighlight';
import type { WorkspaceIndex } from './workspaceIndex';

/** Calls from outside any chat (another extension's `invokeTool` without a token) share one ledger. */
const OUTSIDE_CHAT = 'outside-chat';

/** The ledger key of a call: VS Code's token names the chat session (an opaque object, compared by value). */
export function conversationOf(token: unknown): string {
  if (token === undefined || token === null) return OUTSIDE_CHAT;
  try {
    return `chat:${JSON.stringify(token)}`;
  } catch {
    return OUTSIDE_CHAT;
  }
}

export function registerLanguageModelTools(
  context: vscode.ExtensionContext,
  deps: { index: WorkspaceIndex; sources: SourceHighlighter; log: vscode.LogOutputChannel },
): void {
  // A build without the tools API (or a stripped-down editor) simply has no tools.
  if (typeof vscode.lm?.registerTool !== 'function') {
    deps.log.info(
      'The language model tools API is not available here: evident_searchDocs and evident_checkAnswer are not registered.',
    );
    return;
  }
  let tools: DocsTools | undefined;
  const docsTools = (): DocsTools =>
    (tools ??= new (loadEngineApi().tools.DocsTools)(() => deps.index.ready(), {
      topK: () => readIndexSettings(deps.index.folder?.uri).topK ?? loadEngineApi().DEFAULT_TOP_K,
    }));

  const searchDocs: vscode.LanguageModelTool<unknown> = {
    prepareInvocation: (options) => ({ invocationMessage: `Searching the docs for “${queryOf(options.input)}”` }),
    invoke: (options, token) =>
      run(deps.log, LanguageModelTools.searchDocs, token, async (signal) => {
        const { passages } = await docsTools().search(
          conversationOf(options.toolInvocationToken),
          LanguageModelTools.searchDocs,
          options.input,
          signal,
        );
        const headline = loadEngineApi().tools.searchHeadline({ passages }, LanguageModelTools.checkAnswer);
        return new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart(JSON.stringify({ passages })),
          new vscode.LanguageModelTextPart([headline, ...fileLinks(passages, deps.sources)].join('\n')),
        ]);
      }),
  };

  const checkAnswer: vscode.LanguageModelTool<unknown> = {
    prepareInvocation: () => ({ invocationMessage: 'Checking the answer against the docs' }),
    invoke: (options, token) =>
      run(deps.log, LanguageModelTools.checkAnswer, token, async (signal) => {
        const { result } = await docsTools().check(
          conversationOf(options.toolInvocationToken),
          LanguageModelTools.checkAnswer,
          options.input,
          signal,
        );
        const summary = loadEngineApi().tools.checkHeadline(result);
        return new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart(JSON.stringify(result)),
          new vscode.LanguageModelTextPart(`${summary} Reply with the kept sentences only, with their ids.`),
        ]);
      }),
  };

  context.subscriptions.push(
    vscode.lm.registerTool(LanguageModelTools.searchDocs, searchDocs),
    vscode.lm.registerTool(LanguageModelTools.checkAnswer, checkAnswer),
  );
}

function queryOf(input: unknown): string {
  const query = (input as { query?: unknown } | undefined)?.query;
  const text = typeof query === 'string' ? query.replace(/\s+/g, ' ').trim() : '';
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** Each passage's file as a link to its lines, for the model to show the user where a passage is. */
function fileLinks(passages: readonly ToolPassage[], sources: SourceHighlighter): string[] {
  if (passages.length === 0) return [];
  const links = passages.map((p) => {
    const uri = sources.sourceUri(p.source);
    const lines = p.startLine === p.endLine ? `L${p.startLine}` : `L${p.startLine}-L${p.endLine}`;
    return `- ${p.id}: ${uri ? `[${p.source}:${p.startLine}-${p.endLine}](${uri.with({ fragment: lines }).toString()})` : `${p.source}:${p.startLine}-${p.endLine}`}`;
  });
  return ['To show the user where a passage is, link its file:', ...links];
}

/**
 * Runs a tool call with cancellation from the token. A bad argument or a failure becomes an
 * error whose message the model reads (VS Code hands it the message); cancellation stays one.
 */
async function run(
  log: vscode.LogOutputChannel,
  tool: string,
  token: vscode.CancellationToken,
  call: (signal: AbortSignal) => Promise<vscode.LanguageModelToolResult>,
): Promise<vscode.LanguageModelToolResult> {
  const controller = new AbortController();
  const cancel = token.onCancellationRequested(() => controller.abort());
  try {
    return await call(controller.signal);
  } catch (error) {
    if (isAbortError(error) || token.isCancellationRequested) throw new vscode.CancellationError();
    if ((error as Error).name !== 'ToolInputError') log.warn(`${tool} failed: ${errorMessage(error)}`);
    throw new Error(errorMessage(error));
  } finally {
    cancel.dispose();
  }
}
