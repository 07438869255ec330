// Where Markdown documents come from: a folder walked with include/exclude globs, and the
// checks that turn unreadable, binary, huge or non-UTF-8 files into warnings instead of crashes.
// A file's size is checked before it is read (a 1 GB file costs nothing), and a read never takes
// more than the limit (a file that grew since it was listed). Symbolic links are not followed and
// hidden names are not indexed; both are reported with the reason, never left out in silence.

import { readdirSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import * as path from 'node:path';
import picomatch from 'picomatch';
import { folderPrefixes, resolveSource, type DocFolder } from './docFolders';

export interface DocFile {
  /** Path relative to the docs root, with `/` separators. */
  path: string;
  absPath: string;
  size: number;
  mtimeMs: number;
  /** Change time and inode: an edit that keeps the size and restores the mtime still changes these. */
  ctimeMs?: number;
  ino?: number;
}

/**
 * What the walk left out that a user may expect to be indexed, with the reason: a folder it
 * could not read (reported like an unreadable file), a symbolic link, a hidden name.
 */
export interface SkippedEntry {
  /** Path relative to the docs root, with `/` separators (a folder's with a trailing `/`). */
  path: string;
  reason: string;
}

export interface DocSource {
  readonly root: string;
  /** Every folder the documents come from (the index must lie outside all of them). */
  readonly roots: readonly string[];
  /** `onSkipped` hears of each folder that could not be listed, each symbolic link and hidden document. */
  list(signal?: AbortSignal, onSkipped?: (entry: SkippedEntry) => void): Promise<DocFile[]>;
  /** The file's bytes; a file over MAX_DOC_BYTES is not read (a DocumentTooLarge error, code EFBIG). */
  read(file: DocFile): Promise<Uint8Array>;
  /** The bytes of a source path as it is now (throws when unreadable or outside the folders). */
  readSource(source: string): Promise<Uint8Array>;
}

export const DEFAULT_INCLUDE = ['**/*.md', '**/*.markdown', '**/*.mdx'];
export const DEFAULT_EXCLUDE = [
  '**/node_modules/**',
  '**/.git/**',
  '**/dist/**',
  '**/out/**',
  '**/build/**',
  '**/.vscode-test/**',
  '**/.evident-cache/**',
];

/** Files larger than this are skipped: a policy document is never this big. */
export const MAX_DOC_BYTES = 2 * 1024 * 1024;

/** A document over MAX_DOC_BYTES: not read. `bytes` is its size, or undefined when it grew past the limit while read. */
export class DocumentTooLarge extends Error {
  readonly code = 'EFBIG';
  constructor(readonly bytes: number | undefined) {
    super(tooLarge(bytes));
    this.name = 'DocumentTooLarge';
  }
}

function tooLarge(bytes: number | undefined): string {
  const limit = `the limit is ${MAX_DOC_BYTES / 1024 / 1024} MB`;
  return bytes === undefined
    ? `too large (over ${MAX_DOC_BYTES / 1024 / 1024} MB when read; ${limit})`
    : `too large (${(bytes / 1024 / 1024).toFixed(1)} MB; ${limit})`;
}

/**
 * At most MAX_DOC_BYTES of a file: its size is checked on the open file before anything is read,
 * and the read stops one byte past the limit (a file that grows meanwhile is refused, not read whole).
 */
export async function readBounded(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_DOC_BYTES) throw new DocumentTooLarge(size);
    // One byte past the size seen: a file that grew since is read on, up to one byte past the limit.
    let buffer = Buffer.alloc(size + 1);
    let read = 0;
    for (;;) {
      if (read === buffer.length) {
        if (read > MAX_DOC_BYTES) throw new DocumentTooLarge(undefined);
        const grown = Buffer.alloc(MAX_DOC_BYTES + 1);
        buffer.copy(grown, 0, 0, read);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) return buffer.subarray(0, read);
      read += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * A listed document's text, or why it cannot be indexed: too large (by its listed size, before any
 * read, or found while reading), unreadable, binary, not valid UTF-8 or UTF-16.
 */
export async function readDocumentText(docs: DocSource, file: DocFile): Promise<DecodeResult> {
  if (file.size > MAX_DOC_BYTES) return { ok: false, reason: tooLarge(file.size) };
  let bytes: Uint8Array;
  try {
    bytes = await docs.read(file);
  } catch (error) {
    if (error instanceof DocumentTooLarge) return { ok: false, reason: error.message };
    return { ok: false, reason: `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  return decodeDocument(bytes);
}

/** Files stat'ed between two turns of the event loop while listing. */
const STAT_BATCH = 256;

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

export interface FolderDocOptions {
  include?: string[];
  exclude?: string[];
}

export function folderDocSource(root: string, options: FolderDocOptions = {}): DocSource {
  const absRoot = path.resolve(root);
  const includeGlobs = options.include?.length ? options.include : DEFAULT_INCLUDE;
  const include = picomatch(includeGlobs, { dot: false });
  // What the include patterns would take if hidden names counted: such files are reported as skipped.
  const includeHidden = picomatch(includeGlobs, { dot: true });
  const exclude = picomatch(options.exclude ?? DEFAULT_EXCLUDE, { dot: true });

  return {
    root: absRoot,
    roots: [absRoot],
    async list(signal, onSkipped) {
      const files: DocFile[] = [];
      // `rel` is the folder's docs-relative path ('' for the root), built by joining names (no
      // path.relative per file).
      const walk = async (dir: string, rel: string): Promise<void> => {
        signal?.throwIfAborted();
        let entries;
        try {
          entries = readdirSync(dir, { withFileTypes: true });
        } catch (error) {
          onSkipped?.({
            path: rel ? `${rel}/` : './',
            reason: `unreadable folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
          });
          return;
        }
        entries.sort((a, b) => a.name.localeCompare(b.name));
        for (const entry of entries) {
          const abs = path.join(dir, entry.name);
          const entryRel = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory()) {
            // A folder is pruned when anything inside it would be excluded.
            if (exclude(entryRel) || exclude(`${entryRel}/x`)) continue;
            await walk(abs, entryRel);
          } else if (entry.isSymbolicLink()) {
            if (includeHidden(entryRel) && !exclude(entryRel)) {
              onSkipped?.({
                path: entryRel,
                reason:
                  'symbolic link (links are not followed, so nothing outside the docs folder is read; index the file where it is)',
              });
            }
          } else if (entry.isFile() && !include(entryRel) && includeHidden(entryRel) && !exclude(entryRel)) {
            onSkipped?.({ path: entryRel, reason: 'hidden (its name or a folder of its path starts with a dot)' });
          } else if (entry.isFile() && include(entryRel) && !exclude(entryRel)) {
            // Synchronous, like the folder listing above: a stat is a few microseconds, an awaited
            // one costs ten times that in promise and thread-pool round trips (seconds at 50k
            // files on a busy machine). The event loop gets a turn every STAT_BATCH files.
            const info = statOrUndefined(abs);
            // undefined: vanished between readdir and stat: skipped
            if (info) {
              files.push({
                path: entryRel,
                absPath: abs,
                size: info.size,
                mtimeMs: info.mtimeMs,
                ctimeMs: info.ctimeMs,
                ino: info.ino,
              });
            }
            if (++statted % STAT_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve));
          }
        }
      };
      let statted = 0;
      await walk(absRoot, '');
      return files;
    },
    async read(file) {
      return readBounded(file.absPath);
    },
    async readSource(source) {
      return readBounded(absoluteSource([{ name: '', root: absRoot }], source));
    },
  };
}

/** No documents: a shared index answering without a docs folder (nothing is listed or read here). */
export const NO_DOCS: DocSource = {
  root: '',
  roots: [],
  async list() {
    return [];
  },
  async read(file) {
    throw new Error(`${file.path} is not in a docs folder`);
  },
  async readSource(source) {
    throw new Error(`${source} is not in a docs folder`);
  },
};

/**
 * The Markdown of several folders as one source (a multi-root workspace): sources are prefixed
 * with their folder's name when there is more than one folder (see docFolders.ts).
 */
export function workspaceDocSource(folders: readonly DocFolder[], options: FolderDocOptions = {}): DocSource {
  if (folders.length === 1) return folderDocSource(folders[0].root, options);
  const prefixes = folderPrefixes(folders);
  const sources = folders.map((f) => folderDocSource(f.root, options));
  return {
    // The identity of the tree, recorded in the index: another set of folders rebuilds it.
    root: folders.map((f) => path.resolve(f.root)).join(path.delimiter),
    roots: folders.map((f) => path.resolve(f.root)),
    async list(signal, onSkipped) {
      const all: DocFile[] = [];
      for (let i = 0; i < sources.length; i++) {
        const prefixed = (entry: SkippedEntry) =>
          onSkipped?.({ ...entry, path: `${prefixes[i]}/${entry.path === './' ? '' : entry.path}` });
        for (const file of await sources[i].list(signal, prefixed)) {
          all.push({ ...file, path: `${prefixes[i]}/${file.path}` });
        }
      }
      return all;
    },
    async read(file) {
      return readBounded(file.absPath);
    },
    async readSource(source) {
      return readBounded(absoluteSource(folders, source));
    },
  };
}

function absoluteSource(folders: readonly DocFolder[], source: string): string {
  const abs = resolveSource(folders, source);
  if (!abs) throw new Error(`${source} is not a path inside the documents`);
  return abs;
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

export type DecodeResult = { ok: true; text: string } | { ok: false; reason: string };

/** Turns file bytes into text, or says why the file cannot be indexed. */
export function decodeDocument(bytes: Uint8Array): DecodeResult {
  if (bytes.byteLength > MAX_DOC_BYTES) return { ok: false, reason: tooLarge(bytes.byteLength) };
  const utf16 = utf16ByteOrder(bytes);
  if (utf16) return decodeUtf16(bytes, utf16);
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return { ok: false, reason: 'binary file (contains NUL bytes)' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { ok: true, text };
  } catch {
    return { ok: false, reason: 'not valid UTF-8 text' };
  }
}

/** A UTF-16 byte order mark (Windows editors save "Unicode" text this way): its byte order. */
function utf16ByteOrder(bytes: Uint8Array): 'le' | 'be' | undefined {
  if (bytes.length < 2) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  return undefined;
}

function decodeUtf16(bytes: Uint8Array, order: 'le' | 'be'): DecodeResult {
  const body = bytes.subarray(2);
  if (body.length % 2 !== 0) return { ok: false, reason: 'not valid UTF-16 text (odd number of bytes)' };
  // Big-endian is decoded as little-endian with each byte pair swapped.
  const le = order === 'le' ? body : swapBytePairs(body);
  let text: string;
  try {
    text = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }).decode(le);
  } catch {
    return { ok: false, reason: 'not valid UTF-16 text' };
  }
  if (text.includes('\0')) return { ok: false, reason: 'binary file (contains NUL characters)' };
  return { ok: true, text };
}

function swapBytePairs(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    out[i] = bytes[i + 1];
    out[i + 1] = bytes[i];
  }
  return out;
}
