// The Gemini API key in VS Code's SecretStorage: never in settings, never in a log line.

import * as vscode from 'vscode';

const SECRET_KEY = 'evident.gemini.apiKey';

export class GeminiKeyStore {
  readonly onDidChange: vscode.Event<void>;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.onDidChange = (listener, thisArgs, disposables) =>
      secrets.onDidChange((e) => (e.key === SECRET_KEY ? listener.call(thisArgs) : undefined), undefined, disposables);
  }

  async get(): Promise<string | undefined> {
    const key = await this.secrets.get(SECRET_KEY);
    return key?.trim() ? key.trim() : undefined;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
  }
}
