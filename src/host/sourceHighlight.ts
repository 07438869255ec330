// Opens a cited passage in its source file at its lines, and highlights the passages that the
// current answer cites in every visible editor of those files (while that answer is current); the
// passage opened last (the chip clicked) is picked out from the others by its own colour and a bar.
// A file whose text is not the cited version gets no highlight (its lines may hold other text),
// and a shared index's passage then opens read-only with its version (citationTarget.ts).

import * as vscode from 'vscode';
import type { Evidence, TurnResult } from '../domain/types';
import { Colors, PASSAGE_SCHEME } from '../shared/ids';
import { existsSync } from 'node:fs';
import { citationTarget, highlightable } from './citationTarget';
import { isWebEvidence } from '../domain/answerLayout';
import { isSafeExternalUrl } from '../shared/protocol';
import { loadEngineApi } from './engineLoader';
import type { ChatSession } from './chatSession';
import type { WorkspaceIndex } from './workspaceIndex';

export class SourceHighlighter implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.citedPassage),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor(Colors.citedPassage),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly openedDecoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.openedPassage),
    isWholeLine: true,
    borderStyle: 'solid',
    borderWidth: '0 0 0 3px',
    borderColor: new vscode.ThemeColor(Colors.openedPassageBorder),
    overviewRulerColor: new vscode.ThemeColor(Colors.openedPassageBorder),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private readonly disposables: vscode.Disposable[] = [];
  /** The evidence of the current answer that kept sentences cite, by absolute file path. */
  private cited = new Map<string, Evidence[]>();
  private currentTurnId: string | undefined;
  /** The passage opened last (its chip was clicked), while its answer is current. */
  private opened: Evidence | undefined;

  constructor(
    private readonly session: ChatSession,
    private readonly index: WorkspaceIndex,
  ) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(PASSAGE_SCHEME, {
        provideTextDocumentContent: (uri) => this.passageText(uri),
      }),
      this.decoration,
      this.openedDecoration,
      vscode.window.onDidChangeVisibleTextEditors(() => this.apply()),
      // An edit to a cited file changes its version: its highlight goes (or comes back on undo).
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.cited.has(event.document.uri.fsPath)) this.apply();
      }),
      session.onDidChange((event) => {
        if (event.type === 'turn' || event.type === 'cleared') {
          this.setCurrent(session.current?.result, session.current?.id);
        }
      }),
    );
    // Resolving sources loads the engine bundle: the answer restored from history is
    // highlighted just after activation returns, off its path (as the index warms up).
    const restore = setTimeout(() => this.setCurrent(session.current?.result, session.current?.id), 0);
    this.disposables.push({ dispose: () => clearTimeout(restore) });
  }

  /** Absolute URI of a docs-relative source path, refusing paths that leave their folder. */
  sourceUri(source: string): vscode.Uri | undefined {
    const folders = this.index.folders;
    // No folder: nothing resolves, and the engine bundle need not load to say so.
    const abs = folders.length ? loadEngineApi().resolveSource(folders, source) : undefined;
    return abs ? vscode.Uri.file(abs) : undefined;
  }

  rangeOf(evidence: Evidence): vscode.Range {
    return new vscode.Range(
      Math.max(0, evidence.startLine - 1),
      0,
      Math.max(0, evidence.endLine - 1),
      Number.MAX_SAFE_INTEGER,
    );
  }

  /**
   * Opens the passage `evidenceId` of turn `turnId` at its lines, highlighted. Says so when the
   * file's text is no longer the version that backed the answer.
   */
  async open(turnId: string, evidenceId: string): Promise<{ stale: boolean } | undefined> {
    const turn = this.session.find(turnId);
    const evidence = turn?.result?.evidence.find((e) => e.id === evidenceId);
    if (!turn?.result || !evidence) {
      void vscode.window.showWarningMessage(`Evident: ${evidenceId} is not part of that answer any more.`);
      return undefined;
    }
    if (isWebEvidence(evidence)) return this.openWeb(evidence);
    const uri = this.sourceUri(evidence.source);
    const store = this.index.status.store ? 'shared' : 'local';
    // A shared index's passage opens in the workspace file only when that file has the cited
    // version; otherwise its text is shown read-only, with its version.
    const target = citationTarget(
      evidence,
      store,
      uri && existsSync(uri.fsPath) ? await this.versionOf(uri) : undefined,
    );
    if (target === 'passage') {
      const passage = vscode.Uri.from({
        scheme: PASSAGE_SCHEME,
        path: `/${evidence.source}`,
        query: new URLSearchParams({ turn: turnId, evidence: evidenceId }).toString(),
      });
      await vscode.window.showTextDocument(passage, { preview: true });
      return { stale: false };
    }
    if (!uri) {
      void vscode.window.showWarningMessage(`Evident: cannot open ${evidence.source} outside the workspace folder.`);
      return undefined;
    }
    // The opened passage stays highlighted even when its answer is an older turn.
    if (turnId !== this.currentTurnId) this.setCurrent(turn.result, turnId, evidence);
    this.opened = evidence;
    const range = this.rangeOf(evidence);
    const editor = await vscode.window.showTextDocument(uri, {
      selection: new vscode.Range(range.start, range.start),
      preview: true,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.apply();
    const stale = loadEngineApi().documentVersion(editor.document.getText()) !== evidence.version;
    if (stale) {
      void vscode.window.showWarningMessage(
        `Evident: ${evidence.source} has changed since this answer (it cited version ${evidence.version}); the highlighted lines may no longer hold the cited passage. Ask again for an answer from the current text.`,
      );
    }
    return { stale };
  }

  /**
   * A web source (built-in grounding): opened in the browser through VS Code's external-link
   * confirmation; a data-store document that is not a web page is named instead.
   */
  private async openWeb(evidence: Evidence & { uri: string }): Promise<{ stale: boolean }> {
    if (isSafeExternalUrl(evidence.uri)) {
      await vscode.env.openExternal(vscode.Uri.parse(evidence.uri, true));
    } else {
      void vscode.window.showInformationMessage(
        `Evident: ${evidence.id} is ${evidence.title ? `"${evidence.title}", ` : ''}${evidence.uri} (not a web page).`,
      );
    }
    return { stale: false };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /**
   * The version of the file's text: as the editor has it when it is open (unsaved edits
   * included), else as it is on disk, read as the indexer reads it (no document is opened just
   * to check, so a file that changes on disk afterwards is not held at its old text).
   * Undefined when it cannot be read as text.
   */
  private async versionOf(uri: vscode.Uri): Promise<string | undefined> {
    const api = loadEngineApi();
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return api.documentVersion(open.getText());
    try {
      const decoded = api.decodeDocument(await vscode.workspace.fs.readFile(uri));
      return decoded.ok ? api.documentVersion(decoded.text) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The read-only text of a shared-index passage: where it is from, its version, its text. */
  private passageText(uri: vscode.Uri): string {
    const params = new URLSearchParams(uri.query);
    const evidence = this.session
      .find(params.get('turn') ?? '')
      ?.result?.evidence.find((e) => e.id === params.get('evidence'));
    if (!evidence) return 'This passage is not part of an answer any more.';
    const where = this.index.status.store ?? 'shared index';
    return [
      `${evidence.source} · lines ${evidence.startLine}–${evidence.endLine} · version ${evidence.version}`,
      `From the ${where}; this workspace does not have the file at that version.`,
      '',
      evidence.heading,
      '',
      evidence.text,
      '',
    ].join('\n');
  }

  private setCurrent(result: TurnResult | undefined, turnId: string | undefined, extra?: Evidence): void {
    if (turnId !== this.currentTurnId) this.opened = undefined;
    this.currentTurnId = turnId;
    this.cited.clear();
    if (result) {
      const keptIds = new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations));
      for (const e of result.evidence) {
        if ((!keptIds.has(e.id) && e !== extra) || isWebEvidence(e)) continue;
        const uri = this.sourceUri(e.source);
        if (!uri) continue;
        const list = this.cited.get(uri.fsPath) ?? [];
        list.push(e);
        this.cited.set(uri.fsPath, list);
      }
    }
    this.apply();
  }

  private apply(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.scheme !== 'file') continue;
      const cited = this.cited.get(editor.document.uri.fsPath) ?? [];
      // Only where the text is the cited version: elsewhere the recorded lines may hold other text.
      const evidence = cited.length
        ? highlightable(cited, loadEngineApi().documentVersion(editor.document.getText()))
        : [];
      const decorate = (e: Evidence, what: string) => {
        const hover = new vscode.MarkdownString();
        hover.appendText(`Evident ${e.id}: ${what} (${e.heading || e.source})`);
        return { range: this.rangeOf(e), hoverMessage: hover };
      };
      const isOpened = (e: Evidence) => e.id === this.opened?.id && e.passageId === this.opened.passageId;
      const opened = evidence.filter(isOpened);
      editor.setDecorations(
        this.decoration,
        evidence.filter((e) => !isOpened(e)).map((e) => decorate(e, 'cited by the current answer')),
      );
      editor.setDecorations(
        this.openedDecoration,
        opened.map((e) => decorate(e, 'the passage you opened, cited by the current answer')),
      );
    }
  }
}
