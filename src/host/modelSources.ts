// What the model resolver (models.ts) reads, from the editor: the settings, the Gemini key in
// SecretStorage, VS Code's language models and the engine bundle; one change event over them.

import * as vscode from 'vscode';
import { Settings } from '../shared/ids';
import { loadEngineApi } from './engineLoader';
import type { GeminiKeyStore } from './geminiKey';
import { countLanguageModels, createLanguageModelChatModel, selectLanguageModel } from './lmChatModel';
import type { ModelSources } from './models';
import { readGeminiModelId, readGeminiWebSearch, readModelSetting, readVertexSearchSettings } from './settings';

export function editorModelSources(keys: GeminiKeyStore): ModelSources & vscode.Disposable {
  const emitter = new vscode.EventEmitter<void>();
  const fire = () => emitter.fire();
  const disposables: vscode.Disposable[] = [
    emitter,
    keys.onDidChange(fire),
    vscode.lm.onDidChangeChatModels(fire),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        [Settings.model, Settings.geminiModel, Settings.geminiWebSearch, Settings.vertexDataStore].some((k) =>
          e.affectsConfiguration(k),
        )
      ) {
        fire();
      }
    }),
  ];
  return {
    geminiKey: () => keys.get(),
    modelSetting: readModelSetting,
    geminiModelId: readGeminiModelId,
    geminiWebSearch: readGeminiWebSearch,
    vertexSearch: readVertexSearchSettings,
    geminiBaseUrl: () => process.env.GOOGLE_GEMINI_BASE_URL || undefined,
    vertexBaseUrl: () => process.env.GOOGLE_VERTEX_BASE_URL || undefined,
    countLanguageModels,
    selectLanguageModel: async () => {
      const model = await selectLanguageModel();
      return model ? { name: model.name, chatModel: () => createLanguageModelChatModel(model) } : undefined;
    },
    engineApi: loadEngineApi,
    onDidChange: emitter.event,
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
}
