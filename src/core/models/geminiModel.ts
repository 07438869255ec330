// The Gemini backend on @google/genai: a manual function-calling loop (the agent loop owns it,
// because the final text must be verified before anyone sees it), streaming, retries with
// backoff on 429/5xx within one request timeout (retries included: a silent server fails once,
// not once per attempt), then a clear error with a code saying what happened.

import { ApiError, GoogleGenAI, type Content, type Part } from '@google/genai';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, ToolCall } from '../types';

export const DEFAULT_GEMINI_MODEL = 'gemini-2.5-flash';

/** How a Gemini call is made (the chat model's and the grounded models' options share these). */
export interface GeminiCallOptions {
  model?: string;
  /** Another endpoint (tests: a local fake server). The SDK also honours GOOGLE_GEMINI_BASE_URL. */
  baseUrl?: string;
  /** The whole request, retries included (each attempt gets what is left); default 60 s. */
  timeoutMs?: number;
  /** Attempts in all, for 429 and 5xx answers. */
  attempts?: number;
  /** First backoff delay; doubles each retry. */
  backoffMs?: number;
  stream?: boolean;
}

export interface GeminiOptions extends GeminiCallOptions {
  apiKey: string;
}

/** What went wrong with a call, for callers that offer a way forward (never matched by text). */
export const GEMINI_ERROR_CODES = [
  'no-key',
  'credentials',
  'quota',
  'timeout',
  'server',
  'rejected',
  'malformed-reply',
  'network',
] as const;
export type GeminiErrorCode = (typeof GEMINI_ERROR_CODES)[number];

export class GeminiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: GeminiErrorCode,
  ) {
    super(message);
  }
}

/** The default request timeout (retries included). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export function createGeminiModel(options: GeminiOptions): ChatModel {
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
      retryOptions: { attempts: 1 }, // retries are ours (below), so they are visible and bounded
    },
  });
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const stream = options.stream ?? true;

  return {
    name: `gemini:${model}`,
    async generate(request: ChatRequest): Promise<ChatResponse> {
      const contents = toContents(request.messages);
      const config = {
        systemInstruction: request.system,
        temperature: 0,
        ...(request.tools.length
          ? {
              tools: [
                {
                  functionDeclarations: request.tools.map((t) => ({
                    name: t.name,
                    description: t.description,
                    parametersJsonSchema: t.parameters,
                  })),
                },
              ],
            }
          : {}),
      };
      return withRetries({ timeoutMs, attempts, backoffMs }, request.signal, (abortSignal) =>
        call(client, model, contents, { ...config, abortSignal }, stream, request),
      );
    },
  };
}

export interface RetryPolicy {
  /** The whole call, retries and backoff included (0: no limit). */
  timeoutMs: number;
  attempts: number;
  backoffMs: number;
}

/**
 * Runs one Gemini call with our retries: backoff on 429 and 5xx, all within one timeout (an
 * attempt gets the time that is left, so a silent server fails once, not once per attempt), and a
 * clear GeminiError at the end. Shared by the function-calling backend and the grounded models.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  signal: AbortSignal,
  attempt: (abortSignal: AbortSignal) => Promise<T>,
  service = 'Gemini',
): Promise<T> {
  const deadline = policy.timeoutMs > 0 ? AbortSignal.timeout(policy.timeoutMs) : undefined;
  const callSignal = deadline ? AbortSignal.any([signal, deadline]) : signal;
  const timedOut = (n: number) =>
    new GeminiError(
      `${service} did not answer within ${+(policy.timeoutMs / 1000).toFixed(1)} s (${n} attempt${n === 1 ? '' : 's'}); the request timeout is a setting (--timeout in the CLI).`,
      undefined,
      'timeout',
    );
  for (let n = 1; ; n++) {
    try {
      return await attempt(callSignal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (deadline?.aborted) throw timedOut(n);
      const status = error instanceof ApiError ? error.status : undefined;
      const retryable = status === 429 || (status !== undefined && status >= 500);
      if (retryable && n < policy.attempts) {
        try {
          await sleep(policy.backoffMs * 2 ** (n - 1), callSignal);
        } catch (stopped) {
          if (signal.aborted) throw stopped;
          throw timedOut(n);
        }
        continue;
      }
      throw describe(error, status, n, service);
    }
  }
}

async function call(
  client: GoogleGenAI,
  model: string,
  contents: Content[],
  config: Record<string, unknown>,
  stream: boolean,
  request: ChatRequest,
): Promise<ChatResponse> {
  const parts: Part[] = [];
  if (stream) {
    const chunks = await client.models.generateContentStream({ model, contents, config });
    for await (const chunk of chunks) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
        parts.push(part);
        if (typeof part.text === 'string' && !part.thought && part.text) request.onText?.(part.text);
      }
    }
  } else {
    const response = await client.models.generateContent({ model, contents, config });
    for (const part of response.candidates?.[0]?.content?.parts ?? []) {
      parts.push(part);
      if (typeof part.text === 'string' && !part.thought && part.text) request.onText?.(part.text);
    }
  }
  const toolCalls: ToolCall[] = parts
    .filter((p) => p.functionCall)
    .map((p) => ({ id: p.functionCall?.id, name: p.functionCall?.name ?? '', args: asRecord(p.functionCall?.args) }));
  const text = parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
  return { text, toolCalls, raw: { role: 'model', parts } satisfies Content };
}

function toContents(messages: ChatMessage[]): Content[] {
  return messages.map((m): Content => {
    switch (m.role) {
      case 'user':
        return { role: 'user', parts: [{ text: m.text }] };
      case 'model':
        if (isContent(m.raw)) return m.raw;
        return {
          role: 'model',
          parts: [
            ...(m.text ? [{ text: m.text }] : []),
            ...m.toolCalls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } })),
          ],
        };
      case 'tool':
        return {
          role: 'user',
          parts: m.results.map((r) => ({ functionResponse: { id: r.id, name: r.name, response: r.response } })),
        };
    }
  });
}

function isContent(value: unknown): value is Content {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as Content).parts) &&
    (value as Content).role === 'model'
  );
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function describe(error: unknown, status: number | undefined, attempt: number, service: string): GeminiError {
  const tried = attempt > 1 ? ` after ${attempt} attempts` : '';
  if (status === 429) {
    return new GeminiError(
      `${service} quota or rate limit reached (HTTP 429)${tried}. Try again later.`,
      status,
      'quota',
    );
  }
  if (status === 401 || status === 403) {
    const check = service === 'Gemini' ? 'Check the key.' : 'Check the credentials and that they may use this service.';
    return new GeminiError(
      `${service} refused the credentials (HTTP ${status}): ${apiMessage(error)} ${check}`,
      status,
      'credentials',
    );
  }
  if (status !== undefined && status >= 500) {
    return new GeminiError(`${service} had a server error (HTTP ${status})${tried}.`, status, 'server');
  }
  if (status !== undefined) {
    // Gemini answers a key it does not know with HTTP 400, not 401: its reason says so.
    const code = apiReason(error) === 'API_KEY_INVALID' ? 'credentials' : 'rejected';
    return new GeminiError(
      `${service} rejected the request (HTTP ${status}): ${(error as Error).message}`,
      status,
      code,
    );
  }
  // google-auth-library's error for missing credentials has no code: its message is all there is.
  if (/Could not load the default credentials/i.test((error as Error).message ?? '')) {
    return new GeminiError(
      `${service}: no Google Cloud credentials found. Run "gcloud auth application-default login" (or set GOOGLE_APPLICATION_CREDENTIALS to a key file), or use a Vertex AI API key.`,
      undefined,
      'credentials',
    );
  }
  // The server answered, but not with JSON (a proxy's error page, a cut-off stream): the SDK's parse failed.
  if (error instanceof SyntaxError) {
    return new GeminiError(
      `${service} sent a reply that is not valid JSON (${(error as Error).message}): a proxy or the service may be failing. Try again later.`,
      undefined,
      'malformed-reply',
    );
  }
  return new GeminiError(`Could not reach ${service}: ${(error as Error).message}`, undefined, 'network');
}

/** The service's own message out of an ApiError (its text is the JSON error body). */
function apiMessage(error: unknown): string {
  const text = (error as Error).message ?? '';
  const match = /"message":\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  return match ? match[1] : text.slice(0, 200);
}

/** The reason Google's error body gives (`details[].reason`, e.g. API_KEY_INVALID), from the ApiError's text (its JSON body). */
function apiReason(error: unknown): string | undefined {
  const match = /"reason":\s*"([A-Z_]+)"/.exec((error as Error).message ?? '');
  return match?.[1];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
