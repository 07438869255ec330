// A failed turn as the user reads it: one plain sentence saying what failed and what to do,
// and a kind that decides which ways forward the chat offers (set the key, switch to the
// offline model, show the log). The raw error (status codes, JSON bodies) goes to the log only.
// Pure: no `vscode` import, unit-tested in plain Node.

import type { IndexView, TurnErrorKind } from '../shared/protocol';
import { emptyIndexMessage } from '../domain/emptyIndex';
import { errorCode, isNetworkFailure, type ErrorCode } from './errorCodes';

export interface TurnError {
  kind: TurnErrorKind;
  message: string;
}

/** A failure the host recognised itself (by its state, not by an error's text): shown as it is. */
export class TurnFailure extends Error implements TurnError {
  override readonly name = 'TurnFailure';
  constructor(
    readonly kind: TurnErrorKind,
    message: string,
  ) {
    super(message);
  }
}

const MAX_DETAIL_CHARS = 140;
/** A message the user needs in full (an index error names files and settings) is cut only past this. */
const MAX_SENTENCE_CHARS = 600;

/**
 * The local index is built and holds no passage (no Markdown file, or every one skipped): the
 * failure of a question asked now, naming the real cause. Undefined while there is something to
 * answer from, or the index is not built yet, or a shared index answers (it says so itself).
 */
export function noDocumentsError(index: IndexView): TurnFailure | undefined {
  if (index.state !== 'indexed' || index.passages > 0 || index.store) return undefined;
  return new TurnFailure('no-documents', emptyIndexMessage(index.skipped));
}

/**
 * The failure of a turn whose model call or retrieval threw `error`, told by the error's code
 * (errorCodes.ts), never by its words: an error with no code is "something went wrong", with its
 * first words and a pointer to the log.
 */
export function describeTurnError(error: unknown): TurnError {
  if (error instanceof TurnFailure) return { kind: error.kind, message: error.message };
  const raw = error instanceof Error ? error.message : String(error);
  const code = errorCode(error) as ErrorCode | undefined;
  switch (code) {
    case 'no-key':
      return { kind: 'api-key', message: 'No Gemini API key is set: set one, or switch to the offline model.' };
    case 'credentials':
      return {
        kind: 'api-key',
        message: 'Gemini did not accept the API key: set a valid key, or switch to the offline model.',
      };
    case 'quota':
      return {
        kind: 'quota',
        message:
          "Gemini's quota or rate limit is used up for now: try again in a minute, or switch to the offline model.",
      };
    case 'malformed-reply':
      return {
        kind: 'model',
        message: 'Gemini sent a reply that could not be read: try again, or switch to the offline model.',
      };
    case 'timeout':
      return { kind: 'timeout', message: 'Gemini did not answer in time: try again, or switch to the offline model.' };
    case 'server':
      return { kind: 'model', message: 'Gemini had a server error: try again, or switch to the offline model.' };
    case 'network':
      return NETWORK_FAILURE;
    case 'rejected': {
      const status = statusOf(error);
      return {
        kind: 'model',
        message: `The model refused the request${status !== undefined ? ` (HTTP ${status})` : ''}: try again, or switch to the offline model.`,
      };
    }
    case 'language-model':
      return { kind: 'model', message: `${firstSentence(raw)} Or switch to the offline model.` };
    // The index cannot answer (the host's own, a store's, a stopped worker): its first sentence says why.
    case 'index-unavailable':
    case 'not-indexed':
    case 'unreachable':
    case 'model-mismatch':
    case 'schema-newer':
    case 'setup':
    case 'permission':
    case 'worker-stopped':
      return { kind: 'index', message: firstSentence(raw) };
    case undefined:
      break;
    default: {
      // Every code of ours has its case above (this does not compile otherwise); any other
      // (Node's, a library's) is a foreign error's, read below.
      const ours: never = code;
      void ours;
    }
  }
  // A foreign error (a library's, no code of ours): Node's system code still tells a missing network.
  if (isNetworkFailure(error)) return NETWORK_FAILURE;
  return { kind: 'other', message: `Something went wrong while answering (${detail(raw)}): see the log for details.` };
}

const NETWORK_FAILURE: TurnError = {
  kind: 'network',
  message: 'Could not reach the model (no network?): switch to the offline model, or try again when you are online.',
};

/** The failure of opening or indexing the workspace before a question could be answered: its first sentence. */
export function indexFailure(error: unknown): TurnFailure {
  return new TurnFailure('index', firstSentence(error instanceof Error ? error.message : String(error)));
}

/** The message shown when a turn ran past the time limit. */
export function timeoutError(seconds: number): TurnError {
  return {
    kind: 'timeout',
    message: `The model did not answer within ${seconds}\u00a0s, so the question was stopped: try again, switch to the offline model, or raise the time limit.`,
  };
}

/** A model error's HTTP status (GeminiError.status), when it has one. */
function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/** The message up to any JSON or stack it carries, on one line, cut at `max` characters (at a word). */
function detail(message: string, max = MAX_DETAIL_CHARS): string {
  const plain = message
    .split(/[{[]/)[0]
    .replace(/\s+/g, ' ')
    .replace(/[\s:(]+$/, '')
    .trim();
  if (!plain) return 'no details';
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** The first sentence, whole (a sentence ends at . ! or ? before a space, not inside a parenthesis). */
function firstSentence(message: string): string {
  const plain = detail(message, MAX_SENTENCE_CHARS);
  let depth = 0;
  for (let i = 0; i < plain.length; i++) {
    const c = plain[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /[.!?]/.test(c) && (i + 1 === plain.length || plain[i + 1] === ' ')) {
      return plain.slice(0, i + 1);
    }
  }
  return /[.!?…]$/.test(plain) ? plain : `${plain}.`;
}
