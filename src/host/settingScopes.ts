// Which scope a setting's value may come from (the trust model, docs/architecture.md). A
// repository's `.vscode/settings.json` is written by whoever wrote the repository: in a folder
// the user has not trusted (Restricted Mode) the settings that load model files or loosen the
// verifier are read from the user's own settings only; anywhere, a workspace cannot set the
// support threshold under the floor. Pure (no `vscode` import), so the rule is unit-tested.

import { boundWorkspaceThreshold } from '../domain/threshold';
import { Settings } from '../shared/ids';

/**
 * Settings a workspace may not set in an untrusted folder (package.json lists the same keys in
 * `capabilities.untrustedWorkspaces.restrictedConfigurations`; a unit test keeps them equal):
 * model ids and folders make the native runtime load model files (a folder inside the repository
 * would be the repository's code running), the threshold, the second tier and the relevance
 * check decide what the verifier keeps, and the answering model, web search and the Vertex AI
 * Search data store decide where questions and document text are sent, on the user's credentials.
 */
export const RESTRICTED_SETTINGS: readonly string[] = [
  Settings.embeddingModel,
  Settings.embeddingLocalPath,
  Settings.entailmentModel,
  Settings.supportThreshold,
  Settings.escalation,
  Settings.relevanceCheck,
  Settings.model,
  Settings.geminiModel,
  Settings.geminiWebSearch,
  Settings.vertexDataStore,
  Settings.vertexProject,
  Settings.vertexLocation,
];

/** What `WorkspaceConfiguration.inspect()` returns (the fields this rule reads). */
export interface InspectedValue<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export type SettingOrigin = 'default' | 'user' | 'workspace' | 'folder';

export interface ScopedValue<T> {
  value: T | undefined;
  origin: SettingOrigin;
  /** Set when a workspace value was not used (untrusted folder): say so in the log. */
  ignoredWorkspaceValue?: boolean;
}

/**
 * The value of `key` as Evident uses it: the most specific scope that is allowed to set it. In
 * an untrusted folder a restricted setting comes from the user's settings or the default only.
 */
export function scopedValue<T>(
  key: string,
  inspected: InspectedValue<T> | undefined,
  trusted: boolean,
): ScopedValue<T> {
  const i = inspected ?? {};
  const workspaceAllowed = trusted || !RESTRICTED_SETTINGS.includes(key);
  if (workspaceAllowed && i.workspaceFolderValue !== undefined) {
    return { value: i.workspaceFolderValue, origin: 'folder' };
  }
  if (workspaceAllowed && i.workspaceValue !== undefined) return { value: i.workspaceValue, origin: 'workspace' };
  const ignoredWorkspaceValue =
    !workspaceAllowed && (i.workspaceFolderValue !== undefined || i.workspaceValue !== undefined);
  const base: ScopedValue<T> =
    i.globalValue !== undefined
      ? { value: i.globalValue, origin: 'user' }
      : { value: i.defaultValue, origin: 'default' };
  return ignoredWorkspaceValue ? { ...base, ignoredWorkspaceValue } : base;
}

/**
 * The support threshold: a number from 0 to 1 (else the verifier's default), and one that a
 * workspace or folder set is raised to the floor. Returns whether it was raised.
 */
export function supportThreshold(scoped: ScopedValue<unknown>): {
  threshold: number | undefined;
  raisedToFloor: boolean;
} {
  const v = scoped.value;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    return { threshold: undefined, raisedToFloor: false };
  }
  if (scoped.origin === 'workspace' || scoped.origin === 'folder') {
    const bounded = boundWorkspaceThreshold(v);
    return { threshold: bounded, raisedToFloor: bounded !== v };
  }
  return { threshold: v, raisedToFloor: false };
}
