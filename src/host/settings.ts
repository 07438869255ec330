// Typed reads of Evident's settings (keys from src/shared/ids.ts).

import * as vscode from 'vscode';
import { Defaults, Settings } from '../shared/ids';
import { WORKSPACE_THRESHOLD_FLOOR } from '../domain/threshold';
import { topKSetting } from '../domain/topK';
import { parseModelSetting, type ModelSetting } from './modelSelection';
import { RESTRICTED_SETTINGS, scopedValue, supportThreshold, type ScopedValue } from './settingScopes';

export interface IndexSettings {
  include: string[];
  exclude: string[];
  /** Empty: dense retrieval is off (lexical only). */
  embeddingModel: string;
  embeddingLocalPath: string;
  /** Which ONNX runtime runs the embedding model: auto (native, else WebAssembly), native or wasm. */
  embeddingBackend: 'auto' | 'native' | 'wasm';
  topK: number | undefined;
  supportThreshold: number | undefined;
  /** "Does this answer the question?" after the support check (default on). */
  relevanceCheck: boolean;
}

function key(full: string): string {
  return full.slice(Settings.section.length + 1);
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

function positiveNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * A setting's value from the scopes allowed to set it (settingScopes.ts): in an untrusted folder
 * the restricted settings come from the user's settings only.
 */
function scoped<T>(fullKey: string, scope?: vscode.ConfigurationScope): ScopedValue<T> {
  const config = vscode.workspace.getConfiguration(Settings.section, scope);
  return scopedValue(fullKey, config.inspect<T>(key(fullKey)), vscode.workspace.isTrusted);
}

function embeddingBackend(value: unknown): IndexSettings['embeddingBackend'] {
  return value === 'native' || value === 'wasm' ? value : 'auto';
}

export function readIndexSettings(scope?: vscode.ConfigurationScope): IndexSettings {
  const config = vscode.workspace.getConfiguration(Settings.section, scope);
  const embeddingModel = scoped<unknown>(Settings.embeddingModel, scope).value;
  const localPath = scoped<unknown>(Settings.embeddingLocalPath, scope).value;
  return {
    include: strings(config.get(key(Settings.include))) ?? [],
    exclude: strings(config.get(key(Settings.exclude))) ?? [],
    embeddingModel: typeof embeddingModel === 'string' ? embeddingModel.trim() : Defaults.embeddingModel,
    embeddingLocalPath: typeof localPath === 'string' ? localPath.trim() : '',
    embeddingBackend: embeddingBackend(config.get(key(Settings.embeddingBackend))),
    topK: topKSetting(config.get(key(Settings.topK))).topK,
    supportThreshold: supportThreshold(scoped(Settings.supportThreshold, scope)).threshold,
    relevanceCheck: scoped<unknown>(Settings.relevanceCheck, scope).value !== false,
  };
}

/**
 * What changed in the settings as read (for the log): workspace values not used in an untrusted
 * folder, a workspace threshold raised to the floor, a top k rounded or clamped.
 */
export function settingTrustNotes(scope?: vscode.ConfigurationScope): string[] {
  const notes: string[] = [];
  if (!vscode.workspace.isTrusted) {
    // VS Code itself hides these workspace values in Restricted Mode (restrictedConfigurations);
    // the rule in settingScopes.ts holds even where it does not.
    notes.push(
      `Restricted Mode: ${RESTRICTED_SETTINGS.join(', ')} are read from your user settings only; trust this folder to let its own settings count.`,
    );
  }
  for (const fullKey of RESTRICTED_SETTINGS) {
    if (scoped(fullKey, scope).ignoredWorkspaceValue) {
      notes.push(
        `Restricted Mode: the workspace's setting ${fullKey} is not used (only your user settings count until you trust this folder).`,
      );
    }
  }
  const topK = topKSetting(vscode.workspace.getConfiguration(Settings.section, scope).get(key(Settings.topK))).note;
  if (topK) notes.push(topK);
  const threshold = scoped<unknown>(Settings.supportThreshold, scope);
  if (supportThreshold(threshold).raisedToFloor) {
    notes.push(
      `The workspace sets ${Settings.supportThreshold} to ${String(threshold.value)}, under the floor of ${WORKSPACE_THRESHOLD_FLOOR} a workspace may set: ${WORKSPACE_THRESHOLD_FLOOR} is used.`,
    );
  }
  return notes;
}

export function readModelSetting(): ModelSetting {
  return parseModelSetting(scoped<unknown>(Settings.model).value);
}

export function readGeminiModelId(): string {
  const value = scoped<unknown>(Settings.geminiModel).value;
  return typeof value === 'string' && value.trim() ? value.trim() : Defaults.geminiModel;
}

export function readShowDropped(): boolean {
  return vscode.workspace.getConfiguration(Settings.section).get<boolean>(key(Settings.showDropped)) !== false;
}

/** How long a turn may run before it is stopped (seconds; 0 = no limit). */
export const DEFAULT_CHAT_TIMEOUT_SECONDS = 120;

export function readChatTimeoutSeconds(): number {
  const value = vscode.workspace.getConfiguration(Settings.section).get<unknown>(key(Settings.chatTimeout));
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_CHAT_TIMEOUT_SECONDS;
}

/** Makes the offline extractive model answer (user setting). */
export async function useOfflineModel(): Promise<void> {
  await vscode.workspace
    .getConfiguration(Settings.section)
    .update(key(Settings.model), 'extractive', vscode.ConfigurationTarget.Global);
}

export async function writeShowDropped(show: boolean): Promise<void> {
  await vscode.workspace
    .getConfiguration(Settings.section)
    .update(key(Settings.showDropped), show, vscode.ConfigurationTarget.Global);
}

/**
 * The shared index's connection string, from the user's settings only (the setting is
 * application-scoped; reading the global value alone means a workspace cannot redirect it).
 */
export function readStoreConnection(): string {
  const value = vscode.workspace
    .getConfiguration(Settings.section)
    .inspect<unknown>(key(Settings.storeConnection))?.globalValue;
  return typeof value === 'string' ? value.trim() : '';
}

/** Settings whose change means the engine must be reopened (and the index brought up to date). */
export function affectsIndex(event: vscode.ConfigurationChangeEvent): boolean {
  return [
    Settings.include,
    Settings.exclude,
    Settings.embeddingModel,
    Settings.embeddingLocalPath,
    Settings.topK,
    Settings.supportThreshold,
    Settings.relevanceCheck,
    Settings.logMaxSizeMB,
    Settings.logRotatedFiles,
    Settings.storeConnection,
  ].some((k) => event.affectsConfiguration(k));
}

export type EscalationSetting = 'off' | 'entailment' | 'judge';

export function readEscalation(scope?: vscode.ConfigurationScope): {
  kind: EscalationSetting;
  entailmentModel: string;
} {
  const kind = scoped<unknown>(Settings.escalation, scope).value;
  const model = scoped<unknown>(Settings.entailmentModel, scope).value;
  return {
    kind: kind === 'entailment' || kind === 'judge' ? kind : 'off',
    entailmentModel: typeof model === 'string' && model.trim() ? model.trim() : '',
  };
}

/** Drift-alert thresholds (core's AlertSettings fields; absent ones take core's defaults). */
export interface AlertSettingsRead {
  recentTurns?: number;
  baselineTurns?: number;
  minTurns?: number;
  minSentences?: number;
  z?: number;
  minChange?: number;
}

export function readAlertSettings(): { thresholds: AlertSettingsRead; notify: boolean } {
  const config = vscode.workspace.getConfiguration(Settings.section);
  const n = (k: string) => positiveNumber(config.get(key(k)));
  const change = config.get<unknown>(key(Settings.alertMinChange));
  const thresholds: AlertSettingsRead = {
    recentTurns: n(Settings.alertRecentTurns),
    baselineTurns: n(Settings.alertBaselineTurns),
    minTurns: n(Settings.alertMinTurns),
    minSentences: n(Settings.alertMinSentences),
    z: n(Settings.alertZ),
    minChange: typeof change === 'number' && change >= 0 && change <= 1 ? change : undefined,
  };
  return {
    thresholds: Object.fromEntries(Object.entries(thresholds).filter(([, v]) => v !== undefined)),
    notify: config.get<boolean>(key(Settings.alertNotify)) !== false,
  };
}

/** Size bound of the turn and audit logs (rotation); undefined fields take core's defaults. */
export function readLogLimits(): { maxBytes: number; keep: number } | undefined {
  const config = vscode.workspace.getConfiguration(Settings.section);
  const mb = positiveNumber(config.get(key(Settings.logMaxSizeMB)));
  const keep = config.get<unknown>(key(Settings.logRotatedFiles));
  if (mb === undefined || typeof keep !== 'number' || !Number.isInteger(keep) || keep < 0) return undefined;
  return { maxBytes: Math.round(mb * 1024 * 1024), keep };
}

/** The scope of Vertex AI Search turns; `dataStore` empty when none is set. */
export interface VertexSearchSettings {
  dataStore: string;
  filter: string;
  maxResults: number | undefined;
  project: string;
  location: string;
}

export function readVertexSearchSettings(): VertexSearchSettings {
  const config = vscode.workspace.getConfiguration(Settings.section);
  const text = (k: string) => {
    const v = scoped<unknown>(k).value;
    return typeof v === 'string' ? v.trim() : '';
  };
  const max = config.get<unknown>(key(Settings.vertexMaxResults));
  return {
    dataStore: text(Settings.vertexDataStore),
    filter: text(Settings.vertexFilter),
    maxResults: typeof max === 'number' && Number.isInteger(max) && max >= 1 && max <= 10 ? max : undefined,
    project: text(Settings.vertexProject),
    location: text(Settings.vertexLocation),
  };
}

/** Mixing routes: the Gemini model may also search the web (Google Search as a tool). */
export function readGeminiWebSearch(): boolean {
  return scoped<unknown>(Settings.geminiWebSearch).value === true;
}
