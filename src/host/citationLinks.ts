// Answers opened as read-only documents (`evident-answer:` URIs): each `[E#]` is decorated, is a
// link to its source passage (DocumentLinkProvider) and shows the passage on hover
// (HoverProvider); dropped sentences are present, struck through and highlighted, each followed by
// its reason as text of the document (so it wraps with the line, where a decoration would not).

import * as vscode from 'vscode';
import { ANSWER_SCHEME, Colors, Commands } from '../shared/ids';
import { describeLines, describeSource, isWebEvidence } from '../domain/answerLayout';
import { escapeMarkdownLine, escapeMarkdownText, markdownCodeSpan } from './markdownText';
import { answerTitle, layoutAnswerDocument, type AnswerDocumentLayout } from './answerDocument';
import type { ChatSession } from './chatSession';

function turnIdOf(uri: vscode.Uri): string | undefined {
  return new URLSearchParams(uri.query).get('turn') ?? undefined;
}

/** The answer document of a turn, titled by its question (the turn id stays in the query). */
export function answerUri(turnId: string, question: string): vscode.Uri {
  return vscode.Uri.from({ scheme: ANSWER_SCHEME, path: `/${answerTitle(question)}.md`, query: `turn=${turnId}` });
}

class AnswerDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.HoverProvider {
  private readonly layouts = new Map<string, AnswerDocumentLayout>();

  constructor(private readonly session: ChatSession) {}

  layout(uri: vscode.Uri): AnswerDocumentLayout | undefined {
    const turnId = turnIdOf(uri);
    if (!turnId) return undefined;
    let layout = this.layouts.get(turnId);
    const result = this.session.find(turnId)?.result;
    if (!layout && result) {
      layout = layoutAnswerDocument(result);
      this.layouts.set(turnId, layout);
    }
    return layout;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.layout(uri)?.text ?? 'This answer is no longer in the chat history.';
  }

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const turnId = turnIdOf(document.uri);
    const layout = this.layout(document.uri);
    if (!turnId || !layout) return [];
    return layout.citations
      .filter((c) => c.evidence)
      .map((c) => {
        const args = encodeURIComponent(JSON.stringify([turnId, c.evidenceId]));
        const link = new vscode.DocumentLink(
          new vscode.Range(document.positionAt(c.start), document.positionAt(c.end)),
          vscode.Uri.parse(`command:${Commands.openEvidence}?${args}`),
        );
        link.tooltip = c.evidence ? `Open ${describeSource(c.evidence)}` : undefined;
        return link;
      });
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const layout = this.layout(document.uri);
    const offset = document.offsetAt(position);
    const citation = layout?.citations.find((c) => offset >= c.start && offset <= c.end);
    if (!citation) return undefined;
    const range = new vscode.Range(document.positionAt(citation.start), document.positionAt(citation.end));
    const hover = new vscode.MarkdownString();
    const e = citation.evidence;
    if (!e) {
      hover.appendText(`${citation.evidenceId} was not retrieved in this turn.`);
      return new vscode.Hover(hover, range);
    }
    // Passage text is untrusted: escaped so it renders as literal text, never as Markdown.
    hover.appendMarkdown(
      `**${e.id}** · ${markdownCodeSpan(e.source)}${isWebEvidence(e) ? '' : ` · ${describeLines(e)}`}\n\n`,
    );
    if (e.heading) hover.appendMarkdown(`_${escapeMarkdownLine(e.heading)}_\n\n`);
    hover.appendMarkdown(escapeMarkdownText(e.text));
    return new vscode.Hover(hover, range);
  }
}

export function registerCitationLinks(
  context: vscode.ExtensionContext,
  session: ChatSession,
): { open(turnId: string): Promise<void> } {
  const documents = new AnswerDocuments(session);
  const selector: vscode.DocumentSelector = { scheme: ANSWER_SCHEME };
  const citationDecoration = vscode.window.createTextEditorDecorationType({
    color: new vscode.ThemeColor(Colors.citation),
    fontWeight: 'bold',
    textDecoration: 'underline',
  });
  const unknownDecoration = vscode.window.createTextEditorDecorationType({
    color: new vscode.ThemeColor('errorForeground'),
    textDecoration: 'line-through',
  });
  const droppedDecoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.droppedSentence),
    textDecoration: 'line-through',
    overviewRulerColor: new vscode.ThemeColor(Colors.droppedSentence),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  const droppedNoteDecoration = vscode.window.createTextEditorDecorationType({
    color: new vscode.ThemeColor('descriptionForeground'),
    fontStyle: 'italic',
  });

  const decorate = (editor: vscode.TextEditor) => {
    if (editor.document.uri.scheme !== ANSWER_SCHEME) return;
    const layout = documents.layout(editor.document.uri);
    if (!layout) return;
    const doc = editor.document;
    const range = (start: number, end: number) => new vscode.Range(doc.positionAt(start), doc.positionAt(end));
    editor.setDecorations(
      citationDecoration,
      layout.citations.filter((c) => c.evidence).map((c) => range(c.start, c.end)),
    );
    editor.setDecorations(
      unknownDecoration,
      layout.citations.filter((c) => !c.evidence).map((c) => range(c.start, c.end)),
    );
    editor.setDecorations(
      droppedDecoration,
      layout.dropped.map((d) => ({
        range: range(d.start, d.end),
        hoverMessage: new vscode.MarkdownString(escapeMarkdownLine(`Dropped by the verifier: ${d.reason}`)),
      })),
    );
    editor.setDecorations(
      droppedNoteDecoration,
      layout.dropped.map((d) => range(d.note.start, d.note.end)),
    );
  };

  context.subscriptions.push(
    citationDecoration,
    unknownDecoration,
    droppedDecoration,
    droppedNoteDecoration,
    vscode.workspace.registerTextDocumentContentProvider(ANSWER_SCHEME, documents),
    vscode.languages.registerDocumentLinkProvider(selector, documents),
    vscode.languages.registerHoverProvider(selector, documents),
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach(decorate)),
  );

  return {
    async open(turnId: string) {
      const uri = answerUri(turnId, session.find(turnId)?.question ?? '');
      const document = await vscode.languages.setTextDocumentLanguage(
        await vscode.workspace.openTextDocument(uri),
        'markdown',
      );
      const editor = await vscode.window.showTextDocument(document, {
        preview: false,
        viewColumn: vscode.ViewColumn.Active,
      });
      decorate(editor);
    },
  };
}
