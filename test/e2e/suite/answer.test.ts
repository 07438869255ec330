// In-host checks of the answer flow through the command API, on a copy of the site-policy
// corpus opened as the workspace: reindex, ask offline (extractive model, lexical retrieval: no
// embedding model on this machine), open the answer as a document, and follow its [E#] hovers
// and links back to the real lines of the workspace files. Also an abstention.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, EXTENSION_ID } from '../../../src/shared/ids';
import type { TurnView } from '../../../src/shared/protocol';

/** Answered by the Marketplace terms ("you must be 13 years of age or older"). */
const ANSWERABLE = 'What is the minimum age to use GitHub Marketplace?';
const UNANSWERABLE = 'What is the airspeed velocity of an unladen swallow?';

/** One line of the answer document's "## Evidence" list: `- [E1] path, lines 3–7 — heading`. */
interface EvidenceEntry {
  id: string;
  source: string;
  startLine: number;
  endLine: number;
  offset: number;
}

function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the in-host suite needs a workspace folder (the site-policy copy)');
  return folder.uri;
}

/** Asks through the command and returns the turn it resolves to. */
async function ask(question: string): Promise<TurnView> {
  const turn = await vscode.commands.executeCommand<TurnView | undefined>(Commands.ask, question);
  assert.ok(
    turn,
    `${Commands.ask} resolved to ${String(turn)} for "${question}", not to its turn; see the Evident output channel`,
  );
  assert.equal(turn.question, question);
  assert.equal(turn.status, 'done', `the turn for "${question}" ended ${turn.status}: ${turn.error ?? ''}`);
  return turn;
}

/** Asks through the command, opens that turn's answer through the command, returns its editor. */
async function askAndOpen(question: string): Promise<vscode.TextEditor> {
  const turn = await ask(question);
  await vscode.commands.executeCommand(Commands.openAnswerInEditor, turn.id);
  const editor = vscode.window.activeTextEditor;
  const text = editor?.document.getText() ?? '';
  assert.ok(
    editor && editor.document.uri.scheme !== 'file' && text.startsWith(`# ${question}`),
    `${Commands.ask} then ${Commands.openAnswerInEditor} opened no answer document for "${question}" (active: ${editor?.document.uri.toString()}); see the Evident output channel`,
  );
  return editor;
}

/** The answer part of the document: between the question heading and the metrics rule. */
function answerBody(text: string): string {
  return text.slice(text.indexOf('\n'), text.indexOf('\n---\n'));
}

function evidenceEntries(document: vscode.TextDocument): EvidenceEntry[] {
  const text = document.getText();
  const section = text.indexOf('## Evidence');
  if (section < 0) return [];
  const entries: EvidenceEntry[] = [];
  const line = /^- \[(E\d+)\] (.+?), lines? (\d+)(?:–(\d+))?/gm;
  line.lastIndex = section;
  for (let m = line.exec(text); m; m = line.exec(text)) {
    entries.push({
      id: m[1],
      source: m[2],
      startLine: Number(m[3]),
      endLine: Number(m[4] ?? m[3]),
      offset: m.index + 3,
    });
  }
  return entries;
}

async function hoverText(document: vscode.TextDocument, offset: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    document.uri,
    document.positionAt(offset),
  );
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n')
    .replace(/\\(.)/g, '$1');
}

function words(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? [])];
}

async function sourceLines(source: string): Promise<string[]> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), ...source.split('/'));
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split(/\r?\n/);
}

describe('Evident answers through the command API', function () {
  // Indexing the corpus takes seconds here: a test still running after this is hung, not slow.
  this.timeout(30_000);
  let answer: vscode.TextEditor | undefined;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  it('reindexes the workspace and answers offline with cited sentences', async () => {
    await vscode.commands.executeCommand(Commands.reindex);
    answer = await askAndOpen(ANSWERABLE);
    const text = answer.document.getText();
    const body = answerBody(text);
    assert.match(body, /\b13\b/, `the answer should state the minimum age (13): ${body}`);
    assert.match(body, /\[E\d+\]/, `the answer cites nothing: ${body}`);
    assert.match(
      text,
      /· answered · model extractive(\b|\s)/,
      'without a key the offline extractive model must answer',
    );
    assert.match(text, /· lexical retrieval/, 'no embedding model is available offline: retrieval must be lexical');
    const listed = new Set(evidenceEntries(answer.document).map((e) => e.id));
    for (const [, id] of body.matchAll(/\[(E\d+)\]/g)) {
      assert.ok(listed.has(id), `the answer cites ${id}, which is not in this turn's evidence`);
    }
  });

  it(`${Commands.ask} resolves to the turn with its verified answer`, async () => {
    const { result } = await ask(ANSWERABLE);
    assert.ok(result, 'the finished turn carries no result');
    assert.equal(result.abstained, false, `the answer abstained: ${result.answer}`);
    assert.match(result.answer, /\b13\b/, `the answer should state the minimum age (13): ${result.answer}`);
    const kept = result.sentences.filter((s) => s.verdict === 'kept');
    assert.ok(
      kept.length > 0,
      `no sentence was kept: ${JSON.stringify(result.sentences.map((s) => [s.verdict, s.reason]))}`,
    );
    const evidenceIds = new Set(result.evidence.map((e) => e.id));
    for (const sentence of kept) {
      assert.ok(sentence.citations.length > 0, `a kept sentence cites nothing: ${sentence.text}`);
      for (const id of sentence.citations) {
        assert.ok(evidenceIds.has(id), `a kept sentence cites ${id}, which is not in the turn's evidence`);
      }
    }
    assert.equal(result.metrics.abstained, false);
    assert.equal(result.metrics.retrieved, result.evidence.length);
  });

  it("lists evidence whose passages are the real lines of the workspace's files", async () => {
    assert.ok(answer, 'needs the answer of the previous test');
    const entries = evidenceEntries(answer.document);
    assert.ok(entries.length > 0, 'the answer document lists no evidence');
    for (const entry of entries) {
      const lines = await sourceLines(entry.source);
      assert.ok(
        entry.startLine >= 1 && entry.startLine <= entry.endLine && entry.endLine <= lines.length,
        `${entry.id}: lines ${entry.startLine}-${entry.endLine} outside ${entry.source} (${lines.length} lines)`,
      );
      const hover = await hoverText(answer.document, entry.offset);
      assert.ok(
        hover.includes(entry.source),
        `the hover on ${entry.id} does not name ${entry.source}: ${hover.slice(0, 200)}`,
      );
      const cited = new Set(words(lines.slice(entry.startLine - 1, entry.endLine).join('\n')));
      // The hover is "**id · source, lines**", then "_heading_", then the passage text.
      const passage = words(hover.slice(hover.lastIndexOf('\n\n')));
      const found = passage.filter((w) => cited.has(w)).length;
      assert.ok(
        found >= 0.8 * passage.length,
        `${entry.id}: only ${found}/${passage.length} words of the hovered passage are in ${entry.source}:${entry.startLine}-${entry.endLine}`,
      );
    }
  });

  it('links each citation to its source, opened at the cited lines', async () => {
    assert.ok(answer, 'needs the answer of the previous test');
    const document = answer.document;
    const cited = /\[(E\d+)\]/.exec(answerBody(document.getText()));
    assert.ok(cited);
    const offset = document.getText().indexOf(cited[0]) + 1;
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>(
      'vscode.executeLinkProvider',
      document.uri,
    );
    const link = links.find((l) => l.range.contains(document.positionAt(offset)));
    assert.ok(link?.target, `no document link on ${cited[0]} (${links.length} links)`);
    const entry = evidenceEntries(document).find((e) => e.id === cited[1]);
    assert.ok(entry);
    // Follow the link the way the editor does: a command: URI runs its command with its JSON arguments.
    assert.equal(link.target.scheme, 'command', `unexpected link target ${link.target.toString()}`);
    const args: unknown = JSON.parse(decodeURIComponent(link.target.query));
    await vscode.commands.executeCommand(link.target.path, ...(Array.isArray(args) ? args : [args]));
    const source = vscode.window.activeTextEditor;
    assert.ok(source, 'the link opened no editor');
    assert.ok(
      source.document.uri.path.endsWith(`/${entry.source}`),
      `the link opened ${source.document.uri.toString()}, not ${entry.source}`,
    );
    const visible = source.visibleRanges.some(
      (r) => r.start.line + 1 <= entry.endLine && r.end.line + 1 >= entry.startLine,
    );
    assert.ok(visible, `${entry.source} is not scrolled to lines ${entry.startLine}-${entry.endLine}`);
    assert.ok(
      source.selection.start.line + 1 >= entry.startLine && source.selection.start.line + 1 <= entry.endLine,
      `the cursor is not on the cited lines (line ${source.selection.start.line + 1})`,
    );
  });

  it('says when a cited source has changed since the answer (its version no longer matches)', async () => {
    const turn = await ask(ANSWERABLE);
    const evidence = turn.result?.evidence[0];
    assert.ok(evidence, 'the turn retrieved evidence');
    const fresh = await vscode.commands.executeCommand<{ stale: boolean } | undefined>(
      Commands.openEvidence,
      turn.id,
      evidence.id,
    );
    assert.deepEqual(fresh, { stale: false }, 'the file is still the version that backed the answer');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor && editor.document.uri.path.endsWith(`/${evidence.source}`));
    // An unsaved edit: the text shown is no longer the cited version (nothing on disk changes).
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'Edited after the answer.\n'));
    try {
      const changed = await vscode.commands.executeCommand<{ stale: boolean } | undefined>(
        Commands.openEvidence,
        turn.id,
        evidence.id,
      );
      assert.deepEqual(changed, { stale: true }, 'an edited source is reported as changed');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('abstains with NOT_FOUND when the documents do not answer', async () => {
    const editor = await askAndOpen(UNANSWERABLE);
    const text = editor.document.getText();
    assert.match(text, /^> Not found in the indexed documents: \S/m, `expected an abstention:\n${text.slice(0, 400)}`);
    assert.doesNotMatch(answerBody(text), /\[E\d+\]/, 'an abstention cites nothing');
    assert.match(text, /· abstained ·/);
  });
});
