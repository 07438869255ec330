// The change set of a run, independent of where the index is stored: list the documents, read
// and chunk the changed ones, and the passage-level difference from what is indexed. A store
// says what it holds through `KnownDocuments` (each document's stamp, content version and
// passage ids); nothing here writes. The local index calls all of it; the shared index, which
// keeps content versions without file stamps and decides what changed under its write lock,
// lists and reads through `listFiles` and `readOrSkip`.

import { chunkMarkdown } from '../docs/chunker';
import { readDocumentText, type DocFile, type DocSource } from '../docs/docSource';
import type { Passage } from '../../domain/types';
import type { IndexReport, IndexRunOptions } from './indexRun';

/** What says a file is unchanged without reading it. */
export interface Stamp {
  size: number;
  mtimeMs: number;
  ctimeMs?: number;
  ino?: number;
}

/** An indexed document as the change set sees it. */
export interface KnownDocument extends Stamp {
  version: string;
  /** Passage ids, in document order. */
  ids: string[];
}

/** The indexed documents by docs-relative path. */
export type KnownDocuments = Readonly<Record<string, KnownDocument | undefined>>;

/** A document read in this run whose content changed. */
export interface ChangedDocument {
  stamp: Stamp;
  version: string;
  passages: Passage[];
}

export interface PassageChange {
  /** Passages of changed or removed documents (to take out of the indexes). */
  oldIds: Set<string>;
  /** Passages of changed documents (to put in), and their ids. */
  newPassages: Passage[];
  newIds: Set<string>;
}

/**
 * Phase 1, list: the documents of this run (all of the tree, or the run's `paths` of it); a
 * folder that cannot be listed is reported like an unreadable file.
 */
export async function listFiles(
  docs: DocSource,
  report: IndexReport,
  { signal, onProgress, paths }: IndexRunOptions,
): Promise<DocFile[]> {
  onProgress?.({ phase: 'scanning', done: 0, total: 0 });
  const listed = await docs.list(signal, (folder) => report.skipped.push(folder));
  if (!paths) return listed;
  const wanted = new Set(paths);
  return listed.filter((f) => wanted.has(f.path));
}

/** Phase 1 against what is indexed: the documents of this run, and the indexed ones that are gone. */
export async function listDocuments(
  docs: DocSource,
  known: KnownDocuments,
  report: IndexReport,
  options: IndexRunOptions,
): Promise<{ files: DocFile[]; removedPaths: string[] }> {
  const files = await listFiles(docs, report, options);
  const present = new Set(files.map((f) => f.path));
  const removedPaths = options.paths
    ? options.paths.filter((p) => !present.has(p) && known[p])
    : Object.keys(known).filter((p) => !present.has(p));
  return { files, removedPaths };
}

/** A document's text, or undefined when it cannot be indexed (unreadable, binary, undecodable): then skipped with the reason. */
export async function readOrSkip(docs: DocSource, file: DocFile, report: IndexReport): Promise<string | undefined> {
  const text = await readDocumentText(docs, file);
  if (text.ok) return text.text;
  report.skipped.push({ path: file.path, reason: text.reason });
  return undefined;
}

/**
 * Phases 2 and 3, read and chunk, file by file: what changed becomes new document entries
 * (nothing is written yet). A file whose size, mtime, ctime and inode are unchanged is not
 * read; one whose content hash is unchanged keeps its passages (only its stamp is refreshed).
 * Unreadable, binary or undecodable files are skipped with a reason (and added to
 * `removedPaths` when indexed, to drop them from the index).
 */
export async function readAndChunkChanged(
  docs: DocSource,
  files: DocFile[],
  known: KnownDocuments,
  removedPaths: string[],
  report: IndexReport,
  { signal, onProgress }: IndexRunOptions,
  of: { done: number; total: number } = { done: 0, total: files.length },
): Promise<{ changed: Map<string, ChangedDocument>; touched: Map<string, Stamp> }> {
  const changed = new Map<string, ChangedDocument>();
  const touched = new Map<string, Stamp>();
  for (let i = 0; i < files.length; i++) {
    signal?.throwIfAborted();
    const file = files[i];
    onProgress?.({ phase: 'reading', done: of.done + i, total: of.total, file: file.path });
    const entry = known[file.path];
    if (entry && sameStamp(entry, file)) {
      report.unchanged++;
      continue;
    }
    const text = await readOrSkip(docs, file, report);
    if (text === undefined) {
      if (entry) removedPaths.push(file.path);
      continue;
    }
    const passages = chunkMarkdown(file.path, text).passages;
    const version = passages[0]?.version ?? '';
    if (entry && entry.version === version && version) {
      touched.set(file.path, stampOf(file));
      report.unchanged++;
      continue;
    }
    if (entry) report.updated++;
    else report.added++;
    changed.set(file.path, { stamp: stampOf(file), version, passages });
  }
  if (of.done + files.length === of.total) onProgress?.({ phase: 'reading', done: of.total, total: of.total });
  return { changed, touched };
}

/** The passage-level change: ids of the passages of changed or removed documents, and the new passages. */
export function passageChange(
  known: KnownDocuments,
  changed: Map<string, ChangedDocument>,
  removedPaths: string[],
): PassageChange {
  const oldIds = new Set<string>();
  for (const p of [...changed.keys(), ...removedPaths]) {
    for (const id of known[p]?.ids ?? []) oldIds.add(id);
  }
  const newPassages = [...changed.values()].flatMap((d) => d.passages);
  return { oldIds, newPassages, newIds: new Set(newPassages.map((p) => p.id)) };
}

/**
 * The run's files in batches of about `batchBytes` bytes to read (files known unchanged cost
 * nothing); one batch when the run reads less than that.
 */
export function readBatches(files: DocFile[], needsRead: (f: DocFile) => boolean, batchBytes: number): DocFile[][] {
  const batches: DocFile[][] = [];
  let batch: DocFile[] = [];
  let bytes = 0;
  for (const file of files) {
    batch.push(file);
    if (!needsRead(file)) continue;
    bytes += file.size;
    if (bytes >= batchBytes) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length || !batches.length) batches.push(batch);
  return batches;
}

export function stampOf(file: DocFile): Stamp {
  return { size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, ino: file.ino };
}

/** Unchanged when size, mtime, ctime and inode all match (a restored mtime still moves the ctime). */
export function sameStamp(known: Stamp, file: DocFile): boolean {
  return (
    known.size === file.size &&
    known.mtimeMs === file.mtimeMs &&
    known.ctimeMs === file.ctimeMs &&
    known.ino === file.ino
  );
}
