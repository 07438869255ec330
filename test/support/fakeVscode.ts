// The few parts of the `vscode` API that the language-model adapter (src/host/lmChatModel.ts)
// uses, for running that adapter under mocha: outside an editor there is no real `vscode` module
// (a mock only where no real part can exist). Loaded in place of `vscode` by useFakeVscode().

import Module from 'node:module';

export class LanguageModelTextPart {
  constructor(readonly value: string) {}
}
export class LanguageModelToolCallPart {
  constructor(
    readonly callId: string,
    readonly name: string,
    readonly input: object,
  ) {}
}
export class LanguageModelToolResultPart {
  constructor(
    readonly callId: string,
    readonly content: unknown[],
  ) {}
}
export type MessageContent =
  string | Array<LanguageModelTextPart | LanguageModelToolCallPart | LanguageModelToolResultPart>;
export class LanguageModelChatMessage {
  constructor(
    readonly role: 'user' | 'assistant',
    readonly content: MessageContent,
  ) {}
  static User(content: MessageContent): LanguageModelChatMessage {
    return new LanguageModelChatMessage('user', content);
  }
  static Assistant(content: MessageContent): LanguageModelChatMessage {
    return new LanguageModelChatMessage('assistant', content);
  }
}
export class CancellationTokenSource {
  readonly token = { isCancellationRequested: false };
  cancel(): void {
    this.token.isCancellationRequested = true;
  }
  dispose(): void {}
}
export class CancellationError extends Error {}
export class LanguageModelError extends Error {
  static readonly NoPermissions = { name: 'NoPermissions' };
  static readonly NotFound = { name: 'NotFound' };
  static readonly Blocked = { name: 'Blocked' };
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
export const lm = { selectChatModels: async (): Promise<unknown[]> => [] };

let installed = false;

/** Makes `require('vscode')` load this module (once per process). */
export function useFakeVscode(): void {
  if (installed) return;
  installed = true;
  const resolver = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const original = resolver._resolveFilename;
  resolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
    return original.call(this, request === 'vscode' ? __filename : request, ...rest);
  };
}
