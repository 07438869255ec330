// The files of an index folder and how they are written so that a crash, a full disk or a
// read-only folder never leaves a half-written index:
//   * every data file carries the generation that wrote it in its name and is written once,
//     through a temporary file renamed into place; nothing is ever rewritten in place;
//   * `manifest.json` (also written then renamed) names the files of the current generation with
//     their byte lengths: renaming it commits a save; files of older generations are removed after;
//   * on open, a file shorter or longer than the manifest says is reported as damaged, and
//     temporary files and files no manifest names (left by a crash) are removed.

import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

export const MANIFEST_FILE = 'manifest.json';

export interface FileRef {
  name: string;
  bytes: number;
}

/** Files the index writes: `<kind>-<generation>[-<n>].<ext>`, and temporary files. */
const INDEX_FILE = /^(documents|passages|lexical|vectors|terms|ann)-\d+(-\d+)?\.(json|jsonl|bin|f32|ids|txt|usearch)$/;
const TEMP_FILE = /\.tmp$/;
/** Files of the previous formats (4 and before), removed once a new manifest is committed. */
const LEGACY = new Set(['lexical.json', 'lexical.bin', 'vectors']);

/**
 * Writes `content` to `dir/name` through a temporary file; the temporary file never stays. A
 * list of strings is written part by part (a 50 MB passage segment is never joined into one string).
 */
export async function writeFileAtomic(
  dir: string,
  name: string,
  content: string | Uint8Array | Iterable<string>,
): Promise<FileRef> {
  const file = path.join(dir, name);
  const tmp = `${file}.${process.pid}.tmp`;
  let bytes = 0;
  // Parts (an array, or a generator that makes each part as the file takes it) are counted as written.
  const counted =
    typeof content === 'string' || content instanceof Uint8Array
      ? content
      : (function* () {
          for (const part of content) {
            bytes += Buffer.byteLength(part);
            yield part;
          }
        })();
  try {
    await writeFile(tmp, counted);
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (typeof content === 'string') bytes = Buffer.byteLength(content);
  else if (content instanceof Uint8Array) bytes = content.byteLength;
  return { name, bytes };
}

/** Why a file the manifest names cannot be used as it is, or undefined when it can. */
export async function checkFile(dir: string, ref: FileRef): Promise<string | undefined> {
  try {
    const info = await stat(path.join(dir, ref.name));
    if (info.size !== ref.bytes) return `${ref.name} has ${info.size} of its ${ref.bytes} bytes`;
    return undefined;
  } catch (error) {
    return `${ref.name} is missing (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/**
 * Removes temporary files and index files that `keep` does not name (left by a crash or by the
 * previous generation). Best effort: a read-only folder keeps them, and says nothing.
 */
export async function removeStrayFiles(
  dir: string,
  keep: Set<string>,
  options: { legacy?: boolean } = {},
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const stray =
      TEMP_FILE.test(name) ||
      (INDEX_FILE.test(name) && !keep.has(name)) ||
      (options.legacy === true && LEGACY.has(name));
    if (!stray) continue;
    try {
      await rm(path.join(dir, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // read-only or busy: left for the next run
    }
  }
  return removed;
}

/** Reads `length` bytes at `offset` of a file, synchronously (a passage looked up by id). */
export function readRange(file: string, offset: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, offset + read);
      if (n === 0) throw new Error(`${path.basename(file)} ends before byte ${offset + length}`);
      read += n;
    }
    return buffer;
  } finally {
    closeSync(fd);
  }
}

/** The errors that mean "this folder cannot be written", as opposed to a bug. */
export function isWriteRefused(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC' || code === 'EDQUOT';
}
