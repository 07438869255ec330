// Resolves which model answers (the `evident.model` setting against what is available), describes
// it for the chat header, and builds the ChatModel for a turn: Gemini with the key from
// SecretStorage, a VS Code language model, or the offline extractive model.

import * as vscode from 'vscode';
import type { ChatModel } from '../core/types';
import { Settings } from '../shared/ids';
import type { ModelView } from '../shared/protocol';
import { loadEngineApi } from './engineLoader';
import type { GeminiKeyStore } from './geminiKey';
import { countLanguageModels, createLanguageModelChatModel, LanguageModelUnavailable, selectLanguageModel } from './lmChatModel';
import { selectModel, type ModelChoice } from './modelSelection';
import { readGeminiModelId, readModelSetting } from './settings';

export const EXTRACTIVE_LABEL = 'Extractive (offline)';

export class ModelResolver implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly keys: GeminiKeyStore) {
    const fire = () => this.emitter.fire();
    this.disposables.push(
      this.emitter,
      keys.onDidChange(fire),
      vscode.lm.onDidChangeChatModels(fire),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(Settings.model) || e.affectsConfiguration(Settings.geminiModel)) fire();
      }),
    );
  }

  async choose(): Promise<ModelChoice> {
    const [key, languageModels] = await Promise.all([this.keys.get(), countLanguageModels()]);
    return selectModel(readModelSetting(), { hasGeminiKey: key !== undefined, languageModels });
  }

  /** What the chat header shows: the model that would answer now. */
  async describe(): Promise<ModelView> {
    const choice = await this.choose();
    switch (choice.backend) {
      case 'gemini':
        return { backend: 'gemini', label: `Gemini (${readGeminiModelId()})` };
      case 'vscode-lm': {
        const model = await selectLanguageModel();
        return { backend: 'vscode-lm', label: model ? `${model.name} (VS Code)` : 'VS Code language model' };
      }
      case 'extractive':
        return { backend: 'extractive', label: EXTRACTIVE_LABEL, notice: choice.notice };
    }
  }

  /** The model for one turn (loads the engine bundle for Gemini and extractive). */
  async create(engine: { createExtractiveModel(): ChatModel }): Promise<{ model: ChatModel; notice?: string }> {
    const choice = await this.choose();
    const api = loadEngineApi();
    switch (choice.backend) {
      case 'gemini': {
        const apiKey = await this.keys.get();
        if (!apiKey) throw new Error('No Gemini API key: run "Evident: Set Gemini API Key".');
        return { model: api.createGeminiModel({ apiKey, model: readGeminiModelId(), baseUrl: process.env.GOOGLE_GEMINI_BASE_URL || undefined }) };
      }
      case 'vscode-lm': {
        const model = await selectLanguageModel();
        if (!model) throw new LanguageModelUnavailable('No VS Code language model is available: sign in to a chat model provider (e.g. Copilot), or set "evident.model" to "extractive".');
        return { model: createLanguageModelChatModel(model) };
      }
      case 'extractive':
        return { model: engine.createExtractiveModel(), notice: choice.notice };
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
