// Resolves which model answers (the `evident.model` setting against what is available), describes
// it for the chat header, and builds the ChatModel for a turn: Gemini with the key from
// SecretStorage, a VS Code language model, or the offline extractive model.

import * as vscode from 'vscode';
import type { ChatModel, GroundedModel } from '../core/types';
import { Settings } from '../shared/ids';
import type { ModelView } from '../shared/protocol';
import { loadEngineApi } from './engineLoader';
import type { GeminiKeyStore } from './geminiKey';
import { HostError } from './errorCodes';
import { countLanguageModels, createLanguageModelChatModel, LanguageModelUnavailable, selectLanguageModel } from './lmChatModel';
import { selectModel, type ModelChoice } from './modelSelection';
import { readGeminiModelId, readGeminiWebSearch, readModelSetting, readVertexSearchSettings } from './settings';

export const EXTRACTIVE_LABEL = 'Extractive (offline)';

/** The model of one turn: a chat model over the workspace index, or a provider that searches (route 2). */
export type TurnModel = { kind: 'chat'; model: ChatModel; notice?: string; webSearch?: GroundedModel } | { kind: 'grounded'; model: GroundedModel };

/** The data store's own name, for the header: `projects/…/dataStores/handbook` → `handbook`. */
export function dataStoreLabel(name: string): string {
  return name.split('/').pop() || name;
}

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
        if ([Settings.model, Settings.geminiModel, Settings.geminiWebSearch, Settings.vertexDataStore].some((k) => e.affectsConfiguration(k))) fire();
      }),
    );
  }

  async choose(): Promise<ModelChoice> {
    const [key, languageModels] = await Promise.all([this.keys.get(), countLanguageModels()]);
    return selectModel(readModelSetting(), { hasGeminiKey: key !== undefined, languageModels, hasDataStore: readVertexSearchSettings().dataStore !== '' });
  }

  /** What the chat header shows: the model that would answer now. */
  async describe(): Promise<ModelView> {
    const choice = await this.choose();
    switch (choice.backend) {
      case 'gemini':
        return { backend: 'gemini', label: `Gemini (${readGeminiModelId()})${readGeminiWebSearch() ? ' + web search' : ''}` };
      case 'google-search':
        return { backend: 'google-search', label: `Gemini + Google Search (${readGeminiModelId()})` };
      case 'vertex-ai-search':
        return { backend: 'vertex-ai-search', label: `Vertex AI Search (${dataStoreLabel(readVertexSearchSettings().dataStore)})` };
      case 'vscode-lm': {
        const model = await selectLanguageModel();
        return { backend: 'vscode-lm', label: model ? `${model.name} (VS Code)` : 'VS Code language model' };
      }
      case 'extractive':
        return { backend: 'extractive', label: EXTRACTIVE_LABEL, notice: choice.notice, noticeCode: choice.noticeCode };
    }
  }

  /**
   * The model for one turn (loads the engine bundle for Gemini and extractive). `engine` is only
   * asked for when a chat model needs the workspace index: built-in grounding does not.
   */
  async create(engine: () => Promise<{ createExtractiveModel(): ChatModel }>): Promise<TurnModel> {
    const choice = await this.choose();
    const api = loadEngineApi();
    switch (choice.backend) {
      case 'gemini': {
        const apiKey = await this.requireKey();
        const options = { apiKey, model: readGeminiModelId(), baseUrl: process.env.GOOGLE_GEMINI_BASE_URL || undefined };
        // Mixing routes: Google Search as a tool beside searchPolicies (a grounded sub-call).
        return { kind: 'chat', model: api.createGeminiModel(options), webSearch: readGeminiWebSearch() ? api.createGoogleSearchModel(options) : undefined };
      }
      case 'google-search': {
        const apiKey = await this.requireKey();
        return { kind: 'grounded', model: api.createGoogleSearchModel({ apiKey, model: readGeminiModelId(), baseUrl: process.env.GOOGLE_GEMINI_BASE_URL || undefined }) };
      }
      case 'vertex-ai-search': {
        const vertex = readVertexSearchSettings();
        // Application default credentials (gcloud auth application-default login); project from the data store unless set.
        return {
          kind: 'grounded',
          model: api.createVertexSearchModel({
            datastore: vertex.dataStore,
            filter: vertex.filter || undefined,
            maxResults: vertex.maxResults,
            project: vertex.project || undefined,
            location: vertex.location || undefined,
            model: readGeminiModelId(),
            baseUrl: process.env.GOOGLE_VERTEX_BASE_URL || undefined,
          }),
        };
      }
      case 'vscode-lm': {
        const model = await selectLanguageModel();
        if (!model) throw new LanguageModelUnavailable('No VS Code language model is available: sign in to a chat model provider (e.g. Copilot), or set "evident.model" to "extractive".');
        return { kind: 'chat', model: createLanguageModelChatModel(model) };
      }
      case 'extractive':
        return { kind: 'chat', model: (await engine()).createExtractiveModel(), notice: choice.notice };
    }
  }

  private async requireKey(): Promise<string> {
    const apiKey = await this.keys.get();
    if (!apiKey) throw new HostError('No Gemini API key: run "Evident: Set Gemini API Key".', 'no-key');
    return apiKey;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
