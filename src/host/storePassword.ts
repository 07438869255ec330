// The shared index's password in VS Code's SecretStorage: never in settings, never in a log line.
// Stored and read as typed (spaces may belong to a password).

import type * as vscode from 'vscode';
import { SecretStore } from './secretStore';

export class StorePasswordStore extends SecretStore {
  constructor(secrets: vscode.SecretStorage) {
    super(secrets, 'evident.store.password');
  }
}
