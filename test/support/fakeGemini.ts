// A local stand-in for the Gemini REST API, so tests drive the REAL `@google/genai` client
// (and the real extension, through GOOGLE_GEMINI_BASE_URL) against scripted replies:
// function calls, streamed text, HTTP errors and hangs. Lives under test/: never shipped.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. `body` is a GenerateContentResponse JSON (or a Google error JSON). */
export interface ScriptedReply {
  /** HTTP status; 200 when absent. */
  status?: number;
  body?: unknown;
  /** Wait this long before answering (simulate a hang); a hang with no body ends in 504. */
  hangMs?: number;
  /** Streaming only: send exactly these SSE frames instead of splitting `body`. */
  frames?: unknown[];
  /** Streaming only: pause between frames (lets tests cancel mid-stream). */
  frameDelayMs?: number;
  /** Send exactly this text as the body (a malformed reply: not JSON), with status 200. */
  raw?: string;
}

export type GeminiMethod = 'generateContent' | 'streamGenerateContent';

export interface RecordedRequest {
  /** Model name as it appears in the URL, e.g. `gemini-2.5-flash`. */
  model: string;
  method: GeminiMethod;
  apiVersion: 'v1' | 'v1beta' | 'v1beta1';
  /** From the `x-goog-api-key` header or the `key` query parameter. */
  apiKey?: string;
  /** True when the client asked for SSE (`?alt=sse`). */
  sse: boolean;
  body: Record<string, unknown>;
  /** Vertex AI routes only: the project and location in the URL. */
  project?: string;
  location?: string;
  /** The `authorization` header (Vertex AI with application default credentials). */
  authorization?: string;
}

type ReplyScript = (req: RecordedRequest) => ScriptedReply | undefined;

const ROUTE = /^\/(v1|v1beta)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
/** Vertex AI: /v1beta1/projects/P/locations/L/publishers/google/models/M:method */
const VERTEX_ROUTE =
  /^\/(v1|v1beta1)\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
/** The GCE metadata server's token endpoint: application default credentials in tests. */
const METADATA_TOKEN = '/computeMetadata/v1/instance/service-accounts/default/token';
/** The token the fake metadata server hands out (tests assert it reaches Vertex requests). */
export const FAKE_ACCESS_TOKEN = 'fake-adc-token';
/** Longest timer Node accepts; used for "hang until closed". */
const FOREVER_MS = 2 ** 31 - 1;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export class FakeGeminiServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedReply[] = [];
  private script: ReplyScript | undefined;
  private preempt: ReplyScript | undefined;
  private readonly pending = new Set<{ timer: NodeJS.Timeout; res: ServerResponse }>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly onRequest?: (req: RecordedRequest) => void,
  ) {}

  /** `onRequest` sees each well-formed request as it arrives (e.g. to log it in end-to-end runs). */
  static async start(
    options: { port?: number; onRequest?: (req: RecordedRequest) => void } = {},
  ): Promise<FakeGeminiServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeGeminiServer(server, `http://127.0.0.1:${port}`, options.onRequest);
    server.on('request', (req, res) => {
      fake.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, googleError(500, `fake Gemini crashed: ${String(error)}`));
        else res.destroy();
      });
    });
    return fake;
  }

  /** Replies answered first-in first-out, before the dynamic script. */
  enqueue(...replies: ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  /** A dynamic script, consulted when the queue is empty; `undefined` means "no reply". */
  respondWith(fn: ReplyScript): void {
    this.script = fn;
  }

  /**
   * A script consulted BEFORE the queue; `undefined` falls through to the queue and the script.
   * (End-to-end runs answer grounded requests this way, whatever the queue holds for other checks.)
   */
  respondFirst(fn: ReplyScript): void {
    this.preempt = fn;
  }

  /** Number of queued replies not yet used. */
  get remaining(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const hang of this.pending) {
      clearTimeout(hang.timer);
      hang.res.destroy();
    }
    this.pending.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    if (req.method === 'GET' && url.pathname.startsWith('/computeMetadata/')) {
      this.metadata(req, res, url.pathname);
      return;
    }
    const vertex = VERTEX_ROUTE.exec(url.pathname);
    const gemini = ROUTE.exec(url.pathname);
    const route = gemini
      ? { apiVersion: gemini[1], model: gemini[2], method: gemini[3] }
      : vertex
        ? { apiVersion: vertex[1], project: vertex[2], location: vertex[3], model: vertex[4], method: vertex[5] }
        : undefined;
    if (req.method !== 'POST' || !route) {
      sendJson(res, 404, googleError(404, `fake Gemini: no route for ${req.method} ${url.pathname}`));
      return;
    }
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, googleError(400, 'fake Gemini: request body is not valid JSON'));
      return;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      sendJson(res, 400, googleError(400, 'fake Gemini: request body must be a JSON object'));
      return;
    }
    const headerKey = req.headers['x-goog-api-key'];
    const recorded: RecordedRequest = {
      model: decodeURIComponent(route.model),
      method: route.method as GeminiMethod,
      apiVersion: route.apiVersion as RecordedRequest['apiVersion'],
      apiKey: (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? url.searchParams.get('key') ?? undefined,
      sse: url.searchParams.get('alt') === 'sse',
      body: body as Record<string, unknown>,
      ...(route.project !== undefined
        ? { project: decodeURIComponent(route.project), location: decodeURIComponent(route.location ?? '') }
        : {}),
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    };
    this.requests.push(recorded);
    this.onRequest?.(recorded);

    const reply = this.preempt?.(recorded) ?? this.queue.shift() ?? this.script?.(recorded);
    if (!reply) {
      sendJson(res, 500, googleError(500, 'fake Gemini: no scripted reply left'));
      return;
    }
    if (reply.hangMs !== undefined) {
      const completed = await this.hang(res, reply.hangMs);
      if (!completed) return;
      if (reply.body === undefined && reply.frames === undefined) {
        sendJson(res, 504, googleError(504, 'fake Gemini: scripted hang ended'));
        return;
      }
    }
    await this.answer(res, recorded, reply);
  }

  /** A minimal GCE metadata server: enough for google-auth-library's application default credentials. */
  private metadata(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    const headers = { 'metadata-flavor': 'Google' };
    if (req.headers['metadata-flavor'] !== 'Google') {
      res.writeHead(403, headers).end('missing Metadata-Flavor header');
    } else if (pathname === METADATA_TOKEN) {
      res
        .writeHead(200, { ...headers, 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: FAKE_ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' }));
    } else if (pathname === '/computeMetadata/v1/project/project-id') {
      res.writeHead(200, { ...headers, 'content-type': 'application/text' }).end('fake-project');
    } else {
      res.writeHead(200, { ...headers, 'content-type': 'application/text' }).end('');
    }
  }

  /** Resolves true after `ms`, false when the client went away or the server closed. */
  private hang(res: ServerResponse, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = {
        res,
        timer: setTimeout(
          () => {
            this.pending.delete(entry);
            resolve(!res.destroyed);
          },
          Math.min(Math.max(ms, 0), FOREVER_MS),
        ),
      };
      this.pending.add(entry);
      res.on('close', () => {
        if (!this.pending.has(entry)) return;
        clearTimeout(entry.timer);
        this.pending.delete(entry);
        resolve(false);
      });
    });
  }

  private async answer(res: ServerResponse, req: RecordedRequest, reply: ScriptedReply): Promise<void> {
    const status = reply.status ?? 200;
    if (reply.raw !== undefined) {
      const sse = req.method === 'streamGenerateContent' && req.sse;
      res.writeHead(status, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
      res.end(sse ? `data: ${reply.raw}\r\n\r\n` : reply.raw);
      return;
    }
    if (req.method === 'generateContent' || status >= 400) {
      sendJson(res, status, reply.body ?? {});
      return;
    }
    const frames = reply.frames ?? splitIntoFrames(reply.body);
    if (!req.sse) {
      // Without alt=sse the REST API answers a stream as one JSON array of chunks.
      sendJson(res, status, frames);
      return;
    }
    res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [index, frame] of frames.entries()) {
      if (index > 0 && reply.frameDelayMs) {
        if (!(await this.hang(res, reply.frameDelayMs))) return;
      }
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(frame)}\r\n\r\n`);
    }
    res.end();
  }
}

// ---------------------------------------------------------------------------------------
// Reply builders

/** A plain text answer (finishReason STOP). */
export function textReply(text: string): ScriptedReply {
  return { body: candidateResponse([{ text }], text.length) };
}

/** A grounding source: a web page (Google Search), or retrieved context when it carries `text`. */
export interface GroundingSource {
  uri: string;
  title: string;
  /** Retrieved context (Vertex AI Search) carries the text it found. */
  text?: string;
}

/** One grounding support, located by a piece of the answer text. */
export interface GroundingSupportSpec {
  text: string;
  chunks: number[];
  /** Send the segment without its `text` (offsets only). */
  omitText?: boolean;
  confidence?: number[];
}

/**
 * A text answer with built-in grounding: `sources` become groundingChunks (`web`, or
 * `retrievedContext` when they carry text); each support names a piece of `text` and the chunk
 * indices backing it. Segment offsets are UTF-8 byte offsets, as the service sends them.
 */
export function groundedReply(
  text: string,
  sources: GroundingSource[],
  supports: GroundingSupportSpec[],
  extras: { searchSuggestions?: string; queries?: string[] } = {},
): ScriptedReply {
  const groundingSupports = supports.map((support) => {
    const at = text.indexOf(support.text);
    if (at < 0) throw new Error(`groundedReply: "${support.text}" is not part of the answer text`);
    const startIndex = Buffer.byteLength(text.slice(0, at));
    const endIndex = startIndex + Buffer.byteLength(support.text);
    return {
      segment: support.omitText ? { startIndex, endIndex } : { startIndex, endIndex, text: support.text },
      groundingChunkIndices: support.chunks,
      confidenceScores: support.confidence ?? [],
    };
  });
  const body = candidateResponse([{ text }], text.length);
  const candidates = body.candidates as Array<Record<string, unknown>>;
  candidates[0].groundingMetadata = {
    groundingChunks: sources.map((s) =>
      s.text !== undefined
        ? { retrievedContext: { uri: s.uri, title: s.title, text: s.text } }
        : { web: { uri: s.uri, title: s.title } },
    ),
    groundingSupports,
    webSearchQueries: extras.queries ?? [],
    ...(extras.searchSuggestions !== undefined
      ? { searchEntryPoint: { renderedContent: extras.searchSuggestions } }
      : {}),
  };
  return { body };
}

/** A reply asking the client to call a tool. `id` is optional: the public API usually omits it. */
export function functionCallReply(name: string, args: Record<string, unknown>, id?: string): ScriptedReply {
  const functionCall: Record<string, unknown> = { name, args };
  if (id !== undefined) functionCall.id = id;
  return { body: candidateResponse([{ functionCall }], 8) };
}

/** A Google-style error body, e.g. 429 RESOURCE_EXHAUSTED. */
export function errorReply(status: number, message?: string): ScriptedReply {
  return { status, body: googleError(status, message ?? `fake Gemini: scripted ${status}`) };
}

/** A 200 reply whose body is not JSON (a proxy's error page, a cut-off stream). */
export function malformedReply(text = '{"candidates": [{"content": {"parts": [{"text": "Annual pl'): ScriptedReply {
  return { raw: text };
}

/** Never answers (until `ms` passes, then 504), unless the client aborts or the server closes. */
export function hangReply(ms?: number): ScriptedReply {
  return { hangMs: ms ?? FOREVER_MS };
}

// ---------------------------------------------------------------------------------------
// Helpers other test code may use to read what the client sent

/** Text of the last `user` content that carries text (the question, in a fresh turn). */
export function lastUserText(body: Record<string, unknown>): string | undefined {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = asRecord(contents[i]);
    if (!content || (content.role !== undefined && content.role !== 'user')) continue;
    const texts = partsOf(content)
      .map((part) => part.text)
      .filter((t): t is string => typeof t === 'string');
    if (texts.length > 0) return texts.join('\n');
  }
  return undefined;
}

/** The function responses in the last content of the request (empty when it ends with text). */
export function lastFunctionResponses(
  body: Record<string, unknown>,
): Array<{ name: string; response: Record<string, unknown> }> {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const last = asRecord(contents[contents.length - 1]);
  if (!last) return [];
  const found: Array<{ name: string; response: Record<string, unknown> }> = [];
  for (const part of partsOf(last)) {
    const fr = asRecord(part.functionResponse);
    if (!fr) continue;
    found.push({ name: typeof fr.name === 'string' ? fr.name : '', response: asRecord(fr.response) ?? {} });
  }
  return found;
}

function candidateResponse(parts: Array<Record<string, unknown>>, outputTokens: number): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: outputTokens, totalTokenCount: 12 + outputTokens },
    modelVersion: 'fake-gemini',
  };
}

function googleError(status: number, message: string): Record<string, unknown> {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } };
}

/**
 * Splits a GenerateContentResponse into stream frames the way the service does: text parts
 * spread over several frames, other parts (function calls) and finishReason, usageMetadata and
 * groundingMetadata in the last frame only.
 */
export function splitIntoFrames(body: unknown): unknown[] {
  const response = asRecord(body);
  const candidate = asRecord(Array.isArray(response?.candidates) ? response.candidates[0] : undefined);
  const content = candidate ? asRecord(candidate.content) : undefined;
  if (!response || !candidate || !content) return [body ?? {}];
  const parts = partsOf(content);
  const text = parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
  const otherParts = parts.filter((p) => typeof p.text !== 'string');
  const pieces = splitText(text);
  const { finishReason, groundingMetadata, ...candidateRest } = candidate;
  const { usageMetadata, candidates: _candidates, ...responseRest } = response;
  const frame = (frameParts: Array<Record<string, unknown>>, final: boolean): unknown => ({
    ...responseRest,
    candidates: [
      {
        ...candidateRest,
        content: { role: 'model', parts: frameParts },
        ...(final && finishReason !== undefined ? { finishReason } : {}),
        ...(final && groundingMetadata !== undefined ? { groundingMetadata } : {}),
      },
    ],
    ...(final && usageMetadata !== undefined ? { usageMetadata } : {}),
  });
  const endsWithText = otherParts.length === 0 && pieces.length > 0;
  const frames = pieces.map((piece, i) => frame([{ text: piece }], endsWithText && i === pieces.length - 1));
  if (!endsWithText) frames.push(frame(otherParts.length > 0 ? otherParts : [{ text: '' }], true));
  return frames;
}

/** Up to four pieces, cut at spaces where possible. */
function splitText(text: string): string[] {
  if (text.length === 0) return [];
  const count = Math.min(4, Math.max(1, Math.ceil(text.length / 12)));
  const pieces: string[] = [];
  let start = 0;
  for (let i = 1; i <= count; i++) {
    let end = i === count ? text.length : Math.round((text.length * i) / count);
    const space = text.indexOf(' ', end);
    if (i < count && space !== -1 && space < text.length - 1) end = space + 1;
    if (end > start) pieces.push(text.slice(start, end));
    start = Math.max(start, end);
  }
  return pieces;
}

function partsOf(content: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(content.parts)
    ? content.parts.map(asRecord).filter((p): p is Record<string, unknown> => p !== undefined)
    : [];
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
