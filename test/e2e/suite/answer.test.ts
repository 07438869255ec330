// In-host checks of the answer flow through the command API, on a copy of the site-policy
// corpus opened as the workspace: reindex, a verified answer offline (extractive model,
// lexical retrieval: no embedding model on this machine), an abstention, and the answer
// opened as a document with links and hovers from each [E#] to its passage.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, EXTENSION_ID } from '../../../src/shared/ids';
import { isTurnResult } from '../../../src/shared/protocol';
import type { Evidence, TurnResult } from '../../../src/core/types';

/** Answered by the Marketplace terms ("you must be 13 years of age or older"). */
const ANSWERABLE = 'How old must you be to use GitHub Marketplace?';
const UNANSWERABLE = 'What is the airspeed velocity of an unladen swallow?';

function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the in-host suite needs a workspace folder (the site-policy copy)');
  return folder.uri;
}

async function ask(question: string): Promise<TurnResult> {
  const result: unknown = await vscode.commands.executeCommand(Commands.ask, question);
  assert.ok(
    isTurnResult(result),
    `${Commands.ask} called with a question must resolve to the TurnResult of that turn; got ${JSON.stringify(result)?.slice(0, 300)}`,
  );
  return result;
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []);
}

/** The passage's words are (nearly all) in the lines its evidence names: the line range is real. */
async function assertEvidenceMatchesSource(evidence: Evidence): Promise<void> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), ...evidence.source.split('/'));
  const lines = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split(/\r?\n/);
  assert.ok(evidence.startLine >= 1 && evidence.endLine <= lines.length && evidence.startLine <= evidence.endLine, `${evidence.id}: line range ${evidence.startLine}-${evidence.endLine} outside ${evidence.source} (${lines.length} lines)`);
  const source = words(lines.slice(evidence.startLine - 1, evidence.endLine).join('\n'));
  const passage = [...words(evidence.text)];
  const found = passage.filter((w) => source.has(w)).length;
  assert.ok(found >= 0.8 * passage.length, `${evidence.id}: only ${found}/${passage.length} passage words are in ${evidence.source}:${evidence.startLine}-${evidence.endLine}`);
}

describe('Evident answers through the command API', function () {
  this.timeout(120_000);
  let answer: TurnResult | undefined;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  it('reindexes the workspace', async () => {
    await vscode.commands.executeCommand(Commands.reindex);
  });

  it('answers offline with cited sentences backed by passages of this turn', async () => {
    answer = await ask(ANSWERABLE);
    assert.equal(answer.abstained, false, `expected an answer, got an abstention: ${answer.answer}`);
    assert.equal(answer.retrieval, 'lexical', 'no embedding model is available offline: retrieval must say lexical');
    assert.match(answer.answer, /\b13\b/, `the answer should state the minimum age (13): ${answer.answer}`);
    const ids = new Set(answer.evidence.map((e) => e.id));
    const kept = answer.sentences.filter((s) => s.verdict === 'kept');
    assert.ok(kept.length > 0, 'no kept sentence');
    for (const sentence of kept) {
      assert.ok(sentence.citations.length > 0, `kept sentence without citation: ${sentence.text}`);
      for (const id of sentence.citations) assert.ok(ids.has(id), `kept sentence cites ${id}, not in this turn's evidence`);
    }
    assert.equal(answer.metrics.retrieved, answer.evidence.length);
    assert.equal(answer.metrics.abstained, false);
  });

  it('gives evidence that points at real lines of the workspace files', async () => {
    assert.ok(answer, 'needs the answer of the previous test');
    assert.ok(answer.evidence.length > 0, 'no evidence');
    for (const evidence of answer.evidence) await assertEvidenceMatchesSource(evidence);
  });

  it('abstains with NOT_FOUND when the documents do not answer', async () => {
    const result = await ask(UNANSWERABLE);
    assert.equal(result.abstained, true, `expected an abstention, got: ${result.answer}`);
    assert.match(result.answer, /^NOT_FOUND: \S/);
    assert.equal(result.sentences.filter((s) => s.verdict === 'kept').length, 0);
  });

  it('opens the answer as a document whose [E#] links and hovers lead to the cited passages', async () => {
    const turn = await ask(ANSWERABLE);
    await vscode.commands.executeCommand(Commands.openAnswerInEditor);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, `${Commands.openAnswerInEditor} opened no text editor`);
    const text = editor.document.getText();
    const cited = turn.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations);
    const first = cited[0];
    assert.ok(first, 'the answer cites nothing');
    const offset = text.indexOf(`[${first}]`);
    assert.ok(offset >= 0, `the answer document does not contain [${first}]:\n${text.slice(0, 500)}`);

    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', editor.document.uri);
    const position = editor.document.positionAt(offset + 1);
    const link = links.find((l) => l.range.contains(position));
    assert.ok(link, `no document link on [${first}] (links: ${links.length})`);
    const evidence = turn.evidence.find((e) => e.id === first);
    assert.ok(evidence);
    const target = decodeURIComponent(link.target?.toString() ?? '');
    assert.ok(
      target.includes(evidence.source) || target.includes(Commands.openEvidence),
      `the link on [${first}] leads to "${target}", not to ${evidence.source}`,
    );

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, position);
    const hoverText = hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n');
    const passageWords = [...words(evidence.text)].slice(0, 8);
    const shown = passageWords.filter((w) => hoverText.toLowerCase().includes(w));
    assert.ok(shown.length >= Math.min(5, passageWords.length), `the hover on [${first}] does not show its passage; hover text: ${hoverText.slice(0, 300)}`);
  });
});
