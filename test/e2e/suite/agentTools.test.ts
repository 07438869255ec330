// In-host checks of Evident as a tool for agents, in the real extension host: VS Code lists the
// two language model tools; calling them through `vscode.lm.invokeTool` (as Copilot agent mode
// does) returns passages under ids and a per-sentence check of an answer; a bad argument is an
// error the model can read. Then "Check Text Against the Docs" on a pasted answer with one
// backed and one unbacked sentence: the summary, the Problems entry and the hovers.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CheckAnswerResult, ToolPassage } from '../../../src/core/tools';
import { Commands, EXTENSION_ID, LanguageModelTools } from '../../../src/shared/ids';

/** The Marketplace terms say 13; the second sentence plants 21. */
const BACKED = 'To use GitHub Marketplace you must be 13 years of age or older.';
const PLANTED = 'To use GitHub Marketplace you must be 21 years of age or older.';

type CheckedSentence = CheckAnswerResult['sentences'][number];

function textParts(result: vscode.LanguageModelToolResult): string[] {
  return result.content.map((part) => {
    assert.ok(part instanceof vscode.LanguageModelTextPart, `a tool result part is not text: ${JSON.stringify(part)}`);
    return part.value;
  });
}

async function invoke(name: string, input: object): Promise<string[]> {
  const source = new vscode.CancellationTokenSource();
  try {
    return textParts(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token));
  } finally {
    source.dispose();
  }
}

async function hoverAt(document: vscode.TextDocument, offset: number): Promise<string> {
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

describe('Evident as a tool for agents (language model tools, Check Text)', function () {
  this.timeout(60_000);
  let searchId: string;
  let passage: ToolPassage;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });

  it('vscode.lm.tools lists evident_searchDocs and evident_checkAnswer with their schemas', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('evident_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), [LanguageModelTools.checkAnswer, LanguageModelTools.searchDocs]);
    const search = ours.find((t) => t.name === LanguageModelTools.searchDocs);
    assert.deepEqual((search?.inputSchema as { required?: string[] }).required, ['query']);
    assert.match(search?.description ?? '', /evidence id.*evident_checkAnswer/s);
    assert.ok(search?.tags.includes('evident'));
  });

  it('evident_searchDocs returns passages under ids with source, lines, heading, text and version', async () => {
    const [json, note] = await invoke(LanguageModelTools.searchDocs, {
      query: 'minimum age to use GitHub Marketplace',
    });
    const { passages } = JSON.parse(json) as { passages: ToolPassage[] };
    assert.ok(passages.length > 0, 'no passage');
    assert.deepEqual(
      passages.map((p) => p.id),
      passages.map((_, i) => `E${i + 1}`),
    );
    const found = passages.find((p) => /13 years of age/.test(p.text));
    assert.ok(found, `no passage states the age: ${passages.map((p) => p.source).join(', ')}`);
    assert.equal(found.source, 'Policies/github-terms/github-marketplace-terms-of-service.md');
    assert.ok(found.startLine >= 1 && found.endLine >= found.startLine);
    assert.match(found.version, /^[0-9a-f]{16}$/);
    // The file's lines hold the passage.
    const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, ...found.source.split('/'));
    const lines = new TextDecoder()
      .decode(await vscode.workspace.fs.readFile(file))
      .split('\n')
      .slice(found.startLine - 1, found.endLine)
      .join('\n');
    assert.match(lines, /13 years of age/);
    assert.match(note, new RegExp(`call ${LanguageModelTools.checkAnswer}`));
    assert.ok(note.includes(`${found.id}: [${found.source}:${found.startLine}-${found.endLine}](file://`), note);
    searchId = found.id;
    passage = found;
  });

  it('evident_checkAnswer keeps the sentence its id backs and drops a planted figure checked by retrieval', async () => {
    assert.ok(searchId, 'needs the search of the previous test');
    const [json, note] = await invoke(LanguageModelTools.checkAnswer, {
      answer: `${BACKED.slice(0, -1)} [${searchId}]. ${PLANTED} Marketplace fees are waived [E99].`,
    });
    const { sentences, coverage } = JSON.parse(json) as { sentences: CheckedSentence[]; coverage: number };
    assert.deepEqual(
      sentences.map((s) => [s.verdict, s.route]),
      [
        ['kept', 'cited'],
        ['dropped', 'retrieved'],
        ['dropped', 'cited'],
      ],
    );
    assert.deepEqual(sentences[0].evidence, [
      { id: searchId, source: passage.source, startLine: passage.startLine, endLine: passage.endLine },
    ]);
    assert.match(sentences[1].reason, /^value-mismatch: '21 years' — the passage says 13 years/);
    assert.equal(sentences[1].evidence[0].id, undefined, 'a retrieved passage carries no id');
    assert.match(sentences[2].reason, /^unknown-id: E99/);
    assert.equal(coverage, 0.333);
    assert.match(note, /^1 of 3 factual sentences backed/);
  });

  it('a bad argument is an error the model can read', async () => {
    await assert.rejects(invoke(LanguageModelTools.searchDocs, { query: '' }), /"query" is empty/);
    await assert.rejects(
      invoke(LanguageModelTools.checkAnswer, { answer: 'x'.repeat(60_000) }),
      /"answer" is 60,000 characters long; at most 50,000/,
    );
  });

  it('Check Text Against the Docs marks the backed and the unbacked sentence of a pasted answer', async () => {
    const text = `Here is what I found:\n\n${BACKED}\n\n${PLANTED}\n`;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
    await vscode.window.showTextDocument(document);
    const summary = await vscode.commands.executeCommand<{
      backed: number;
      factual: number;
      dropped: number;
      exempt: number;
    }>(Commands.checkText);
    assert.deepEqual(summary, { backed: 1, factual: 2, dropped: 1, exempt: 1 });
    const problems = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Evident');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].range.start.line, 4, 'the warning is on the planted sentence');
    assert.equal(problems[0].code, 'value-mismatch');
    assert.match(
      problems[0].message,
      /^Not backed by the docs: value-mismatch: '21 years' — the passage says 13 years/,
    );
    assert.ok(
      problems[0].relatedInformation?.[0]?.location.uri.path.endsWith('github-marketplace-terms-of-service.md'),
    );
    const backedHover = await hoverAt(document, text.indexOf(BACKED) + 5);
    assert.match(backedHover, /Evident: backed by the docs/);
    assert.match(backedHover, /github-marketplace-terms-of-service\.md/);
    assert.match(backedHover, /13 years of age/);
    assert.match(
      backedHover,
      /\(file:\/\/\/.*github-marketplace-terms-of-service\.md#L\d+-L\d+\)/,
      'the hover links to the passage lines',
    );
    const unbackedHover = await hoverAt(document, text.indexOf(PLANTED) + 5);
    assert.match(
      unbackedHover,
      /Evident: not backed by the docs\*\* — value-mismatch: .21 years. — the passage says 13 years/,
    );
    assert.match(unbackedHover, /Closest passage .*github-marketplace-terms-of-service\.md/);
    // An edit removes the check: it was of the text as it was.
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'Edited. '));
    assert.equal(vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Evident').length, 0);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Check Text checks only the selection when there is one', async () => {
    const text = `${PLANTED}\n\n${BACKED}\n`;
    // A document of its own name: a new untitled document would be "Untitled-1" again, like the one
    // the test before closed, and the workbench restores that name's cursor (from the closed one)
    // onto it a moment later, moving a selection made here.
    const uri = vscode.Uri.from({ scheme: 'untitled', path: `check-selection-${Date.now()}.md` });
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document);
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), text)));
    // As a user selects: with the workbench's own cursor commands, so the selection starts in the
    // editor and reaches the extension host from there (one set from here could be overwritten by an
    // editor change still on its way from the workbench, such as the reveal of showTextDocument). The
    // backed sentence is the last line: from the end of the document, select one line up.
    let lastChange = Date.now();
    const changes = vscode.window.onDidChangeTextEditorSelection((e) => {
      if (e.textEditor.document === document) lastChange = Date.now();
    });
    const quiet = async (ms: number, until: () => boolean): Promise<boolean> => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
        if (vscode.window.activeTextEditor?.document === document && until() && Date.now() - lastChange >= ms) {
          return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    };
    const selected = () => document.getText(vscode.window.activeTextEditor?.selection);
    try {
      assert.ok(await quiet(1_000, () => true), 'the editor did not settle');
      await vscode.commands.executeCommand('cursorBottom');
      await vscode.commands.executeCommand('cursorUpSelect');
      assert.ok(await quiet(1_000, () => selected() === `${BACKED}\n`), `selected: ${JSON.stringify(selected())}`);
    } finally {
      changes.dispose();
    }
    const summary = await vscode.commands.executeCommand<{ backed: number; factual: number }>(Commands.checkText);
    assert.deepEqual(
      summary,
      { backed: 1, factual: 1, dropped: 0, exempt: 0 },
      `selected after the check: ${JSON.stringify(selected())}`,
    );
    assert.equal(
      vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'Evident').length,
      0,
      'the unselected planted sentence was not checked',
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
