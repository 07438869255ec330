// The Gemini API key in VS Code's SecretStorage: never in settings, never in a log line.
// Stored and read trimmed (a pasted key often carries a newline).

import type * as vscode from 'vscode';
import { SecretStore } from './secretStore';

export class GeminiKeyStore extends SecretStore {
  constructor(secrets: vscode.SecretStorage) {
    super(secrets, 'evident.gemini.apiKey', (key) => key.trim());
  }
}
