// One secret of Evident in VS Code's SecretStorage: never in settings, never in a log line.
// The Gemini API key (geminiKey.ts) and the shared index's password (storePassword.ts) are two.

import type * as vscode from 'vscode';

export class SecretStore {
  /** Fires when this secret (and no other) changes, here or in another window. */
  readonly onDidChange: vscode.Event<void>;

  /**
   * @param key the SecretStorage key.
   * @param clean applied to the value stored and read (the API key is trimmed; a password is kept as typed).
   */
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly key: string,
    private readonly clean: (value: string) => string = (value) => value,
  ) {
    this.onDidChange = (listener, thisArgs, disposables) =>
      secrets.onDidChange((e) => (e.key === key ? listener.call(thisArgs) : undefined), undefined, disposables);
  }

  /** The value, or undefined when none is stored (or it is empty). */
  async get(): Promise<string | undefined> {
    const value = await this.secrets.get(this.key);
    return value === undefined ? undefined : this.clean(value) || undefined;
  }

  async set(value: string): Promise<void> {
    await this.secrets.store(this.key, this.clean(value));
  }

  async clear(): Promise<void> {
    await this.secrets.delete(this.key);
  }
}
