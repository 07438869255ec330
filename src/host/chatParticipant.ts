// The `@evident` participant in VS Code's native chat (where the running VS Code has the chat
// participant API): the same engine and verifier, with the model the user picked in the chat;
// verified sentences with their citations as inline anchors, sources as references with
// locations, and the dropped sentences listed with their reasons.

import * as vscode from 'vscode';
import type { TurnResult } from '../domain/types';
import { ABSTENTION_PREFIX } from '../domain/abstention';
import { findCitationGroups } from '../domain/citations';
import { Participant } from '../shared/ids';
import { staleSourcesWarning } from '../domain/staleSources';
import { escapeMarkdownLine } from './markdownText';
import { createLanguageModelChatModel } from './lmChatModel';
import { errorMessage, isAbortError } from './log';
import type { SourceHighlighter } from './sourceHighlight';
import type { WorkspaceIndex } from './workspaceIndex';
import type { VerifierEscalation } from './escalation';

function streamResult(result: TurnResult, stream: vscode.ChatResponseStream, sources: SourceHighlighter): void {
  const evidence = new Map(result.evidence.map((e) => [e.id, e] as const));
  const location = (id: string) => {
    const e = evidence.get(id);
    const uri = e && sources.sourceUri(e.source);
    return e && uri ? new vscode.Location(uri, sources.rangeOf(e)) : undefined;
  };

  if (result.abstained) {
    stream.markdown(
      `**Not found in the indexed documents:** ${escapeMarkdownLine(result.answer.replace(ABSTENTION_PREFIX, ''))}\n\n`,
    );
  }
  for (const sentence of result.sentences) {
    if (sentence.verdict === 'dropped' || ABSTENTION_PREFIX.test(sentence.text)) continue;
    let last = 0;
    for (const group of findCitationGroups(sentence.text)) {
      stream.markdown(escapeMarkdownLine(sentence.text.slice(last, group.start)));
      for (const id of group.evidenceIds) {
        const at = location(id);
        if (at) stream.anchor(at, id);
        else stream.markdown(escapeMarkdownLine(`[${id}]`));
      }
      last = group.end;
    }
    stream.markdown(`${escapeMarkdownLine(sentence.text.slice(last))} `);
  }

  if (result.relevance?.verdict === 'partial') {
    stream.markdown(`\n\n**Not found:** ${escapeMarkdownLine(result.relevance.reason)}\n\n`);
  }
  const stale = staleSourcesWarning(result);
  if (stale) stream.markdown(`\n\n⚠️ **${escapeMarkdownLine(stale)}**\n\n`);

  const cited = new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations));
  for (const id of cited) {
    const at = location(id);
    if (at) stream.reference(at);
  }

  const dropped = result.sentences.filter((s) => s.verdict === 'dropped');
  if (dropped.length > 0) {
    stream.markdown(`\n\n**Dropped by the verifier (${dropped.length}):**\n\n`);
    for (const s of dropped) {
      stream.markdown(`- ~~${escapeMarkdownLine(s.text)}~~ — _${escapeMarkdownLine(s.reason)}_\n`);
    }
  }
  const { retrieved, coverage, abstained } = result.metrics;
  stream.markdown(
    `\n\n_${retrieved} retrieved · ${Math.round(coverage * 100)}% cited · ${dropped.length} dropped · ${abstained ? 'abstained' : 'answered'} · ${escapeMarkdownLine(result.retrieval)} retrieval_`,
  );
}

export function registerChatParticipant(
  context: vscode.ExtensionContext,
  index: WorkspaceIndex,
  sources: SourceHighlighter,
  log: vscode.LogOutputChannel,
  escalation: VerifierEscalation,
  /** Called after each answered turn (the metrics dashboard checks for new drift alerts). */
  afterTurn?: () => void,
): void {
  // Older or stripped-down builds (e.g. some code-server versions) have no chat API.
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    log.info('The chat participant API is not available here: @evident is not registered.');
    return;
  }
  const handler: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    try {
      stream.progress('Opening the index…');
      const engine = await index.ready(() => stream.progress('Indexing the workspace docs…'));
      const model = createLanguageModelChatModel(request.model);
      const result = await engine.ask(request.prompt, {
        model,
        escalation: escalation.forTurn(model),
        signal: controller.signal,
        onEvent: (event) =>
          stream.progress(event.type === 'search' ? `Searching: ${event.query}` : 'Verifying citations…'),
      });
      streamResult(result, stream, sources);
      afterTurn?.();
      return { metadata: { invocationId: result.invocationId, metrics: result.metrics } };
    } catch (error) {
      if (isAbortError(error)) return {};
      log.error(`@evident failed: ${errorMessage(error)}`);
      return { errorDetails: { message: errorMessage(error) } };
    } finally {
      cancel.dispose();
    }
  };
  const participant = vscode.chat.createChatParticipant(Participant.id, handler);
  participant.iconPath = new vscode.ThemeIcon('book');
  context.subscriptions.push(participant);
}
