// Several workspace folders as one docs tree: with one folder, sources are paths relative to it
// (as ever); with several, each source starts with its folder's name ("handbook/leave.md"), names
// made unique. Pure path code, used by the engine's doc source and by the editor to find files.

import * as path from 'node:path';

export interface DocFolder {
  name: string;
  root: string;
}

/** The prefix of each folder's sources: "" for a single folder, else its unique name. */
export function folderPrefixes(folders: readonly DocFolder[]): string[] {
  if (folders.length <= 1) return folders.map(() => '');
  const seen = new Map<string, number>();
  return folders.map((f) => {
    const base = f.name.replace(/[\\/]/g, '_') || 'folder';
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** The docs-relative source path of an absolute file path, or undefined outside every folder. */
export function toSourcePath(folders: readonly DocFolder[], absPath: string): string | undefined {
  const prefixes = folderPrefixes(folders);
  for (let i = 0; i < folders.length; i++) {
    const rel = path.relative(path.resolve(folders[i].root), path.resolve(absPath));
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const posix = rel.split(path.sep).join('/');
    return prefixes[i] ? `${prefixes[i]}/${posix}` : posix;
  }
  return undefined;
}

/** The absolute path of a source, refusing paths that leave their folder. */
export function resolveSource(folders: readonly DocFolder[], source: string): string | undefined {
  const prefixes = folderPrefixes(folders);
  for (let i = 0; i < folders.length; i++) {
    const prefix = prefixes[i];
    if (prefix && !source.startsWith(`${prefix}/`)) continue;
    const root = path.resolve(folders[i].root);
    const abs = path.resolve(root, prefix ? source.slice(prefix.length + 1) : source);
    const rel = path.relative(root, abs);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? abs : undefined;
  }
  return undefined;
}
