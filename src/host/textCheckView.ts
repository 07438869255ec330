// What "Check Text Against the Docs" shows in the editor: each backed sentence tinted, with a hover
// that quotes its passage and links to its lines; each unbacked sentence highlighted with its
// reason (a decoration, and a warning in the Problems view, which F8 and screen readers reach);
// a status bar summary "n of m backed" while the checked document is in front. A check belongs
// to the text as it was: an edit of the document removes it (run the command again).

import * as vscode from 'vscode';
import type { CheckedSentence, TextCheck } from '../core/tools';
import type { Evidence } from '../domain/types';
import { counted } from '../domain/wording';
import { Colors, Commands, ContextKeys } from '../shared/ids';
import { escapeMarkdownLine, escapeMarkdownText, markdownCodeSpan } from './markdownText';

export interface TextCheckSummary {
  backed: number;
  factual: number;
  dropped: number;
  exempt: number;
}

interface ShownCheck {
  version: number;
  /** Offset of the checked text in the document (a selection starts where it starts). */
  offset: number;
  result: TextCheck;
  summary: TextCheckSummary;
}

export function summarize(result: TextCheck): TextCheckSummary {
  const of = (verdict: CheckedSentence['verdict']) => result.sentences.filter((s) => s.verdict === verdict).length;
  const backed = of('kept');
  const dropped = of('dropped');
  return { backed, factual: backed + dropped, dropped, exempt: of('exempt') };
}

export function describeSummary(summary: TextCheckSummary): string {
  const notBacked = summary.dropped ? `; ${summary.dropped} not backed` : '';
  return `${summary.backed} of ${counted(summary.factual, 'factual sentence')} backed by the docs${notBacked}`;
}

export class TextCheckView implements vscode.Disposable, vscode.HoverProvider {
  private readonly backed = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.backedSentence),
    borderRadius: '2px',
  });
  private readonly unbacked = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.droppedSentence),
    borderRadius: '2px',
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.warningForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Right,
  });
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('evident-check');
  private readonly status = vscode.window.createStatusBarItem('evident.textCheck', vscode.StatusBarAlignment.Left, 90);
  private readonly checks = new Map<string, ShownCheck>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly sourceUri: (source: string) => vscode.Uri | undefined) {
    this.status.name = 'Evident: text check';
    this.status.command = Commands.clearTextCheck;
    this.disposables = [
      this.backed,
      this.unbacked,
      this.diagnostics,
      this.status,
      vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => this.decorate(e))),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateStatus()),
      vscode.workspace.onDidChangeTextDocument((event) => {
        const shown = this.checks.get(event.document.uri.toString());
        if (shown && event.contentChanges.length > 0 && event.document.version !== shown.version) {
          this.clear(event.document.uri);
        }
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.clear(document.uri)),
      // Every document may be checked (untitled answers, files of any language): the provider answers only for checked ones.
      vscode.languages.registerHoverProvider('*', this),
    ];
  }

  /** Shows a check of `document`'s text from `offset`; replaces an earlier check of that document. */
  show(document: vscode.TextDocument, offset: number, result: TextCheck): TextCheckSummary {
    const summary = summarize(result);
    this.checks.set(document.uri.toString(), { version: document.version, offset, result, summary });
    this.diagnostics.set(document.uri, this.problems(document, offset, result));
    for (const editor of vscode.window.visibleTextEditors) if (editor.document === document) this.decorate(editor);
    this.updateStatus();
    return summary;
  }

  /** Removes the check of one document, or of all. */
  clear(uri?: vscode.Uri): void {
    const keys = uri ? [uri.toString()] : [...this.checks.keys()];
    for (const key of keys) {
      if (!this.checks.delete(key)) continue;
      this.diagnostics.delete(vscode.Uri.parse(key));
      for (const editor of vscode.window.visibleTextEditors) {
        if (editor.document.uri.toString() !== key) continue;
        editor.setDecorations(this.backed, []);
        editor.setDecorations(this.unbacked, []);
      }
    }
    this.updateStatus();
  }

  /** The check shown for a document (for the command's callers and tests). */
  checkOf(uri: vscode.Uri): { offset: number; result: TextCheck; summary: TextCheckSummary } | undefined {
    return this.checks.get(uri.toString());
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.checks.clear();
  }

  private decorate(editor: vscode.TextEditor): void {
    const shown = this.checks.get(editor.document.uri.toString());
    if (!shown) return;
    const range = (s: CheckedSentence) =>
      new vscode.Range(
        editor.document.positionAt(shown.offset + s.start),
        editor.document.positionAt(shown.offset + s.end),
      );
    const { sentences } = shown.result;
    editor.setDecorations(this.backed, sentences.filter((s) => s.verdict === 'kept').map(range));
    editor.setDecorations(this.unbacked, sentences.filter((s) => s.verdict === 'dropped').map(range));
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const shown = this.checks.get(document.uri.toString());
    if (!shown || document.version !== shown.version) return undefined;
    const offset = document.offsetAt(position) - shown.offset;
    const sentence = shown.result.sentences.find((s) => s.verdict !== 'exempt' && offset >= s.start && offset <= s.end);
    if (!sentence) return undefined;
    return new vscode.Hover(
      this.hover(sentence),
      new vscode.Range(
        document.positionAt(shown.offset + sentence.start),
        document.positionAt(shown.offset + sentence.end),
      ),
    );
  }

  /** A backed sentence: its passage, quoted as text, and a link to its lines. Unbacked: the closest passage, if any. */
  private hover(s: CheckedSentence): vscode.MarkdownString {
    const hover = new vscode.MarkdownString();
    const how =
      s.route === 'cited' ? 'checked against the ids it cites' : 'checked against the passages retrieved for it';
    if (s.verdict === 'kept') hover.appendMarkdown(`**Evident: backed by the docs** (${how})\n\n`);
    else hover.appendMarkdown(`**Evident: not backed by the docs** — ${escapeMarkdownLine(s.reason)} (${how})\n\n`);
    for (const e of s.evidence) {
      this.appendPassage(
        hover,
        e,
        s.verdict === 'kept' ? 'Backed by' : s.route === 'cited' ? 'Cites' : 'Closest passage',
      );
    }
    return hover;
  }

  private appendPassage(hover: vscode.MarkdownString, e: Evidence, label: string): void {
    const lines = e.startLine === e.endLine ? `line ${e.startLine}` : `lines ${e.startLine}–${e.endLine}`;
    const uri = this.sourceUri(e.source);
    // Passage text and file names are untrusted: escaped, so they render as literal text.
    const where = `${markdownCodeSpan(e.source)}, ${lines}`;
    const link = uri
      ? ` · [Open ${escapeMarkdownLine(lines)}](${uri.with({ fragment: `L${e.startLine}-L${e.endLine}` }).toString()})`
      : '';
    hover.appendMarkdown(`${label} ${where}${e.heading ? ` — _${escapeMarkdownLine(e.heading)}_` : ''}${link}\n\n`);
    hover.appendMarkdown(`${escapeMarkdownText(e.text)}\n\n`);
  }

  private problems(document: vscode.TextDocument, offset: number, result: TextCheck): vscode.Diagnostic[] {
    return result.sentences
      .filter((s) => s.verdict === 'dropped')
      .map((s) => {
        const range = new vscode.Range(document.positionAt(offset + s.start), document.positionAt(offset + s.end));
        const diagnostic = new vscode.Diagnostic(
          range,
          `Not backed by the docs: ${s.reason}`,
          vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = 'Evident';
        diagnostic.code = s.code;
        diagnostic.relatedInformation = s.evidence.flatMap((e) => {
          const uri = this.sourceUri(e.source);
          const where = new vscode.Range(
            Math.max(0, e.startLine - 1),
            0,
            Math.max(0, e.endLine - 1),
            Number.MAX_SAFE_INTEGER,
          );
          return uri
            ? [
                new vscode.DiagnosticRelatedInformation(
                  new vscode.Location(uri, where),
                  `${s.route === 'cited' ? 'cited' : 'closest'} passage: ${e.heading || e.source}`,
                ),
              ]
            : [];
        });
        return diagnostic;
      });
  }

  private updateStatus(): void {
    void vscode.commands.executeCommand('setContext', ContextKeys.textChecked, this.checks.size > 0);
    const editor = vscode.window.activeTextEditor;
    const shown = editor && this.checks.get(editor.document.uri.toString());
    if (!shown) {
      this.status.hide();
      return;
    }
    const { summary } = shown;
    this.status.text = `$(${summary.dropped ? 'warning' : 'pass'}) ${summary.backed}/${summary.factual} backed`;
    this.status.tooltip = `Evident: ${describeSummary(summary)}. Click to clear the check.`;
    this.status.accessibilityInformation = { label: `Evident text check: ${describeSummary(summary)}` };
    this.status.show();
  }
}
