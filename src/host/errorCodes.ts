// What an error is, read from its code (never from its words): Gemini's and the stores' errors
// carry one (GeminiError.code, StoreError.code), so does a stopped index worker and Node's system
// errors; the host's own errors carry one through `HostError`. Engine errors reach the host from
// another bundle (engineLoader.ts), where `instanceof` fails, so the code is a property. Pure.

import type { GeminiErrorCode } from '../core/models/geminiModel';
import type { StoreError } from '../core/store/passageStore';
import type { IndexWorkerStopped } from '../core/store/workerPassageStore';

/** The codes of the host's own errors. */
export type HostErrorCode =
  /** No Gemini API key is set (the same code as the Gemini client's). */
  | Extract<GeminiErrorCode, 'no-key'>
  /** The workspace index cannot answer (no folder open, not indexed yet, placed inside the docs). */
  | 'index-unavailable'
  /** A VS Code language model failed or is not there (its own message says how). */
  | 'language-model';

/** An error of the host's own, told apart by its code. */
export class HostError extends Error {
  constructor(
    message: string,
    readonly code: HostErrorCode,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

/** Every code an answer's failure is told apart by. */
export type ErrorCode = GeminiErrorCode | StoreError['code'] | IndexWorkerStopped['code'] | HostErrorCode;

/** An error's code (ours, or a Node system error's such as ECONNREFUSED), when it has a string one. */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The index worker stopped (crashed or was terminated): the engine must be opened again. */
export function isWorkerStopped(error: unknown): boolean {
  return errorCode(error) === ('worker-stopped' satisfies IndexWorkerStopped['code']);
}

/** Node's codes for a network that is not there (on the error, or on a failed fetch's cause). */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** A foreign error (a library's, with no code of ours) that says the network is not there, by Node's code. */
export function isNetworkFailure(error: unknown): boolean {
  const own = errorCode(error);
  const cause =
    typeof error === 'object' && error !== null ? errorCode((error as { cause?: unknown }).cause) : undefined;
  return (own !== undefined && NETWORK_CODES.has(own)) || (cause !== undefined && NETWORK_CODES.has(cause));
}
