// The shared index's password in VS Code's SecretStorage: never in settings, never in a log line.

import type * as vscode from 'vscode';

const SECRET_KEY = 'evident.store.password';

export class StorePasswordStore {
  readonly onDidChange: vscode.Event<void>;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.onDidChange = (listener, thisArgs, disposables) =>
      secrets.onDidChange((e) => (e.key === SECRET_KEY ? listener.call(thisArgs) : undefined), undefined, disposables);
  }

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_KEY)) || undefined;
  }

  async set(password: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, password);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
  }
}
