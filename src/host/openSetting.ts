// Opens Evident's settings by id in the Settings editor tab where they apply (settingLocation.ts):
// the Remote tab for machine settings in a remote window, the Workspace tab for a workspace's own.

import * as vscode from 'vscode';
import { EXTENSION_ID } from '../shared/ids';
import { settingScopes, settingsQuery, settingsTab, type SettingsTab } from './settingLocation';

const OPEN_COMMAND: Record<SettingsTab, string> = {
  user: 'workbench.action.openSettings',
  remote: 'workbench.action.openRemoteSettings',
  workspace: 'workbench.action.openWorkspaceSettings',
};

/** Opens the Settings editor showing exactly `ids` (all of one scope: the first one's decides the tab). */
export async function openSettingsById(ids: readonly string[]): Promise<SettingsTab> {
  const scopes = settingScopes(
    (
      vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as
        { contributes?: { configuration?: unknown } } | undefined
    )?.contributes?.configuration,
  );
  const tab = settingsTab(scopes.get(ids[0]), {
    remote: vscode.env.remoteName !== undefined,
    folder: (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
  });
  await vscode.commands.executeCommand(OPEN_COMMAND[tab], { query: settingsQuery(ids) });
  return tab;
}
