// Changes the test profile's user settings as a user does: in the settings.json editor (the
// workbench does not pick up a write to the file from outside while it runs). The whole file
// is replaced by the merged JSON, saved, and the save is confirmed on disk. `undefined`
// removes a setting.

import { isDeepStrictEqual } from 'node:util';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { session } from './session';
import type { Workbench } from './workbench';

function settingsFile(): string {
  return join(session().server.userDataDir, 'User', 'settings.json');
}

async function readSettings(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(settingsFile(), 'utf8')) as Record<string, unknown>;
}

export async function editUserSettings(wb: Workbench, changes: Record<string, unknown>): Promise<void> {
  const wanted = await readSettings();
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete wanted[key];
    else wanted[key] = value;
  }
  await wb.runCommand('Preferences: Open User Settings (JSON)');
  const input = wb.page.locator('.editor-group-container.active .monaco-editor textarea').first();
  await input.waitFor({ timeout: 15_000 });
  await input.focus();
  await wb.page.keyboard.press('Control+A');
  await wb.page.keyboard.press('Delete');
  // One line: no auto-indent; inserted as one edit, so no auto-closed brackets.
  await wb.page.keyboard.insertText(JSON.stringify(wanted));
  await wb.page.keyboard.press('Control+S');
  let saved: Record<string, unknown> | undefined;
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await wb.page.waitForTimeout(200)) {
    saved = await readSettings().catch(() => undefined);
    if (isDeepStrictEqual(saved, wanted)) break;
  }
  if (!isDeepStrictEqual(saved, wanted))
    throw new Error(`settings.json was not saved as wanted: ${JSON.stringify(saved)}`);
  await wb.runCommand('View: Close Editor');
}
