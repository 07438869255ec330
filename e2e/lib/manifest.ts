// Palette titles of the extension's commands, read from package.json, so checks name commands
// by id (src/shared/ids.ts) and never drift from the manifest.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extensionDir } from './paths';

interface Manifest {
  contributes?: { commands?: { command: string; title: string; category?: string }[] };
}

export function paletteTitle(commandId: string): string {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8')) as Manifest;
  const entry = manifest.contributes?.commands?.find((c) => c.command === commandId);
  if (!entry)
    throw new Error(`command ${commandId} is not in package.json contributes.commands: the palette cannot show it`);
  return entry.category ? `${entry.category}: ${entry.title}` : entry.title;
}
