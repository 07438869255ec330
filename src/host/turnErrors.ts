// A failed turn as the user reads it: one plain sentence saying what failed and what to do,
// and a kind that decides which ways forward the chat offers (set the key, switch to the
// offline model, show the log). The raw error (status codes, JSON bodies) goes to the log only.
// Pure: no `vscode` import, unit-tested in plain Node.

import type { TurnErrorKind } from '../shared/protocol';

export interface TurnError {
  kind: TurnErrorKind;
  message: string;
}

const MAX_DETAIL_CHARS = 140;

/** The failure of a turn whose model call or retrieval threw `error`. */
export function describeTurnError(error: unknown): TurnError {
  const raw = error instanceof Error ? error.message : String(error);
  const status = statusOf(error, raw);
  const text = raw.toLowerCase();
  if (/no gemini api key/.test(text)) {
    return { kind: 'api-key', message: 'No Gemini API key is set: set one, or switch to the offline model.' };
  }
  if (status === 401 || status === 403 || /api[ _-]?key/.test(text)) {
    return { kind: 'api-key', message: 'Gemini did not accept the API key: set a valid key, or switch to the offline model.' };
  }
  if (status === 429) {
    return { kind: 'quota', message: "Gemini's quota or rate limit is used up for now: try again in a minute, or switch to the offline model." };
  }
  if (codeOf(error) === 'malformed-reply') {
    return { kind: 'model', message: 'Gemini sent a reply that could not be read: try again, or switch to the offline model.' };
  }
  if (codeOf(error) === 'timeout' || /did not answer within/.test(text)) {
    return { kind: 'timeout', message: 'Gemini did not answer in time: try again, or switch to the offline model.' };
  }
  if (status !== undefined && status >= 500) {
    return { kind: 'model', message: 'Gemini had a server error: try again, or switch to the offline model.' };
  }
  if (/could not reach|fetch failed|enotfound|econnrefused|econnreset|network/.test(text)) {
    return { kind: 'network', message: 'Could not reach the model (no network?): switch to the offline model, or try again when you are online.' };
  }
  if (/language model/.test(text)) {
    return { kind: 'model', message: `${firstSentence(raw)} Or switch to the offline model.` };
  }
  if (/not indexed|open a folder|index/.test(text)) {
    return { kind: 'index', message: firstSentence(raw) };
  }
  if (status !== undefined) {
    return { kind: 'model', message: `The model refused the request (HTTP ${status}): try again, or switch to the offline model.` };
  }
  return { kind: 'other', message: `Something went wrong while answering (${detail(raw)}): see the log for details.` };
}

/** The message shown when a turn ran past the time limit. */
export function timeoutError(seconds: number): TurnError {
  return {
    kind: 'timeout',
    message: `The model did not answer within ${seconds}\u00a0s, so the question was stopped: try again, switch to the offline model, or raise the time limit.`,
  };
}

/** A model error's code (GeminiError.code), when it has one. */
function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

function statusOf(error: unknown, message: string): number | undefined {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  if (typeof status === 'number') return status;
  const match = /\bHTTP (\d{3})\b/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** The message up to any JSON or stack it carries, on one line, short. */
function detail(message: string): string {
  const plain = message.split(/[{[]/)[0].replace(/\s+/g, ' ').replace(/[\s:(]+$/, '').trim();
  if (!plain) return 'no details';
  return plain.length > MAX_DETAIL_CHARS ? `${plain.slice(0, MAX_DETAIL_CHARS - 1)}…` : plain;
}

function firstSentence(message: string): string {
  const plain = detail(message);
  const match = /^(.+?[.!?])(\s|$)/.exec(plain);
  return match ? match[1] : `${plain}.`;
}
