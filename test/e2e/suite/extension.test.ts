// In-host checks of what the extension registers: it activates, every command id in ids.ts is
// registered and contributed under the "Evident" category, and the Evident view container with
// the chat webview view is contributed and can be shown.

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands, EXTENSION_ID, Views } from '../../../src/shared/ids';

interface ContributedCommand {
  command: string;
  title: string;
  category?: string;
}

interface Contributes {
  commands?: ContributedCommand[];
  viewsContainers?: { activitybar?: { id: string; title: string }[] };
  views?: Record<string, { id: string; type?: string; name?: string }[]>;
}

/** Commands the palette does not list (invoked by citation links with arguments). */
const INTERNAL_COMMANDS: readonly string[] = [Commands.openEvidence];

function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(found, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  return found;
}

function contributes(): Contributes {
  return (extension().packageJSON as { contributes?: Contributes }).contributes ?? {};
}

describe('Evident extension inside VS Code', () => {
  it('activates', async () => {
    const ext = extension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command id of src/shared/ids.ts', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = Object.values(Commands).filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `commands not registered at run time: ${missing.join(', ')}`);
  });

  it('contributes every user-facing command to the palette under the "Evident" category', () => {
    const contributed = new Map((contributes().commands ?? []).map((c) => [c.command, c]));
    const userFacing = Object.values(Commands).filter((id) => !INTERNAL_COMMANDS.includes(id));
    const missing = userFacing.filter((id) => !contributed.has(id));
    assert.deepEqual(missing, [], `commands missing from package.json contributes.commands: ${missing.join(', ')}`);
    const wrongCategory = userFacing.filter((id) => contributed.get(id)?.category !== 'Evident');
    assert.deepEqual(wrongCategory, [], `commands without category "Evident": ${wrongCategory.join(', ')}`);
  });

  it(`contributes the "${Views.containerTitle}" view container holding the chat webview view`, () => {
    const containers = contributes().viewsContainers?.activitybar ?? [];
    assert.ok(
      containers.some((c) => c.id === Views.container && c.title === Views.containerTitle),
      `no activity-bar view container {id: "${Views.container}", title: "${Views.containerTitle}"} in package.json`,
    );
    const views = contributes().views?.[Views.container] ?? [];
    assert.ok(
      views.some((v) => v.id === Views.chat && v.type === 'webview'),
      `no webview view "${Views.chat}" in contributes.views.${Views.container}`,
    );
  });

  it('shows the chat view (its focus command resolves)', async () => {
    await vscode.commands.executeCommand(`${Views.chat}.focus`);
  });
});
