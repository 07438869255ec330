// The second route's models: the provider searches for the model and answers with
// `groundingMetadata`. `google-search` is the Gemini API with the `googleSearch` tool;
// `vertex-ai-search` is Vertex AI with the `retrieval.vertexAiSearch` tool on one data store.
// Both stream drafts and return the final text with the metadata (which, when streaming, comes
// in the last chunk): the verifier reads it afterwards (src/core/verifier/groundingCheck.ts).

import { GoogleGenAI, type GenerateContentResponse, type Tool } from '@google/genai';
import type { GroundingMetadata, GroundingRoute } from '../../domain/types';
import type { GroundedModel, GroundedRequest, GroundedResponse } from '../types';
import {
  DEFAULT_GEMINI_MODEL,
  DEFAULT_REQUEST_TIMEOUT_MS,
  GeminiError,
  withRetries,
  type GeminiCallOptions,
  type RetryPolicy,
} from './geminiModel';
import { readGroundingMetadata } from './groundingMetadata';

export interface GoogleSearchOptions extends GeminiCallOptions {
  apiKey: string;
}

/** The scope of a Vertex AI Search turn, set by configuration (the design's "scope by config"). */
export interface VertexSearchScope {
  /** `projects/P/locations/L/collections/C/dataStores/D` */
  datastore: string;
  /** A Vertex AI Search filter expression, e.g. `category: ANY("hr")`. */
  filter?: string;
  /** Results per search, 1..10 (the service's maximum is 10). */
  maxResults?: number;
}

export interface VertexSearchOptions extends GeminiCallOptions, VertexSearchScope {
  /** Google Cloud project of the Gemini call; default: the data store's project. */
  project?: string;
  /** Location of the Gemini call; default `global`. */
  location?: string;
  /** A Vertex AI API key (express mode); without it the SDK uses application default credentials. */
  apiKey?: string;
}

const DATASTORE = /^projects\/([^/\s]+)\/locations\/([^/\s]+)\/collections\/([^/\s]+)\/dataStores\/([^/\s]+)$/;

/** Checks a data store resource name; the error says what the right shape is. */
export function parseDatastore(name: string): {
  project: string;
  location: string;
  collection: string;
  dataStore: string;
} {
  const match = DATASTORE.exec(name.trim());
  if (!match) {
    throw new GeminiError(
      `"${name}" is not a Vertex AI Search data store name: expected projects/PROJECT/locations/LOCATION/collections/COLLECTION/dataStores/DATA_STORE.`,
    );
  }
  return { project: match[1], location: match[2], collection: match[3], dataStore: match[4] };
}

export function createGoogleSearchModel(options: GoogleSearchOptions): GroundedModel {
  if (!options.apiKey) {
    throw new GeminiError(
      'No Gemini API key: set one (GEMINI_API_KEY for the CLI; "Evident: Set Gemini API Key" in VS Code).',
      undefined,
      'no-key',
    );
  }
  const model = options.model ?? DEFAULT_GEMINI_MODEL;
  const client = new GoogleGenAI({
    apiKey: options.apiKey,
    httpOptions: {
      apiVersion: 'v1beta',
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      retryOptions: { attempts: 1 },
    },
  });
  return groundedModel(
    'google-search',
    `google-search:${model}`,
    'Gemini + Google Search',
    client,
    model,
    [{ googleSearch: {} }],
    options,
  );
}

export function createVertexSearchModel(options: VertexSearchOptions): GroundedModel {
  const store = parseDatastore(options.datastore);
  if (
    options.maxResults !== undefined &&
    (!Number.isInteger(options.maxResults) || options.maxResults < 1 || options.maxResults > 10)
  ) {
    throw new GeminiError(`Vertex AI Search max results must be an integer from 1 to 10 (got ${options.maxResults}).`);
  }
  const model = options.model ?? DEFAULT_GEMINI_MODEL;
  const client = new GoogleGenAI({
    vertexai: true,
    project: options.project ?? store.project,
    location: options.location ?? 'global',
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    httpOptions: { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), retryOptions: { attempts: 1 } },
  });
  const tool: Tool = {
    retrieval: {
      vertexAiSearch: {
        datastore: options.datastore.trim(),
        ...(options.filter ? { filter: options.filter } : {}),
        ...(options.maxResults !== undefined ? { maxResults: options.maxResults } : {}),
      },
    },
  };
  return groundedModel(
    'vertex-ai-search',
    `vertex-ai-search:${model}`,
    'Vertex AI Search',
    client,
    model,
    [tool],
    options,
  );
}

function groundedModel(
  route: GroundingRoute,
  name: string,
  service: string,
  client: GoogleGenAI,
  model: string,
  tools: Tool[],
  options: GeminiCallOptions,
): GroundedModel {
  const policy: RetryPolicy = {
    timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    attempts: options.attempts ?? 3,
    backoffMs: options.backoffMs ?? 500,
  };
  const stream = options.stream ?? true;
  return {
    name,
    route,
    generate(request: GroundedRequest): Promise<GroundedResponse> {
      const contents = [{ role: 'user', parts: [{ text: request.question }] }];
      const config = { systemInstruction: request.system, temperature: 0, tools };
      return withRetries(
        policy,
        request.signal,
        async (abortSignal) => {
          const responses: GenerateContentResponse[] = [];
          if (stream) {
            for await (const chunk of await client.models.generateContentStream({
              model,
              contents,
              config: { ...config, abortSignal },
            })) {
              responses.push(chunk);
              const text = textOf(chunk);
              if (text) request.onText?.(text);
            }
          } else {
            const response = await client.models.generateContent({
              model,
              contents,
              config: { ...config, abortSignal },
            });
            responses.push(response);
            const text = textOf(response);
            if (text) request.onText?.(text);
          }
          return { text: responses.map(textOf).join(''), metadata: lastMetadata(responses) };
        },
        service,
      );
    },
  };
}

/** Answer text of a response or stream chunk (thought parts are not the answer). */
function textOf(response: GenerateContentResponse): string {
  return (response.candidates?.[0]?.content?.parts ?? [])
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
}

/** The metadata of the last chunk that carries any (the service sends it with the last chunk). */
function lastMetadata(responses: GenerateContentResponse[]): GroundingMetadata | undefined {
  for (let i = responses.length - 1; i >= 0; i--) {
    const raw = responses[i].candidates?.[0]?.groundingMetadata;
    if (raw) return readGroundingMetadata(raw);
  }
  return undefined;
}
