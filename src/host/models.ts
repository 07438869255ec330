// Resolves which model answers (the `evident.model` setting against what is available), describes
// it for the chat header, and builds the ChatModel for a turn: Gemini with the key from
// SecretStorage, a VS Code language model, or the offline extractive model. What it reads (the
// settings, the key, VS Code's language models, the engine bundle) comes through `ModelSources`
// (modelSources.ts wires the editor's): no `vscode` import, unit-tested in plain Node.

import type { ChatModel, GroundedModel } from '../core/types';
import type { ModelView } from '../shared/protocol';
import type { Disposable, Event } from './emitter';
import type { EngineApi } from './engineLoader';
import { selectModel, type ModelChoice, type ModelSetting } from './modelSelection';
import type { VertexSearchSettings } from './settings';
import { HostError } from './errorCodes';

export const EXTRACTIVE_LABEL = 'Extractive (offline)';

/** No VS Code language model answers (none there, or the chosen one is gone): the message says what to do. */
export class LanguageModelUnavailable extends HostError {
  constructor(message: string) {
    super(message, 'language-model');
  }
}

/** The model of one turn: a chat model over the workspace index, or a provider that searches (route 2). */
export type TurnModel =
  | { kind: 'chat'; model: ChatModel; notice?: string; webSearch?: GroundedModel }
  | { kind: 'grounded'; model: GroundedModel };

/** The data store's own name, for the header: `projects/…/dataStores/handbook` → `handbook`. */
export function dataStoreLabel(name: string): string {
  return name.split('/').pop() || name;
}

/** A VS Code language model as the resolver needs it: its name, and the ChatModel on it. */
export interface LanguageModelOffer {
  readonly name: string;
  chatModel(): ChatModel;
}

/** What the resolver reads, each time it is asked (settings and keys change under it). */
export interface ModelSources {
  geminiKey(): Promise<string | undefined>;
  modelSetting(): ModelSetting;
  geminiModelId(): string;
  geminiWebSearch(): boolean;
  vertexSearch(): VertexSearchSettings;
  /** The base URLs the environment points the clients at (the fake Gemini server in tests). */
  geminiBaseUrl(): string | undefined;
  vertexBaseUrl(): string | undefined;
  countLanguageModels(): Promise<number>;
  /** The VS Code language model Evident would use (Copilot's first, else any). */
  selectLanguageModel(): Promise<LanguageModelOffer | undefined>;
  /** The engine bundle's model factories (loaded on first use). */
  engineApi(): Pick<EngineApi, 'createGeminiModel' | 'createGoogleSearchModel' | 'createVertexSearchModel'>;
  /** Fires when any of the above may answer differently. */
  readonly onDidChange: Event<void>;
}

export class ModelResolver implements Disposable {
  readonly onDidChange: Event<void>;

  constructor(private readonly sources: ModelSources & Partial<Disposable>) {
    this.onDidChange = sources.onDidChange;
  }

  async choose(): Promise<ModelChoice> {
    const [key, languageModels] = await Promise.all([this.sources.geminiKey(), this.sources.countLanguageModels()]);
    return selectModel(this.sources.modelSetting(), {
      hasGeminiKey: key !== undefined,
      languageModels,
      hasDataStore: this.sources.vertexSearch().dataStore !== '',
    });
  }

  /** What the chat header shows: the model that would answer now. */
  async describe(): Promise<ModelView> {
    const choice = await this.choose();
    const s = this.sources;
    switch (choice.backend) {
      case 'gemini':
        return {
          backend: 'gemini',
          label: `Gemini (${s.geminiModelId()})${s.geminiWebSearch() ? ' + web search' : ''}`,
        };
      case 'google-search':
        return { backend: 'google-search', label: `Gemini + Google Search (${s.geminiModelId()})` };
      case 'vertex-ai-search':
        return {
          backend: 'vertex-ai-search',
          label: `Vertex AI Search (${dataStoreLabel(s.vertexSearch().dataStore)})`,
        };
      case 'vscode-lm': {
        const model = await s.selectLanguageModel();
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
    const s = this.sources;
    const api = s.engineApi();
    switch (choice.backend) {
      case 'gemini': {
        const apiKey = await this.requireKey();
        const options = { apiKey, model: s.geminiModelId(), baseUrl: s.geminiBaseUrl() };
        // Mixing routes: Google Search as a tool beside searchPolicies (a grounded sub-call).
        return {
          kind: 'chat',
          model: api.createGeminiModel(options),
          webSearch: s.geminiWebSearch() ? api.createGoogleSearchModel(options) : undefined,
        };
      }
      case 'google-search': {
        const apiKey = await this.requireKey();
        return {
          kind: 'grounded',
          model: api.createGoogleSearchModel({ apiKey, model: s.geminiModelId(), baseUrl: s.geminiBaseUrl() }),
        };
      }
      case 'vertex-ai-search': {
        const vertex = s.vertexSearch();
        // Application default credentials (gcloud auth application-default login); project from the data store unless set.
        return {
          kind: 'grounded',
          model: api.createVertexSearchModel({
            datastore: vertex.dataStore,
            filter: vertex.filter || undefined,
            maxResults: vertex.maxResults,
            project: vertex.project || undefined,
            location: vertex.location || undefined,
            model: s.geminiModelId(),
            baseUrl: s.vertexBaseUrl(),
          }),
        };
      }
      case 'vscode-lm': {
        const model = await s.selectLanguageModel();
        if (!model) {
          throw new LanguageModelUnavailable(
            'No VS Code language model is available: sign in to a chat model provider (e.g. Copilot), or set "evident.model" to "extractive".',
          );
        }
        return { kind: 'chat', model: model.chatModel() };
      }
      case 'extractive':
        return { kind: 'chat', model: (await engine()).createExtractiveModel(), notice: choice.notice };
    }
  }

  private async requireKey(): Promise<string> {
    const apiKey = await this.sources.geminiKey();
    if (!apiKey) throw new HostError('No Gemini API key: run "Evident: Set Gemini API Key".', 'no-key');
    return apiKey;
  }

  dispose(): void {
    this.sources.dispose?.();
  }
}
