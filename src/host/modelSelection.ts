// Which model backend answers, from the `evident.model` setting and what is available.
// A pure function (no `vscode` import) so the rule is unit-tested in plain Node.

import type { ModelBackend, ModelNoticeCode } from '../shared/protocol';

export const MODEL_SETTINGS = [
  'auto',
  'gemini',
  'google-search',
  'vertex-ai-search',
  'vscode-lm',
  'extractive',
] as const;
export type ModelSetting = (typeof MODEL_SETTINGS)[number];

export interface ModelAvailability {
  /** A Gemini API key is stored in SecretStorage. */
  hasGeminiKey: boolean;
  /** How many VS Code language models (`vscode.lm`) are available now. */
  languageModels: number;
  /** A Vertex AI Search data store is configured (`evident.vertexAiSearch.dataStore`). */
  hasDataStore?: boolean;
}

export interface ModelChoice {
  backend: ModelBackend;
  /** Set when the configured backend cannot answer and another one does: tell the user. */
  notice?: string;
  /** What would let the configured backend answer (the chat offers that button). */
  noticeCode?: ModelNoticeCode;
}

export function parseModelSetting(value: unknown): ModelSetting {
  return typeof value === 'string' && (MODEL_SETTINGS as readonly string[]).includes(value)
    ? (value as ModelSetting)
    : 'auto';
}

/**
 * `auto` prefers Gemini when a key is set, else a VS Code language model, else the offline
 * extractive model. An explicit choice that cannot run falls back to extractive, with a notice,
 * rather than failing: an answer from the offline model is still grounded.
 */
export function selectModel(setting: ModelSetting, available: ModelAvailability): ModelChoice {
  switch (setting) {
    case 'extractive':
      return { backend: 'extractive' };
    case 'gemini':
      return available.hasGeminiKey
        ? { backend: 'gemini' }
        : {
            backend: 'extractive',
            noticeCode: 'no-gemini-key',
            notice: 'Gemini is selected but no API key is set, so the offline model answers.',
          };
    case 'google-search':
      return available.hasGeminiKey
        ? { backend: 'google-search' }
        : {
            backend: 'extractive',
            noticeCode: 'no-gemini-key',
            notice:
              'Gemini + Google Search is selected but no API key is set, so the offline model answers from the workspace docs.',
          };
    case 'vertex-ai-search':
      return available.hasDataStore
        ? { backend: 'vertex-ai-search' }
        : {
            backend: 'extractive',
            noticeCode: 'no-data-store',
            notice:
              'Vertex AI Search is selected but no data store is set ("evident.vertexAiSearch.dataStore"), so the offline model answers from the workspace docs.',
          };
    case 'vscode-lm':
      return available.languageModels > 0
        ? { backend: 'vscode-lm' }
        : {
            backend: 'extractive',
            noticeCode: 'no-language-model',
            notice:
              'No VS Code language model is available (install or sign in to a chat model provider), so the offline model answers.',
          };
    case 'auto':
      if (available.hasGeminiKey) return { backend: 'gemini' };
      if (available.languageModels > 0) return { backend: 'vscode-lm' };
      return { backend: 'extractive' };
  }
}

export interface ModelChoiceItem {
  setting: ModelSetting;
  label: string;
  description: string;
}

/**
 * What "Evident: Choose Model…" offers. Vertex AI Search is offered once a data store is set
 * (without one it has nothing to search).
 */
export function modelChoices(available: Pick<ModelAvailability, 'hasDataStore'>): ModelChoiceItem[] {
  const items: ModelChoiceItem[] = [
    { setting: 'auto', label: 'Auto', description: 'Gemini with a key, else a VS Code model, else offline' },
    { setting: 'gemini', label: 'Gemini', description: 'answers from your workspace docs' },
    {
      setting: 'google-search',
      label: 'Gemini + Google Search',
      description: 'answers from the web, grounded by Google Search',
    },
    {
      setting: 'vertex-ai-search',
      label: 'Vertex AI Search',
      description: 'answers from your Vertex AI Search data store',
    },
    {
      setting: 'vscode-lm',
      label: 'VS Code language model',
      description: 'e.g. Copilot; answers from your workspace docs',
    },
    { setting: 'extractive', label: 'Extractive (offline)', description: 'quotes your workspace docs; no network' },
  ];
  return available.hasDataStore ? items : items.filter((i) => i.setting !== 'vertex-ai-search');
}
