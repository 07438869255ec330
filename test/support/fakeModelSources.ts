// What the model resolver (src/host/models.ts) reads, for running it under mocha: the settings,
// the Gemini key and VS Code's language models exist only in an editor, so they are faked here
// (a mock only where no real part can exist); the model factories are the engine's real ones.

import * as engineApi from '../../src/core/engine';
import { Emitter } from '../../src/host/emitter';
import type { LanguageModelOffer, ModelSources } from '../../src/host/models';
import type { ModelSetting } from '../../src/host/modelSelection';
import type { VertexSearchSettings } from '../../src/host/settings';

export interface FakeModelSettings {
  model: ModelSetting;
  key?: string;
  geminiModelId?: string;
  webSearch?: boolean;
  dataStore?: string;
  languageModels?: LanguageModelOffer[];
  /** Where the Gemini client goes (the local fake Gemini server). */
  geminiBaseUrl?: string;
}

/** Model sources over `settings` (change its fields and call `changed()` as a settings change would). */
export function fakeModelSources(settings: FakeModelSettings): ModelSources & { changed(): void } {
  const emitter = new Emitter<void>();
  const vertex = (): VertexSearchSettings => ({
    dataStore: settings.dataStore ?? '',
    filter: '',
    maxResults: undefined,
    project: '',
    location: '',
  });
  return {
    geminiKey: () => Promise.resolve(settings.key),
    modelSetting: () => settings.model,
    geminiModelId: () => settings.geminiModelId ?? 'gemini-2.5-flash',
    geminiWebSearch: () => settings.webSearch === true,
    vertexSearch: vertex,
    geminiBaseUrl: () => settings.geminiBaseUrl,
    vertexBaseUrl: () => undefined,
    countLanguageModels: () => Promise.resolve(settings.languageModels?.length ?? 0),
    selectLanguageModel: () => Promise.resolve(settings.languageModels?.[0]),
    engineApi: () => engineApi,
    onDidChange: emitter.event,
    changed: () => emitter.fire(),
  };
}
