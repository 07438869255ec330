// The passages of a local index folder: segments (`passages-<gen>.jsonl`) of one line per
// document, each line that document's passages as JSON, found by the document table's offset
// and length and read lazily; a small cache of the documents read; the passages of documents a
// refused write could not save. A save writes the changed documents as one new segment, or
// compacts everything into one when dead bytes or segments are many.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Passage } from '../../../domain/types';
import type { ChangedDocument } from '../../indexing/changeSet';
import { readRange, type FileRef } from '../../retrieval/indexFiles';
import type { WriteFile } from './generation';
import type { DocumentEntry } from './manifest';

/** Passage segments are compacted when dead bytes exceed this share, or segments this count. */
const PASSAGE_DEAD_SHARE = 0.5;
const MAX_PASSAGE_SEGMENTS = 16;
const PASSAGE_CACHE = 256;
/** A passage segment is written in parts of about this many characters. */
const PART_CHARS = 1 << 20;

/** Documents' passages held in memory: a bounded cache of those read, and those not saved. */
export class PassageCache {
  private cache = new Map<string, Passage[]>();
  /** Passages of documents read but not saved (the folder could not be written): never evicted. */
  private unsaved = new Map<string, Passage[]>();

  get(docPath: string): Passage[] | undefined {
    return this.unsaved.get(docPath) ?? this.cache.get(docPath);
  }

  unsavedOf(docPath: string): Passage[] | undefined {
    return this.unsaved.get(docPath);
  }

  /** Caches a document's passages; the cache holds at most PASSAGE_CACHE documents (oldest out). */
  remember(docPath: string, passages: Passage[]): void {
    this.cache.delete(docPath);
    while (this.cache.size >= PASSAGE_CACHE) {
      const first = this.cache.keys().next().value;
      if (first === undefined) break;
      this.cache.delete(first);
    }
    this.cache.set(docPath, passages);
  }

  /** Passages the folder could not take: held until a save succeeds. */
  keepUnsaved(docPath: string, passages: Passage[]): void {
    this.unsaved.set(docPath, passages);
  }

  /** A save wrote everything: nothing is held as unsaved any more. */
  saved(): void {
    this.unsaved.clear();
  }

  forget(docPath: string): void {
    this.cache.delete(docPath);
    this.unsaved.delete(docPath);
  }

  clear(): void {
    this.cache.clear();
    this.unsaved.clear();
  }
}

/** One document's passages, read from its segment ([] for a document with none saved). */
export function readDocumentPassages(dir: string, entry: DocumentEntry | undefined): Passage[] {
  if (!entry?.segment) return [];
  return JSON.parse(readRange(path.join(dir, entry.segment), entry.offset, entry.length).toString('utf8')) as Passage[];
}

/** Every passage of the document table, in its order: a pass over the segments, each read once. */
export function readAllPassages(dir: string, documents: Record<string, DocumentEntry>, cache: PassageCache): Passage[] {
  const out: Passage[] = [];
  const segments = new Map<string, Buffer>();
  for (const [docPath, entry] of Object.entries(documents)) {
    const unsaved = cache.unsavedOf(docPath);
    if (unsaved) {
      out.push(...unsaved);
      continue;
    }
    let bytes = segments.get(entry.segment);
    if (!bytes) {
      bytes = readFileSync(path.join(dir, entry.segment));
      segments.set(entry.segment, bytes);
    }
    out.push(...(JSON.parse(bytes.toString('utf8', entry.offset, entry.offset + entry.length)) as Passage[]));
  }
  return out;
}

/**
 * The passage side of a save in generation `gen`: the changed documents in one new segment, or
 * everything in one (compaction: when `compactAll`, too many segments, mostly dead bytes, or
 * documents not saved yet). Returns the segments the new generation keeps and its document table.
 */
export async function writePassageSegments(options: {
  gen: number;
  segmentRefs: FileRef[];
  documents: Record<string, DocumentEntry>;
  changed: Map<string, ChangedDocument>;
  compactAll: boolean;
  /** The passages of an unchanged document, read without caching. */
  passagesOf: (docPath: string) => Passage[];
  write: WriteFile;
}): Promise<{ passageRefs: FileRef[]; entries: Record<string, DocumentEntry> }> {
  const { gen, documents, changed, write } = options;
  const segments = new Map(options.segmentRefs.map((r) => [r.name, r]));
  const liveBytes = new Map<string, number>();
  for (const e of Object.values(documents)) {
    if (e.segment) liveBytes.set(e.segment, (liveBytes.get(e.segment) ?? 0) + e.length + 1);
  }
  const totalBytes = [...segments.values()].reduce((n, r) => n + r.bytes, 0);
  const live = [...liveBytes.values()].reduce((n, b) => n + b, 0);
  const pendingDocs = Object.entries(documents).filter(([, e]) => !e.segment);
  const compact =
    options.compactAll ||
    segments.size >= MAX_PASSAGE_SEGMENTS ||
    (totalBytes > 0 && 1 - live / totalBytes > PASSAGE_DEAD_SHARE) ||
    pendingDocs.length > 0;
  // Documents to write, each read as the file takes it (a compaction holds one at a time).
  const toWrite: string[] = compact ? Object.keys(documents) : [];
  toWrite.push(...changed.keys());
  const passagesOf = (p: string): Passage[] => changed.get(p)?.passages ?? options.passagesOf(p);
  const entries: Record<string, DocumentEntry> = compact ? {} : { ...documents };
  let passageRefs = compact ? [] : options.segmentRefs.filter((r) => liveBytes.has(r.name));
  if (toWrite.length) {
    const name = `passages-${gen}.jsonl`;
    // Lines gathered into parts of about a megabyte, each made as the file takes it: no one
    // string of the whole segment, nor all its parts at once (at 50k passages, ~50 MB).
    function* parts(): Generator<string> {
      let part: string[] = [];
      let partChars = 0;
      let offset = 0;
      for (const p of toWrite) {
        const passages = passagesOf(p);
        const line = JSON.stringify(passages);
        const length = Buffer.byteLength(line);
        const old = documents[p];
        const fromChange = changed.get(p);
        entries[p] = fromChange
          ? {
              ...fromChange.stamp,
              version: fromChange.version,
              ids: passages.map((x) => x.id),
              segment: name,
              offset,
              length,
            }
          : { ...old, segment: name, offset, length };
        part.push(line);
        partChars += line.length;
        if (partChars > PART_CHARS) {
          yield `${part.join('\n')}\n`;
          part = [];
          partChars = 0;
        }
        offset += length + 1;
      }
      if (part.length) yield `${part.join('\n')}\n`;
    }
    passageRefs = [...passageRefs, await write(name, parts())];
  }
  return { passageRefs, entries };
}
