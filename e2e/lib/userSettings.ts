// Changes the test profile's user settings the way a user editing settings.json does: the
// workbench watches the file and applies the change. `undefined` removes a setting.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { session } from './session';

export async function updateUserSettings(changes: Record<string, unknown>): Promise<void> {
  const file = join(session().server.userDataDir, 'User', 'settings.json');
  const current = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete current[key];
    else current[key] = value;
  }
  await writeFile(file, JSON.stringify(current, null, 2));
}
