// Where a setting is edited in the Settings editor: a plain text query in the User tab finds
// nothing for a setting a remote window keeps on the remote machine (scope `machine` or
// `machine-overridable`: the Remote tab holds it, e.g. in code-server), and a workspace's own
// settings (scope `resource`) are best set for that workspace. So the chat opens a setting by
// id (`@id:…`) in the tab where it applies. Pure (no `vscode` import): unit-tested in plain Node.

export type SettingsTab = 'user' | 'remote' | 'workspace';

export interface WindowKind {
  /** The window is remote (code-server, SSH, WSL, a dev container): `vscode.env.remoteName` is set. */
  remote: boolean;
  /** A folder or workspace is open. */
  folder: boolean;
}

/** The Settings editor tab for a setting of this `scope` (package.json's; absent means `window`). */
export function settingsTab(scope: string | undefined, window: WindowKind): SettingsTab {
  if ((scope === 'machine' || scope === 'machine-overridable') && window.remote) return 'remote';
  if (scope === 'resource' && window.folder) return 'workspace';
  return 'user';
}

/** The Settings editor's query showing exactly these settings. */
export function settingsQuery(ids: readonly string[]): string {
  return ids.map((id) => `@id:${id}`).join(' ');
}

/** The scope package.json gives each setting of a `contributes.configuration` (one object or a list). */
export function settingScopes(configuration: unknown): Map<string, string> {
  const scopes = new Map<string, string>();
  const groups = Array.isArray(configuration) ? configuration : [configuration];
  for (const group of groups) {
    const properties =
      typeof group === 'object' && group !== null ? (group as { properties?: unknown }).properties : undefined;
    if (typeof properties !== 'object' || properties === null) continue;
    for (const [id, schema] of Object.entries(properties as Record<string, unknown>)) {
      const scope = typeof schema === 'object' && schema !== null ? (schema as { scope?: unknown }).scope : undefined;
      scopes.set(id, typeof scope === 'string' ? scope : 'window');
    }
  }
  return scopes;
}
