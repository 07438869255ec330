// The index of a docs folder on disk. Indexing is incremental: documents whose size, mtime,
// ctime and inode are unchanged are not re-read, passages whose id is already embedded are not
// re-embedded, deleted documents are removed. Storage is proportional to the change:
//   * `documents-<gen>.json`  the document table (stamps, version, passage ids, where the passages are)
//   * `passages-<gen>.jsonl`  segments of passages, one line per document, read lazily by offset
//   * `lexical-<gen>.bin`     a snapshot of the lexical index, read on first use; the passages added
//                             and removed since are listed in the manifest and replayed then
//   * `vectors-<gen>.f32/.ids` vector segments (see vectorStore.ts), loaded on first use
//   * `ann-<gen>.usearch/.ids` the vector search graph over them (above a size; see annIndex.ts)
//   * `terms-<gen>.txt`       document frequencies of the verifier's terms, a `term<TAB>count` line
//                             each (answers weigh words by them; `.json` in indexes written before)
//   * `manifest.json`         names the files above with their lengths; renaming it commits a save
// A run commits twice over: the lexical part first (answers work from then on), then the vectors
// in chunks, so a killed or cancelled run resumes without embedding again what it committed.
// A run that changes nothing writes nothing. A corrupt, damaged or outdated index is rebuilt as
// little as needed (a cut-off vector file: only its vectors), with a notice saying why. An index
// folder that cannot be written (read-only, full disk) still answers, with a notice.
// Several processes may share the folder: an open index pins the generation it read (a reader
// lease, readerLeases.ts), and a run holds the writer lock (indexLock.ts), first catching up
// with what another writer committed; a run that may not wait answers from the committed index.

import { readFile, rm, mkdir } from 'node:fs/promises';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { chunkMarkdown } from '../docs/chunker';
import { readDocumentText, type DocFile, type DocSource } from '../docs/docSource';
import type { Passage, RetrievalMode } from '../../domain/types';
import type { VectorFill } from '../../domain/partialRetrieval';
import type { Embedder } from '../types';
import { TermCounts, type TermStats } from '../verifier/termStats';
import { LexicalIndex } from './lexicalIndex';
import { AnnSnapshot, annLibrary, logAnn } from './annIndex';
import { VectorStore, annWanted, type AnnSnapshotRef, type VectorSegmentRef } from './vectorStore';
import { MANIFEST_FILE, checkFile, isWriteRefused, readRange, removeStrayFiles, writeFileAtomic, type FileRef } from './indexFiles';
import { acquireIndexLock, type HeldLock, type LockHolder } from './indexLock';
import { leasedFiles, pinManifest, type ReaderLease } from './readerLeases';

/** Bump when the manifest layout or the chunker's output changes: old indexes are rebuilt. */
export const INDEX_FORMAT_VERSION = 7;

interface DocumentEntry {
  version: string;
  size: number;
  mtimeMs: number;
  ctimeMs?: number;
  ino?: number;
  /** Passage ids, in document order. */
  ids: string[];
  /** Where the passages are: a line of a passage segment. */
  segment: string;
  offset: number;
  length: number;
}

interface VectorFileRef extends VectorSegmentRef {
  f32Bytes: number;
  idsBytes: number;
}

interface AnnFileRef extends AnnSnapshotRef {
  usearchBytes: number;
  /** Checked before the native loader reads the file (it aborts the process on a damaged one). */
  usearchSha1: string;
  idsBytes: number;
}

interface Manifest {
  formatVersion: number;
  docsRoot: string;
  updatedAt: string;
  embeddingModel: string | null;
  dimensions: number | null;
  generation: number;
  documents: FileRef | null;
  passages: FileRef[];
  lexical: FileRef | null;
  /** Passage ids added to / removed from the lexical index since its snapshot was written. */
  lexicalDelta: { add: string[]; remove: string[] };
  vectors: VectorFileRef[];
  /** The vector search graph (absent below its size threshold, or when it must be rebuilt). */
  ann?: AnnFileRef | null;
  /** Term document frequencies (derived data: recomputed from the passages when missing or damaged). */
  terms?: FileRef | null;
}

export interface IndexProgress {
  phase: 'scanning' | 'reading' | 'embedding' | 'saving';
  done: number;
  total: number;
  file?: string;
  /** While embedding: how many of the index's passages have a committed vector. */
  vectors?: VectorFill;
}

export interface IndexReport {
  documents: number;
  passages: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  embedded: number;
  skipped: { path: string; reason: string }[];
  retrieval: RetrievalMode;
  notices: string[];
  ms: number;
  /** Vector commits of this run's fill, and the time they took (writes only, not embedding). */
  vectorCommits?: { count: number; ms: number };
  /**
   * Set when the index folder refused this run's writes (full disk, read-only, quota): the run's
   * changes live in memory only, and the folder keeps `kept`, the index as last saved (null: none).
   */
  writeRefused?: { code: string; kept: SavedIndex | null };
  /** Set when another process held the writer lock and the run did not wait: nothing was indexed (null: its lock file was being written). */
  busy?: { pid: number; host: string; since: string } | null;
}

/** What an index folder holds as committed: its counts and when it was saved. */
export interface SavedIndex {
  documents: number;
  passages: number;
  savedAt: string;
}

export interface IndexRunOptions {
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /** Only these docs-relative paths (a watcher's changes); others are left as they are. */
  paths?: string[];
  /** The embedder, or undefined for a lexical-only run. */
  embedder?: Embedder;
  /** Called once the lexical part of the run is committed: answers work from here on. */
  onLexicalReady?: () => void;
  /** Vectors are committed every this many passages or milliseconds, whichever comes first. */
  commitEvery?: { passages?: number; ms?: number };
  /** A run reading more than this many bytes of documents commits its lexical part in batches of about this size. */
  readBatchBytes?: number;
  /**
   * Instead of `embedder`: the model a run would use, loaded only when the run has something to
   * embed (an unchanged index whose vectors all come from this model never loads it).
   */
  lazyEmbedder?: { modelId: string; load(): Promise<Embedder | undefined> };
  /**
   * When another process is indexing this folder: 'wait' for it (the default; `onWaiting` hears
   * once, and answers meanwhile come from the index it has committed), or 'answer': index
   * nothing and answer from the committed index (the report says `busy`).
   */
  whenBusy?: 'wait' | 'answer';
  onWaiting?: (holder: LockHolder | undefined) => void;
}

/** A document read in this run whose content changed. */
interface ChangedDocument {
  stamp: Stamp;
  version: string;
  passages: Passage[];
}

/** A passage to embed: its id and the text the embedder sees. */
interface EmbedItem {
  id: string;
  text: string;
}

interface PassageChange {
  /** Passages of changed or removed documents (to take out of the indexes). */
  oldIds: Set<string>;
  /** Passages of changed documents (to put in), and their ids. */
  newPassages: Passage[];
  newIds: Set<string>;
}

interface EmbeddedChange {
  /** The vector store the change applies to (a new one when the model changed); undefined when untouched. */
  vectors: VectorStore | undefined;
  vectorChange: { add: { id: string; vector: Float32Array }[]; remove: string[]; reset: boolean };
  /** The model the vectors now come from (unchanged on a lexical-only run). */
  embeddingModel: string | null;
  dimensions: number | null;
}

/** Everything one run decided, applied by the write phase. */
interface IndexRun {
  changed: Map<string, ChangedDocument>;
  touched: Map<string, Stamp>;
  removedPaths: string[];
  change: PassageChange;
  embedded: EmbeddedChange;
}

/**
 * Vector commits while filling: every COMMIT_PASSAGES passages or COMMIT_MS, whichever first. A
 * commit writes one vector segment and the manifest (see docs/measurements.md for its cost), so
 * a killed run loses at most this much embedding work.
 */
const COMMIT_PASSAGES = 2048;
const COMMIT_MS = 15_000;
/**
 * A run that reads more than this many bytes of documents (a first index) commits its lexical
 * part in batches of about this size: memory holds one batch's passages, not the corpus's (see
 * docs/measurements.md, build peak memory).
 */
const READ_BATCH_BYTES = 4 << 20;
const EMBED_BATCH = 32;

/** A lexical snapshot is rewritten when the passages changed since exceed this share (or count). */
const LEXICAL_DELTA_SHARE = 0.05;
const LEXICAL_DELTA_MIN = 2000;
/** Passage segments are compacted when dead bytes exceed this share, or segments this count. */
const PASSAGE_DEAD_SHARE = 0.5;
const MAX_PASSAGE_SEGMENTS = 16;
const PASSAGE_CACHE = 256;
/** A passage segment is written in parts of about this many characters. */
const PART_CHARS = 1 << 20;

function freshManifest(docsRoot: string): Manifest {
  return {
    formatVersion: INDEX_FORMAT_VERSION, docsRoot, updatedAt: '', embeddingModel: null, dimensions: null, generation: 0,
    documents: null, passages: [], lexical: null, lexicalDelta: { add: [], remove: [] }, vectors: [],
  };
}

export class PassageIndex {
  /** Passage id → the document holding it: built on first use (`docOfMap`). */
  private docOfMap: Map<string, string> | undefined;
  /** Passages in the document table, counted on first use. */
  private passageTotal: number | undefined;
  /** The lexical index once loaded; until then `lexicalFile` says where it is (`lexical` loads it). */
  private lexicalLoaded: LexicalIndex | undefined;
  private lexicalFile: string | undefined;
  private cache = new Map<string, Passage[]>();
  /** Passages of documents read but not saved (the folder could not be written): never evicted. */
  private unsaved = new Map<string, Passage[]>();
  private vectors: VectorStore | undefined;
  private vectorsLoading: Promise<VectorStore | undefined> | undefined;
  /** Set when the in-memory index differs from the files in a way a partial save cannot express. */
  private needsFullSave = false;
  private lexicalDelta: { add: Set<string>; remove: Set<string> };
  private termCounts: TermCounts | undefined;
  private termsDirty = false;
  /** Set during a batched run: each batch writes a lexical snapshot (a later open replays no batch). */
  private snapshotEachSave = false;
  /** The index as committed on disk (what a refused write leaves), null before the first save. */
  private saved: SavedIndex | null = null;
  /** This index's pin on the generation it reads (undefined: the folder cannot be written). */
  private lease: ReaderLease | undefined;
  /** The writer lock, held during a run. */
  private lock: HeldLock | undefined;

  private constructor(
    private readonly dir: string,
    private manifest: Manifest,
    private documents: Record<string, DocumentEntry>,
    lexical: LexicalIndex | string,
    /** Why the index on disk was not used as it was (rebuild reasons). */
    readonly openNotices: string[],
  ) {
    this.lexicalDelta = { add: new Set(manifest.lexicalDelta.add), remove: new Set(manifest.lexicalDelta.remove) };
    if (typeof lexical === 'string') this.lexicalFile = lexical;
    else this.lexicalLoaded = lexical;
    if (manifest.updatedAt && manifest.documents) this.noteSaved();
  }

  /** Records the index in memory as the one committed on disk (after open, and after each save). */
  private noteSaved(): void {
    this.saved = { documents: this.documentCount, passages: this.passageCount, savedAt: this.manifest.updatedAt };
  }

  /** A refused write: said in the report once, with what the folder keeps. */
  private refused(error: unknown, report: IndexReport): void {
    report.writeRefused ??= { code: (error as NodeJS.ErrnoException).code ?? 'EIO', kept: this.saved };
  }

  /**
   * The lexical index, read from its snapshot on first use (a run that changes nothing never
   * reads it), with the changes made since the snapshot replayed. A snapshot that fails its full
   * check here (its header was checked on open) is rebuilt from the stored passages.
   */
  private get lexical(): LexicalIndex {
    if (this.lexicalLoaded) return this.lexicalLoaded;
    const file = this.lexicalFile;
    this.lexicalFile = undefined;
    let lexical: LexicalIndex | undefined;
    if (file !== undefined) {
      try {
        lexical = loadLexical(readFileSync(path.join(this.dir, file)));
      } catch (error) {
        this.openNotices.push(`The lexical index was unreadable (${(error as Error).message}): rebuilding it from the stored passages.`);
      }
    }
    if (!lexical) {
      lexical = LexicalIndex.empty();
      lexical.add(this.allPassages());
      this.lexicalDelta = { add: new Set(), remove: new Set() };
      this.manifest.lexical = null;
      this.needsFullSave = true;
    } else if (this.lexicalDelta.add.size || this.lexicalDelta.remove.size) {
      lexical.remove(this.lexicalDelta.remove);
      const add = [...this.lexicalDelta.add].map((id) => this.passage(id)).filter((p): p is Passage => p !== undefined);
      lexical.add(add.filter((p) => !lexical!.has(p.id)));
    }
    this.lexicalLoaded = lexical;
    return lexical;
  }

  private set lexical(lexical: LexicalIndex) {
    this.lexicalLoaded = lexical;
    this.lexicalFile = undefined;
  }

  private get docOf(): Map<string, string> {
    if (!this.docOfMap) {
      this.docOfMap = new Map();
      for (const [docPath, entry] of Object.entries(this.documents)) {
        for (const id of entry.ids) this.docOfMap.set(id, docPath);
      }
    }
    return this.docOfMap;
  }

  /**
   * Opens the index in `dir` for `docsRoot`, rebuilding what is missing, corrupt or outdated. The
   * generation it reads is pinned first (a reader lease), so another process's run cannot remove
   * its files; nothing is removed on open (leftovers go in a run, under the writer lock).
   * `keepStrayFiles` is accepted for callers of before (open never removes anything now).
   */
  static async open(dir: string, docsRoot: string, options: { keepStrayFiles?: boolean; lease?: ReaderLease } = {}): Promise<PassageIndex> {
    const notices: string[] = [];
    await mkdir(dir, { recursive: true });
    let manifest = freshManifest(docsRoot);
    let documents: Record<string, DocumentEntry> = {};
    let lexical: LexicalIndex | string = LexicalIndex.empty();
    let rebuildLexical = false;
    let fullSave = false;

    const pinned = await pinManifest(dir, pinnedFiles, options.lease);
    const manifestText = pinned.text;
    if (manifestText !== undefined) {
      try {
        const parsed = JSON.parse(manifestText) as Manifest;
        if (parsed.formatVersion !== INDEX_FORMAT_VERSION) {
          notices.push(`The index was written in format ${String(parsed.formatVersion)}; this version uses ${INDEX_FORMAT_VERSION}: rebuilding it.`);
        } else if (parsed.docsRoot !== docsRoot) {
          notices.push(`The index belonged to ${parsed.docsRoot}: rebuilding it for ${docsRoot}.`);
        } else {
          const damaged = (await Promise.all([parsed.documents, ...parsed.passages].filter((r): r is FileRef => r !== null).map((r) => checkFile(dir, r)))).filter(Boolean);
          if (damaged.length) {
            // The vectors are still good (they are keyed by passage content): only the documents are re-read.
            notices.push(`The index is damaged (${damaged.join('; ')}): re-reading the documents.`);
            manifest = { ...freshManifest(docsRoot), generation: parsed.generation, embeddingModel: parsed.embeddingModel, dimensions: parsed.dimensions, vectors: parsed.vectors };
            fullSave = true;
          } else {
            manifest = parsed;
            documents = parsed.documents ? (JSON.parse(await readFile(path.join(dir, parsed.documents.name), 'utf8')) as Record<string, DocumentEntry>) : {};
            const lexicalDamage = parsed.lexical ? await checkFile(dir, parsed.lexical) : undefined;
            if (lexicalDamage) {
              notices.push(`The lexical index is damaged (${lexicalDamage}): rebuilding it from the stored passages.`);
              rebuildLexical = true;
            } else if (parsed.lexical) {
              try {
                // Only its header now; the rest on first use (see `lexical`).
                checkLexicalHeader(path.join(dir, parsed.lexical.name), parsed.lexical.bytes);
                lexical = parsed.lexical.name;
              } catch (error) {
                // Its own format check failed (another version of the lexical index): only it is rebuilt.
                notices.push(`The lexical index was unreadable (${(error as Error).message}): rebuilding it from the stored passages.`);
                rebuildLexical = true;
              }
            } else {
              rebuildLexical = Object.keys(documents).length > 0;
            }
          }
        }
      } catch (error) {
        notices.push(`The index was unreadable (${(error as Error).message}): rebuilding it.`);
        manifest = freshManifest(docsRoot);
        documents = {};
        lexical = LexicalIndex.empty();
        rebuildLexical = false;
      }
    }

    // Vector files: a cut-off or missing one is dropped; its passages are embedded again.
    const goodVectors: VectorFileRef[] = [];
    for (const ref of manifest.vectors) {
      const damage = (await checkFile(dir, { name: `${ref.stem}.f32`, bytes: ref.f32Bytes })) ?? (await checkFile(dir, { name: `${ref.stem}.ids`, bytes: ref.idsBytes }));
      if (damage) {
        notices.push(`A vector file is damaged (${damage}): its ${ref.rows - ref.dead.length} passages will be embedded again; the others are kept.`);
        fullSave = true;
      } else {
        goodVectors.push(ref);
      }
    }
    manifest = { ...manifest, vectors: goodVectors };
    // The vector search graph: a cut-off one is dropped (exact search), and rebuilt by the next run.
    if (manifest.ann) {
      const ann = manifest.ann;
      const damage = (await checkFile(dir, { name: `${ann.stem}.usearch`, bytes: ann.usearchBytes })) ?? (await checkFile(dir, { name: `${ann.stem}.ids`, bytes: ann.idsBytes }));
      if (damage) {
        notices.push(`The vector search index is damaged (${damage}): searching all vectors exactly until the next indexing run rebuilds it.`);
        manifest = { ...manifest, ann: null };
      }
    }

    const index = new PassageIndex(dir, manifest, documents, lexical, notices);
    index.lease = pinned.lease;
    index.needsFullSave = fullSave;
    if (rebuildLexical) {
      index.lexical = LexicalIndex.empty();
      index.lexical.add(index.allPassages());
      index.lexicalDelta = { add: new Set(), remove: new Set() };
      index.manifest.lexical = null;
      index.needsFullSave = true;
    }
    return index;
  }

  get isIndexed(): boolean {
    return this.manifest.updatedAt !== '';
  }

  get documentCount(): number {
    return Object.keys(this.documents).length;
  }

  get passageCount(): number {
    if (this.docOfMap) return this.docOfMap.size;
    this.passageTotal ??= Object.values(this.documents).reduce((n, e) => n + e.ids.length, 0);
    return this.passageTotal;
  }

  /** Docs-relative paths of the documents that hold passages (from the document table, no passage read). */
  sources(): string[] {
    return Object.entries(this.documents).filter(([, e]) => e.ids.length > 0).map(([p]) => p);
  }

  get embeddingModel(): string | null {
    return this.manifest.embeddingModel;
  }

  passage(id: string): Passage | undefined {
    const doc = this.docOf.get(id);
    if (doc === undefined) return undefined;
    return this.documentPassages(doc).find((p) => p.id === id);
  }

  allPassages(): Passage[] {
    const out: Passage[] = [];
    const segments = new Map<string, Buffer>();
    for (const [docPath, entry] of Object.entries(this.documents)) {
      const unsaved = this.unsaved.get(docPath);
      if (unsaved) {
        out.push(...unsaved);
        continue;
      }
      let bytes = segments.get(entry.segment);
      if (!bytes) {
        bytes = readFileSync(path.join(this.dir, entry.segment));
        segments.set(entry.segment, bytes);
      }
      out.push(...(JSON.parse(bytes.toString('utf8', entry.offset, entry.offset + entry.length)) as Passage[]));
    }
    return out;
  }

  /** How informative each term is over all passages (read from the index, not recomputed). */
  termStats(): TermStats {
    return this.loadTermCounts().stats();
  }

  /** The term counts themselves, as JSON (the index worker sends them to the host). */
  termCountsJSON(): string {
    return this.loadTermCounts().toJSON();
  }

  lexicalQuery(text: string, limit: number) {
    return this.lexical.query(text, limit);
  }

  async vectorQuery(vector: Float32Array, limit: number) {
    const vectors = await this.loadVectors();
    if (!vectors) return [];
    await vectors.loadAnn().catch((error: Error) => this.annUnusable(error));
    return vectors.query(vector, limit);
  }

  /** Never a wrong answer: the search is exact, and the next indexing run rebuilds the graph. */
  private annUnusable(error: Error): void {
    const ann = this.manifest.ann;
    if (!ann) return;
    logAnn(`The vector search index ${ann.stem} is unusable (${error.message}): searching all vectors exactly until the next indexing run rebuilds it.`);
    this.manifest = { ...this.manifest, ann: null };
  }

  /**
   * Removes everything: the next run indexes from scratch. Under the writer lock, as a new (empty)
   * generation: another process reading the index keeps the files of the one it has.
   */
  async clear(): Promise<void> {
    await this.locked({ whenBusy: 'wait' }, async () => {
      const gen = this.manifest.generation + 1;
      this.manifest = { ...freshManifest(this.manifest.docsRoot), generation: gen };
      this.documents = {};
      this.lexical = LexicalIndex.empty();
      this.lexicalDelta = { add: new Set(), remove: new Set() };
      this.vectors = undefined;
      this.vectorsLoading = undefined;
      this.needsFullSave = false;
      this.termCounts = undefined;
      this.termsDirty = false;
      this.cache.clear();
      this.unsaved.clear();
      this.saved = null;
      this.reindexPassages();
      await this.lock?.check();
      await writeFileAtomic(this.dir, MANIFEST_FILE, JSON.stringify(this.manifest));
      await this.afterCommit();
      return undefined;
    });
  }

  /** Releases this index's pin on its generation (its files may go once no reader holds them). */
  async close(): Promise<void> {
    await this.lease?.release();
    this.lease = undefined;
  }

  /**
   * Runs `work` under the writer lock, after catching up with what another process committed and
   * removing leftovers. Another live writer: waits for it (answers meanwhile come from the index
   * it committed), or with `whenBusy: 'answer'` catches up and returns `busy`. A folder that
   * refuses writes has no lock to take (nobody can commit there): `work` runs as it is.
   */
  private async locked<T>(options: Pick<IndexRunOptions, 'whenBusy' | 'onWaiting' | 'signal' | 'onLexicalReady'>, work: () => Promise<T>): Promise<{ done: T } | { busy: LockHolder | undefined }> {
    const attempt = await acquireIndexLock(this.dir, {
      wait: options.whenBusy !== 'answer',
      signal: options.signal,
      onWait: async (holder) => {
        options.onWaiting?.(holder);
        // While waiting, answers come from what the other writer has committed.
        await this.catchUp().catch(() => undefined);
        if (this.isIndexed) options.onLexicalReady?.();
      },
    });
    if (attempt.kind === 'busy') {
      await this.catchUp();
      return { busy: attempt.holder };
    }
    if (attempt.kind === 'unlockable') return { done: await work() };
    try {
      await this.catchUp();
      this.lock = attempt;
      await this.removeLeftovers();
      return { done: await work() };
    } finally {
      this.lock = undefined;
      await attempt.release();
    }
  }

  /**
   * Reopens at the generation on disk when another process committed since this one was read
   * (same pin, moved). Notices of the reopening join the next report.
   */
  private async catchUp(): Promise<void> {
    const text = await readFile(path.join(this.dir, MANIFEST_FILE), 'utf8').catch(() => undefined);
    const onDisk = pinnedFiles(text);
    if (onDisk.generation === this.manifest.generation && onDisk.updatedAt === this.manifest.updatedAt) return;
    if (text === undefined && !this.isIndexed) return;
    const fresh = await PassageIndex.open(this.dir, this.manifest.docsRoot, { lease: this.lease });
    const notices = this.openNotices;
    Object.assign(this, fresh);
    (this as { openNotices: string[] }).openNotices = notices;
    notices.push(...fresh.openNotices);
  }

  /** Files of crashed runs and of generations no reader holds any more (under the writer lock). */
  private async removeLeftovers(): Promise<void> {
    const keep = referencedFiles(this.manifest);
    for (const name of await leasedFiles(this.dir)) keep.add(name);
    await removeStrayFiles(this.dir, keep, { legacy: this.manifest.updatedAt !== '' });
  }

  /** After a commit: this index's pin moves to the new generation, then older files no reader holds go. */
  private async afterCommit(): Promise<void> {
    await this.lease?.move(this.manifest.generation, referencedFiles(this.manifest));
    await this.removeLeftovers();
  }

  /**
   * One indexing run, in two commits. First the lexical part: list the documents, read the changed
   * ones, chunk them into passages and write them with the lexical index (and the removal of the
   * vectors of passages that are gone): from then on answers work, by words. Then the vectors:
   * passages without one are embedded and committed in chunks (every COMMIT_PASSAGES passages or
   * COMMIT_MS), so a run killed at any point resumes where its last commit ended, and a cancelled
   * run keeps what it embedded. Nothing is written before the first commit. The run holds the
   * writer lock (see `locked`); the report says `busy` when another process held it and the run
   * was asked not to wait.
   */
  async update(docs: DocSource, options: IndexRunOptions = {}): Promise<IndexReport> {
    const started = Date.now();
    let lexicalSaid = false;
    const onLexicalReady = () => {
      if (!lexicalSaid) options.onLexicalReady?.();
      lexicalSaid = true;
    };
    const notices = this.openNotices.length;
    const outcome = await this.locked({ ...options, onLexicalReady }, () => this.run(docs, { ...options, onLexicalReady }));
    if ('done' in outcome) {
      outcome.done.notices.unshift(...this.openNotices.slice(notices));
      return outcome.done;
    }
    const holder = outcome.busy;
    return {
      documents: this.documentCount, passages: this.passageCount, added: 0, updated: 0, removed: 0, unchanged: 0, embedded: 0,
      skipped: [], retrieval: options.embedder || options.lazyEmbedder ? 'hybrid' : 'lexical', ms: Date.now() - started,
      notices: [...this.openNotices.slice(notices), `Another Evident process${holder ? ` (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : ''} is updating this index: answering from the index as it last saved it.`],
      busy: holder ? { pid: holder.pid, host: holder.host, since: holder.since } : null,
    };
  }

  /** One run (see `update`), under the writer lock. */
  private async run(docs: DocSource, options: IndexRunOptions): Promise<IndexReport> {
    const started = Date.now();
    const { signal, embedder } = options;
    const report: IndexReport = {
      documents: 0, passages: 0, added: 0, updated: 0, removed: 0, unchanged: 0, embedded: 0,
      skipped: [], retrieval: embedder ? 'hybrid' : 'lexical', notices: [], ms: 0,
    };

    const { files, removedPaths } = await this.listDocuments(docs, report, options);
    const batches = readBatches(files, (f) => !this.documents[f.path] || !sameStamp(this.documents[f.path], f), options.readBatchBytes ?? READ_BATCH_BYTES);
    let changed = new Map<string, ChangedDocument>();
    let touched = new Map<string, Stamp>();
    let change: PassageChange;
    let removed = removedPaths;
    let lexicalChange = false;
    if (batches.length > 1) {
      // A large run (a first index): the lexical part is committed batch by batch, so the passages
      // of the whole corpus are never held at once; the vectors are planned from what is committed.
      ({ removed: report.removed, lexicalChange } = await this.commitInBatches(docs, batches, removedPaths, files.length, report, options));
      removed = [];
      change = { oldIds: new Set(), newPassages: [], newIds: new Set() };
    } else {
      ({ changed, touched } = await this.readAndChunkChanged(docs, files, removedPaths, report, options));
      change = this.passageChange(changed, removedPaths);
      lexicalChange = changed.size > 0 || removedPaths.length > 0 || touched.size > 0;
      report.removed = removedPaths.length;
    }
    if (!embedder && options.lazyEmbedder) {
      const upToDate = !lexicalChange && !this.needsFullSave
        && this.manifest.embeddingModel === options.lazyEmbedder.modelId && this.vectorRows() === this.passageCount;
      const loaded = upToDate ? undefined : await options.lazyEmbedder.load();
      report.retrieval = upToDate || loaded ? 'hybrid' : 'lexical';
      options = { ...options, embedder: loaded };
    }
    const { embedded, toEmbed } = await this.planEmbedding(changed, touched, removed, change, report, options);
    signal?.throwIfAborted();
    await this.write({ changed, touched, removedPaths: removed, change, embedded }, report, options);
    if (embedded.vectors && this.vectors !== embedded.vectors) {
      // Nothing was written (no change), but the run fills a fresh store.
      this.vectors = embedded.vectors;
      this.vectorsLoading = Promise.resolve(embedded.vectors);
    }
    report.documents = this.documentCount;
    report.passages = this.passageCount;
    options.onLexicalReady?.();
    await this.fillVectors(toEmbed, report, options);

    report.ms = Date.now() - started;
    return report;
  }

  /**
   * Phases 2–5 of a large run, batch by batch: each batch is read, chunked and committed (with a
   * lexical snapshot, so that a later open replays no batch). Returns how many indexed documents
   * went, and whether anything changed.
   */
  private async commitInBatches(
    docs: DocSource,
    batches: DocFile[][],
    removedPaths: string[],
    total: number,
    report: IndexReport,
    options: IndexRunOptions,
  ): Promise<{ removed: number; lexicalChange: boolean }> {
    let done = 0;
    let removed = 0;
    let lexicalChange = false;
    this.snapshotEachSave = true;
    try {
      for (const [i, batch] of batches.entries()) {
        const batchRemoved = i === 0 ? [...removedPaths] : [];
        const read = await this.readAndChunkChanged(docs, batch, batchRemoved, report, options, { done, total });
        done += batch.length;
        removed += batchRemoved.length;
        lexicalChange ||= read.changed.size > 0 || read.touched.size > 0 || batchRemoved.length > 0;
        const change = this.passageChange(read.changed, batchRemoved);
        // A batch's save is part of reading the corpus: progress says so (a "saving" phase would
        // read as the end of the reading, and progress never goes back).
        const at = done;
        const onProgress = (p: IndexProgress) => options.onProgress?.(p.phase === 'saving' ? { phase: 'reading', done: at, total } : p);
        await this.write({ ...read, removedPaths: batchRemoved, change, embedded: this.unchangedVectors() }, report, { ...options, onProgress });
      }
    } finally {
      this.snapshotEachSave = false;
    }
    return { removed, lexicalChange };
  }

  /** The vector side of a lexical-only write: nothing changes there. */
  private unchangedVectors(): EmbeddedChange {
    return { vectors: undefined, vectorChange: { add: [], remove: [], reset: false }, embeddingModel: this.manifest.embeddingModel, dimensions: this.manifest.dimensions };
  }

  /** How many passages have a vector (committed or kept in memory), of all passages. */
  vectorFill(): VectorFill {
    const withVectors = this.vectors ? this.vectors.size : this.vectorRows();
    return { passagesWithVectors: Math.min(withVectors, this.passageCount), passages: this.passageCount };
  }

  /** Phase 1, list: the documents of this run, and the indexed ones that are gone. */
  private async listDocuments(docs: DocSource, report: IndexReport, options: IndexRunOptions): Promise<{ files: DocFile[]; removedPaths: string[] }> {
    options.onProgress?.({ phase: 'scanning', done: 0, total: 0 });
    // A folder that cannot be listed is reported like an unreadable file.
    const listed = await docs.list(options.signal, (folder) => report.skipped.push(folder));
    let files: DocFile[] = listed;
    let removedPaths: string[];
    if (options.paths) {
      const wanted = new Set(options.paths);
      files = listed.filter((f) => wanted.has(f.path));
      const present = new Set(files.map((f) => f.path));
      removedPaths = options.paths.filter((p) => !present.has(p) && this.documents[p]);
    } else {
      const present = new Set(listed.map((f) => f.path));
      removedPaths = Object.keys(this.documents).filter((p) => !present.has(p));
    }
    return { files, removedPaths };
  }

  /**
   * Phases 2 and 3, read and chunk, file by file: what changed becomes new document entries
   * (nothing is written yet). A file whose size, mtime, ctime and inode are unchanged is not
   * read; one whose content hash is unchanged keeps its passages (only its stamp is refreshed).
   * Unreadable, binary or undecodable files are skipped with a reason (and dropped from the index).
   */
  private async readAndChunkChanged(
    docs: DocSource,
    files: DocFile[],
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
      const known = this.documents[file.path];
      if (known && sameStamp(known, file)) {
        report.unchanged++;
        continue;
      }
      const text = await readDocumentText(docs, file);
      if (!text.ok) {
        report.skipped.push({ path: file.path, reason: text.reason });
        if (known) removedPaths.push(file.path);
        continue;
      }
      const passages = chunkMarkdown(file.path, text.text).passages;
      const version = passages[0]?.version ?? '';
      if (known && known.version === version && version) {
        touched.set(file.path, stampOf(file));
        report.unchanged++;
        continue;
      }
      if (known) report.updated++;
      else report.added++;
      changed.set(file.path, { stamp: stampOf(file), version, passages });
    }
    if (of.done + files.length === of.total) onProgress?.({ phase: 'reading', done: of.total, total: of.total });
    return { changed, touched };
  }

  /** The passage-level change: ids of the passages of changed or removed documents, and the new passages. */
  private passageChange(changed: Map<string, ChangedDocument>, removedPaths: string[]): PassageChange {
    const oldIds = new Set<string>();
    for (const p of [...changed.keys(), ...removedPaths]) {
      for (const id of this.documents[p]?.ids ?? []) oldIds.add(id);
    }
    const newPassages = [...changed.values()].flatMap((d) => d.passages);
    return { oldIds, newPassages, newIds: new Set(newPassages.map((p) => p.id)) };
  }

  /**
   * Phase 4, plan the vectors: which passages need one (new ones, and those of a cut-off vector
   * file or a killed run; all of them when the embedding model changed) and which vectors go
   * (their passages are gone). Nothing without an embedder (lexical-only run), and the vector
   * files are not even read when nothing changed and every passage has its vector.
   */
  private async planEmbedding(
    changed: Map<string, ChangedDocument>,
    touched: Map<string, Stamp>,
    removedPaths: string[],
    change: PassageChange,
    report: IndexReport,
    { embedder }: IndexRunOptions,
  ): Promise<{ embedded: EmbeddedChange; toEmbed: EmbedItem[] }> {
    let embeddingModel = this.manifest.embeddingModel;
    const none = this.unchangedVectors();
    if (!embedder) return { embedded: none, toEmbed: [] };
    const docChange = changed.size > 0 || removedPaths.length > 0 || touched.size > 0;
    const vectorsComplete = embeddingModel === embedder.modelId && this.manifest.dimensions === embedder.dimensions
      && this.vectorRows() === this.passageCount;
    // A missing graph (damaged, or the corpus grew past the threshold) is built by this run.
    const annMissing = !this.manifest.ann && annWanted(this.passageCount);
    if (vectorsComplete && !docChange && !this.needsFullSave && !annMissing) return { embedded: none, toEmbed: [] };

    let vectors = await this.loadVectors();
    let reset = false;
    if (embeddingModel !== embedder.modelId || !vectors || vectors.dimensions !== embedder.dimensions) {
      // Another model's vectors cannot be compared with this one's: re-embed everything.
      if (embeddingModel && embeddingModel !== embedder.modelId) report.notices.push(`Embedding model changed (${embeddingModel} → ${embedder.modelId}): re-embedding all passages.`);
      reset = true;
      vectors = new VectorStore(embedder.dimensions);
    }
    const store = vectors;
    const { oldIds, newIds, newPassages } = change;
    const remove = new Set<string>();
    for (const id of oldIds) if (!newIds.has(id)) remove.add(id);
    // Vectors of passages no document holds any more (left by a lexical-only run).
    for (const id of store.ids()) if (!newIds.has(id) && (!this.docOf.has(id) || oldIds.has(id))) remove.add(id);
    // Only what the embedder needs of each passage (ids and texts, not whole passages).
    const item = (p: Passage): EmbedItem => ({ id: p.id, text: embeddingText(p) });
    const toEmbed: EmbedItem[] = newPassages.filter((p) => !store.has(p.id)).map(item);
    // Passages of unchanged documents that have no vector (a new model, a cut-off vector file, a
    // killed run, a run that committed its lexical part in batches).
    const removedSet = new Set(removedPaths);
    for (const [docPath, entry] of Object.entries(this.documents)) {
      if (changed.has(docPath) || removedSet.has(docPath)) continue;
      if (entry.ids.some((id) => !store.has(id))) {
        for (const p of this.documentPassages(docPath, { keep: false })) if (!store.has(p.id)) toEmbed.push(item(p));
      }
    }
    // Batches of similar length: a batch is padded to its longest text, so mixed lengths waste
    // most of the model's work (about half of it on the handbook).
    toEmbed.sort((a, b) => a.text.length - b.text.length);
    embeddingModel = embedder.modelId;
    return { embedded: { vectors: store, vectorChange: { add: [], remove: [...remove], reset }, embeddingModel, dimensions: embedder.dimensions }, toEmbed };
  }

  /**
   * Phase 6, fill the vectors (the long, cancellable part): embed `toEmbed` in batches and commit
   * them in chunks. Cancelled or failed, it first commits what it embedded, then throws.
   */
  private async fillVectors(toEmbed: EmbedItem[], report: IndexReport, { signal, onProgress, embedder, commitEvery }: IndexRunOptions): Promise<void> {
    if (!embedder || toEmbed.length === 0) return;
    const everyPassages = commitEvery?.passages ?? COMMIT_PASSAGES;
    const everyMs = commitEvery?.ms ?? COMMIT_MS;
    let pending: { id: string; vector: Float32Array }[] = [];
    let lastCommit = Date.now();
    // Only the last commit of a fill builds the vector search graph: a graph built per chunk would
    // be rebuilt about twenty times during a first 50k index. Until then a search uses the graph on
    // disk (if any) plus an exact scan of the vectors added since: slower, never different.
    const commit = async (last: boolean): Promise<void> => {
      if (!pending.length) return;
      const items = pending;
      pending = [];
      const started = performance.now();
      await this.commitVectors(items, embedder.modelId, report, !last);
      const commits = (report.vectorCommits ??= { count: 0, ms: 0 });
      commits.count++;
      commits.ms += performance.now() - started;
      report.embedded += items.length;
      lastCommit = Date.now();
    };
    const progress = (done: number) => onProgress?.({ phase: 'embedding', done, total: toEmbed.length, vectors: this.vectorFill() });
    try {
      for (let i = 0; i < toEmbed.length; i += EMBED_BATCH) {
        signal?.throwIfAborted();
        progress(i);
        // A passage removed meanwhile is not embedded (watch runs go through the same queue, but be safe).
        const batch = toEmbed.slice(i, i + EMBED_BATCH).filter((p) => this.docOf.has(p.id));
        if (!batch.length) continue;
        const out = await embedder.embed(batch.map((p) => p.text), signal);
        batch.forEach((p, j) => pending.push({ id: p.id, vector: out[j] }));
        if (pending.length >= everyPassages || Date.now() - lastCommit >= everyMs) await commit(false);
      }
      await commit(true);
      progress(toEmbed.length);
    } catch (error) {
      // Keep what was embedded: a cancelled or failed run resumes from here next time.
      await commit(false).catch(() => undefined);
      throw error;
    }
  }

  /**
   * One chunk of vectors, committed: a new vector segment and the manifest (or the whole index
   * when the files on disk lag behind memory). A folder that refuses writes keeps them in memory.
   */
  private async commitVectors(items: { id: string; vector: Float32Array }[], embeddingModel: string, report: IndexReport, deferGraph: boolean): Promise<void> {
    const vectors = this.vectors;
    if (!vectors) return;
    vectors.add(items.filter((item) => this.docOf.has(item.id)));
    try {
      if (this.needsFullSave) {
        await this.save(new Map(), embeddingModel, vectors.dimensions);
        this.needsFullSave = false;
      } else {
        await this.saveVectors(embeddingModel, vectors.dimensions, deferGraph);
      }
    } catch (error) {
      if (!isWriteRefused(error)) throw error;
      this.needsFullSave = true;
      this.refused(error, report);
      const notice = `The index folder ${this.dir} cannot be written (${(error as NodeJS.ErrnoException).code}): the new vectors are kept in memory only and will be computed again next time.`;
      if (!report.notices.includes(notice)) report.notices.push(notice);
    }
  }

  /** Writes the vector segments not yet on disk, then the manifest: a commit of vectors only. */
  private async saveVectors(embeddingModel: string, dimensions: number, deferGraph: boolean): Promise<void> {
    const gen = this.manifest.generation + 1;
    const written: string[] = [];
    try {
      const { vectors, ann } = await this.writeVectorSegments(
        gen,
        async (name, content) => {
          written.push(name);
          return writeFileAtomic(this.dir, name, content);
        },
        written,
        deferGraph,
      );
      const manifest: Manifest = { ...this.manifest, updatedAt: new Date().toISOString(), generation: gen, embeddingModel, dimensions, vectors, ann };
      await this.lock?.check();
      await writeFileAtomic(this.dir, MANIFEST_FILE, JSON.stringify(manifest));
      this.manifest = manifest;
      this.vectors?.markSaved();
      if (this.saved) this.saved = { ...this.saved, savedAt: manifest.updatedAt };
    } catch (error) {
      for (const name of written) await rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
      throw error;
    }
    await this.afterCommit();
  }

  /** Writes the vector segments a save needs (new ones, or one compacted) and the search graph; returns their refs. */
  private async writeVectorSegments(
    gen: number,
    write: (name: string, content: string | Uint8Array) => Promise<FileRef>,
    written: string[],
    deferGraph = false,
  ): Promise<{ vectors: VectorFileRef[]; ann: Manifest['ann'] | null }> {
    // Not loaded in this run (nothing to change there): the segments stay as they are.
    let vectorRefs: VectorFileRef[] = this.manifest.vectors;
    let annRef = this.manifest.ann ?? null;
    if (this.vectors) {
      let n = 0;
      const plan = await this.vectors.planSave(() => `vectors-${gen}-${n++}`, `ann-${gen}`, { deferGraph });
      const bytes = new Map<string, { f32: number; ids: number }>();
      for (const seg of plan.write) {
        const f32 = await write(`${seg.stem}.f32`, new Uint8Array(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength));
        const ids = await write(`${seg.stem}.ids`, seg.ids.join('\n'));
        bytes.set(seg.stem, { f32: f32.bytes, ids: ids.bytes });
      }
      const previous = new Map(this.manifest.vectors.map((r) => [r.stem, r]));
      vectorRefs = plan.refs.map((r) => {
        const b = bytes.get(r.stem) ?? { f32: previous.get(r.stem)?.f32Bytes ?? 0, ids: previous.get(r.stem)?.idsBytes ?? 0 };
        return { ...r, f32Bytes: b.f32, idsBytes: b.ids };
      });
      // The vector search graph: a new one, the one on disk (with the ids replaced since), or none.
      if (plan.ann.kind === 'write') {
        const name = `${plan.ann.ref.stem}.usearch`;
        written.push(name);
        const graph = await plan.ann.snapshot.save(this.dir, name);
        const ids = await write(`${plan.ann.ref.stem}.ids`, plan.ann.snapshot.ids.join('\n'));
        annRef = { ...plan.ann.ref, usearchBytes: graph.bytes, usearchSha1: graph.sha1, idsBytes: ids.bytes };
      } else {
        annRef = plan.ann.kind === 'keep' && annRef?.stem === plan.ann.ref.stem ? { ...annRef, ...plan.ann.ref } : null;
      }
    }
    return { vectors: vectorRefs, ann: annRef };
  }


  /**
   * Phase 5, write: apply the run in memory (documents, lexical index, term counts, vectors),
   * then save only what changed; a run that changed nothing writes nothing. When the folder
   * refuses writes, the index in memory stays current and the report says so.
   */
  private async write(run: IndexRun, report: IndexReport, { onProgress }: IndexRunOptions): Promise<void> {
    const { changed, touched, removedPaths, change, embedded } = run;
    const { vectors, vectorChange, embeddingModel } = embedded;
    const docChange = changed.size > 0 || removedPaths.length > 0 || touched.size > 0;
    const vectorDirty = vectorChange.reset || vectorChange.add.length > 0 || vectorChange.remove.length > 0 || embeddingModel !== this.manifest.embeddingModel
      || vectors?.wantsAnn === true;
    // An index written before term counts were stored gets them once.
    const termsMissing = this.isIndexed && !this.manifest.terms;
    if (!docChange && !vectorDirty && !this.needsFullSave && this.isIndexed && !termsMissing) return;

    onProgress?.({ phase: 'saving', done: 0, total: 1 });
    const terms = this.loadTermCounts();
    for (const p of [...changed.keys(), ...removedPaths]) for (const passage of this.documentPassages(p)) terms.remove(termText(passage));
    for (const passage of change.newPassages) terms.add(termText(passage));
    this.termsDirty = true;
    const lexicalRemoved = [...change.oldIds];
    // A new snapshot will be written: the index is read now, before the documents change under it.
    const pendingDelta = this.lexicalDelta.add.size + this.lexicalDelta.remove.size + change.oldIds.size + change.newPassages.length;
    if (!this.manifest.lexical || this.needsFullSave || pendingDelta > this.lexicalDeltaLimit() || this.snapshotEachSave) void this.lexical;
    // Not loaded: the change is only listed (replayed when the snapshot is read, or written into a new one).
    if (this.lexicalLoaded) {
      this.lexical.remove(lexicalRemoved);
      this.lexical.add(change.newPassages.filter((p) => !this.lexical.has(p.id)));
    }
    for (const id of lexicalRemoved) {
      this.lexicalDelta.add.delete(id);
      this.lexicalDelta.remove.add(id);
    }
    for (const p of change.newPassages) this.lexicalDelta.add.add(p.id);
    if (vectors) {
      vectors.remove(vectorChange.remove);
      vectors.add(vectorChange.add);
      this.vectors = vectors;
      this.vectorsLoading = Promise.resolve(vectors);
    }
    const documents = { ...this.documents };
    for (const p of removedPaths) delete documents[p];
    for (const [p, stamp] of touched) documents[p] = { ...documents[p], ...stamp };
    for (const p of changed.keys()) delete documents[p];
    this.documents = documents;
    for (const p of [...changed.keys(), ...removedPaths]) {
      this.cache.delete(p);
      this.unsaved.delete(p);
    }
    this.reindexPassages();
    for (const [p, doc] of changed) for (const passage of doc.passages) this.docOf.set(passage.id, p);
    try {
      await this.save(changed, embeddingModel, embedded.dimensions);
      this.needsFullSave = false;
    } catch (error) {
      if (!isWriteRefused(error)) throw error;
      // The index in memory is current; the folder keeps the last index it could hold.
      this.needsFullSave = true;
      this.refused(error, report);
      this.manifest = { ...this.manifest, embeddingModel, updatedAt: this.manifest.updatedAt || new Date().toISOString() };
      for (const [p, doc] of changed) {
        this.documents[p] = { ...doc.stamp, version: doc.version, ids: doc.passages.map((x) => x.id), segment: '', offset: 0, length: 0 };
        this.unsaved.set(p, doc.passages);
      }
      report.notices.push(`The index folder ${this.dir} cannot be written (${(error as NodeJS.ErrnoException).code}): answering from the index in memory; the changes are not saved and will be indexed again next time.`);
    }
    onProgress?.({ phase: 'saving', done: 1, total: 1 });
  }

  /**
   * Writes this run's files (a passage segment for the changed documents, the document table, a
   * lexical snapshot when the delta is large, new vector segments), then the manifest.
   */
  private async save(changed: Map<string, ChangedDocument>, embeddingModel: string | null, dimensions: number | null): Promise<void> {
    const gen = this.manifest.generation + 1;
    const written: string[] = [];
    const write = async (name: string, content: string | Uint8Array | Iterable<string>): Promise<FileRef> => {
      written.push(name);
      return writeFileAtomic(this.dir, name, content);
    };
    try {
      // Passages: the changed documents in one new segment; everything in one when compacting.
      const segments = new Map(this.manifest.passages.map((r) => [r.name, r]));
      const liveBytes = new Map<string, number>();
      for (const e of Object.values(this.documents)) if (e.segment) liveBytes.set(e.segment, (liveBytes.get(e.segment) ?? 0) + e.length + 1);
      const totalBytes = [...segments.values()].reduce((n, r) => n + r.bytes, 0);
      const live = [...liveBytes.values()].reduce((n, b) => n + b, 0);
      const pendingDocs = Object.entries(this.documents).filter(([, e]) => !e.segment);
      const compact = this.needsFullSave || segments.size >= MAX_PASSAGE_SEGMENTS || (totalBytes > 0 && 1 - live / totalBytes > PASSAGE_DEAD_SHARE) || pendingDocs.length > 0;
      // Documents to write, each read as the file takes it (a compaction holds one at a time).
      const toWrite: string[] = compact ? Object.keys(this.documents) : [];
      toWrite.push(...changed.keys());
      const passagesOf = (p: string): Passage[] => changed.get(p)?.passages ?? this.documentPassages(p, { keep: false });
      const entries: Record<string, DocumentEntry> = compact ? {} : { ...this.documents };
      let passageRefs = compact ? [] : this.manifest.passages.filter((r) => liveBytes.has(r.name));
      if (toWrite.length) {
        const name = `passages-${gen}.jsonl`;
        // Lines gathered into parts of about a megabyte, each made as the file takes it: no one
        // string of the whole segment, nor all its parts at once (at 50k passages, ~50 MB).
        const documents = this.documents;
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
              ? { ...fromChange.stamp, version: fromChange.version, ids: passages.map((x) => x.id), segment: name, offset, length }
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
      const documentsRef = await write(`documents-${gen}.json`, JSON.stringify(entries));

      // Lexical: a new snapshot only when the changes since the last one are many.
      let lexicalRef = this.manifest.lexical;
      const delta = this.lexicalDelta.add.size + this.lexicalDelta.remove.size;
      if (!lexicalRef || this.needsFullSave || (this.lexicalLoaded && (delta > this.lexicalDeltaLimit() || (this.snapshotEachSave && delta > 0)))) {
        const snapshot = saveLexical(this.lexical);
        lexicalRef = await write(`lexical-${gen}.${LEXICAL_EXTENSION}`, snapshot);
        // From here the index in memory is the snapshot: views on one buffer instead of an object
        // per term and per passage (a third of the memory at 50k passages; same answers).
        this.lexical = loadLexical(snapshot);
        this.lexicalDelta = { add: new Set(), remove: new Set() };
      }

      let termsRef = this.manifest.terms ?? null;
      if (this.termCounts && (this.termsDirty || !termsRef)) termsRef = await write(`terms-${gen}.txt`, this.termCounts.serialize());

      // Vectors: new segments only (or one compacted segment), and the vector search graph.
      const { vectors: vectorRefs, ann: annRef } = await this.writeVectorSegments(gen, write, written);

      const manifest: Manifest = {
        formatVersion: INDEX_FORMAT_VERSION,
        docsRoot: this.manifest.docsRoot,
        updatedAt: new Date().toISOString(),
        embeddingModel,
        dimensions,
        generation: gen,
        documents: documentsRef,
        passages: passageRefs,
        lexical: lexicalRef,
        lexicalDelta: { add: [...this.lexicalDelta.add], remove: [...this.lexicalDelta.remove] },
        vectors: vectorRefs,
        ann: annRef,
        terms: termsRef,
      };
      await this.lock?.check();
      await writeFileAtomic(this.dir, MANIFEST_FILE, JSON.stringify(manifest));
      this.manifest = manifest;
      this.documents = entries;
      this.vectors?.markSaved();
      this.unsaved.clear();
      this.termsDirty = false;
      this.noteSaved();
    } catch (error) {
      // Nothing was committed: this run's files go, the previous generation stays whole.
      for (const name of written) await rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
      throw error;
    }
    for (const [p, doc] of changed) this.remember(p, doc.passages);
    await this.afterCommit();
  }

  /** Live vector rows the manifest lists. */
  private vectorRows(): number {
    return this.manifest.vectors.reduce((n, r) => n + r.rows - r.dead.length, 0);
  }

  /** A lexical snapshot is rewritten when the changes listed since the last one exceed this. */
  private lexicalDeltaLimit(): number {
    return Math.max(LEXICAL_DELTA_MIN, LEXICAL_DELTA_SHARE * this.passageCount);
  }

  private loadTermCounts(): TermCounts {
    if (this.termCounts) return this.termCounts;
    const ref = this.manifest.terms;
    if (ref && !this.needsFullSave) {
      try {
        const file = path.join(this.dir, ref.name);
        if (statSync(file).size === ref.bytes) this.termCounts = TermCounts.parse(readFileSync(file, 'utf8'));
      } catch {
        // missing or unreadable: recomputed below
      }
    }
    if (!this.termCounts) {
      this.termCounts = new TermCounts();
      for (const p of this.allPassages()) this.termCounts.add(termText(p));
      this.termsDirty = this.isIndexed;
    }
    return this.termCounts;
  }

  private async loadVectors(): Promise<VectorStore | undefined> {
    this.vectorsLoading ??= (async () => {
      const { dimensions, vectors: refs } = this.manifest;
      if (!dimensions || !this.manifest.embeddingModel) return undefined;
      const store = new VectorStore(dimensions);
      for (const ref of refs) {
        const f32 = await readFile(path.join(this.dir, `${ref.stem}.f32`));
        const ids = (await readFile(path.join(this.dir, `${ref.stem}.ids`), 'utf8')).split('\n');
        // A view when the bytes are 4-byte aligned (a whole-file read is), else one copy.
        const data = f32.byteOffset % 4 === 0
          ? new Float32Array(f32.buffer, f32.byteOffset, f32.byteLength / 4)
          : new Float32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.byteLength));
        store.addLoaded(ref, ref.rows === 0 ? [] : ids, data);
      }
      const ann = this.manifest.ann;
      const library = ann ? annLibrary() : undefined;
      if (ann && library) {
        // Its ids now (an indexing run needs only them); its graph at the first query.
        try {
          const ids = (await readFile(path.join(this.dir, `${ann.stem}.ids`), 'utf8')).split('\n');
          const file = path.join(this.dir, `${ann.stem}.usearch`);
          store.attachAnnFile(ann, ids, () => AnnSnapshot.load(library, file, dimensions, ids, ann.usearchSha1));
        } catch (error) {
          this.annUnusable(error as Error);
        }
      }
      this.vectors = store;
      return store;
    })();
    return this.vectorsLoading;
  }

  /** A document's passages; `keep: false` reads them without caching (a pass over every document). */
  private documentPassages(docPath: string, { keep = true }: { keep?: boolean } = {}): Passage[] {
    const cached = this.unsaved.get(docPath) ?? this.cache.get(docPath);
    if (cached) return cached;
    const entry = this.documents[docPath];
    if (!entry?.segment) return [];
    const passages = JSON.parse(readRange(path.join(this.dir, entry.segment), entry.offset, entry.length).toString('utf8')) as Passage[];
    if (keep) this.remember(docPath, passages);
    return passages;
  }

  /** Caches a document's passages; the cache holds at most PASSAGE_CACHE documents (oldest out). */
  private remember(docPath: string, passages: Passage[]): void {
    this.cache.delete(docPath);
    while (this.cache.size >= PASSAGE_CACHE) {
      const first = this.cache.keys().next().value;
      if (first === undefined) break;
      this.cache.delete(first);
    }
    this.cache.set(docPath, passages);
  }

  /** The document table changed: the id map and the count are rebuilt on next use. */
  private reindexPassages(): void {
    this.docOfMap = undefined;
    this.passageTotal = undefined;
  }
}

type Stamp = Pick<DocumentEntry, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>;

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

function stampOf(file: DocFile): Stamp {
  return { size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, ino: file.ino };
}

/** Unchanged when size, mtime, ctime and inode all match (a restored mtime still moves the ctime). */
function sameStamp(known: Stamp, file: DocFile): boolean {
  return known.size === file.size && known.mtimeMs === file.mtimeMs && known.ctimeMs === file.ctimeMs && known.ino === file.ino;
}

/** The generation a manifest's text commits and the files it names (none for a missing or unreadable one). */
function pinnedFiles(text: string | undefined): { generation: number; updatedAt: string; files: Set<string> } {
  if (text === undefined) return { generation: -1, updatedAt: '', files: new Set() };
  try {
    const manifest = JSON.parse(text) as Manifest;
    return { generation: manifest.generation, updatedAt: manifest.updatedAt, files: referencedFiles(manifest) };
  } catch {
    return { generation: -1, updatedAt: '', files: new Set() };
  }
}

function referencedFiles(manifest: Manifest): Set<string> {
  const names = new Set<string>();
  if (manifest.documents) names.add(manifest.documents.name);
  for (const r of manifest.passages ?? []) names.add(r.name);
  if (manifest.lexical) names.add(manifest.lexical.name);
  if (manifest.terms) names.add(manifest.terms.name);
  for (const v of manifest.vectors ?? []) {
    names.add(`${v.stem}.f32`);
    names.add(`${v.stem}.ids`);
  }
  if (manifest.ann) {
    names.add(`${manifest.ann.stem}.usearch`);
    names.add(`${manifest.ann.stem}.ids`);
  }
  return names;
}

// The lexical index through its narrow interface only (its format is its own business).
const LEXICAL_EXTENSION = 'bin';
function loadLexical(bytes: Uint8Array): LexicalIndex {
  return LexicalIndex.load(bytes);
}
function checkLexicalHeader(file: string, bytes: number): void {
  LexicalIndex.checkHeader(readRange(file, 0, Math.min(32, bytes)), bytes);
}
function saveLexical(lexical: LexicalIndex): Uint8Array {
  return lexical.serialize();
}

/** What the term statistics count of a passage. */
export function termText(p: Passage): string {
  return `${p.heading}\n${p.text}`;
}

/** What the embedder sees of a passage: its heading path gives the text its topic. */
export function embeddingText(p: Passage): string {
  return p.heading ? `${p.heading}\n${p.text}` : p.text;
}
