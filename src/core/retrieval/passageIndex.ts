// The index of a docs folder on disk: a manifest (format version, documents with their content
// hash and passages), the lexical index and the vector store. Indexing is incremental: documents
// with an unchanged hash are not re-read into passages, passages whose id is already embedded are
// not re-embedded, deleted documents are removed, and each run ends in one write per file.
// A corrupt or outdated index is rebuilt, with a notice saying why.

import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { chunkMarkdown } from '../docs/chunker';
import { decodeDocument, type DocFile, type DocSource } from '../docs/docSource';
import type { Passage, RetrievalMode } from '../../domain/types';
import type { Embedder } from '../types';
import { LexicalIndex } from './lexicalIndex';
import { VectorStore } from './vectorStore';

/** Bump when the manifest layout or the chunker's output changes: old indexes are rebuilt. */
export const INDEX_FORMAT_VERSION = 4;

interface DocumentEntry {
  version: string;
  size: number;
  mtimeMs: number;
  passages: Passage[];
}

interface Manifest {
  formatVersion: number;
  docsRoot: string;
  updatedAt: string;
  embeddingModel: string | null;
  documents: Record<string, DocumentEntry>;
}

export interface IndexProgress {
  phase: 'scanning' | 'reading' | 'embedding' | 'saving';
  done: number;
  total: number;
  file?: string;
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
}

export interface IndexRunOptions {
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /** Only these docs-relative paths (a watcher's changes); others are left as they are. */
  paths?: string[];
  /** The embedder, or undefined for a lexical-only run. */
  embedder?: Embedder;
}

interface PassageChange {
  /** Passages of changed or removed documents (to take out of the indexes). */
  oldIds: Set<string>;
  /** Passages of changed documents (to put in). */
  newPassages: Passage[];
}

interface VectorChange {
  add: { id: string; vector: Float32Array }[];
  remove: string[];
}

interface EmbeddedChange {
  vectorChange: VectorChange;
  /** The model the vectors now come from (unchanged on a lexical-only run). */
  embeddingModel: string | null;
}

/** Everything one run decided, applied by the write phase. */
interface IndexRun {
  changed: Map<string, DocumentEntry>;
  touched: Map<string, { size: number; mtimeMs: number }>;
  removedPaths: string[];
  change: PassageChange;
  embedded: EmbeddedChange;
}

export class PassageIndex {
  private passagesById = new Map<string, Passage>();

  private constructor(
    private readonly dir: string,
    private manifest: Manifest,
    private lexical: LexicalIndex,
    private vectors: VectorStore | undefined,
    /** Why the index on disk was not used as it was (rebuild reasons). */
    readonly openNotices: string[],
  ) {
    this.reindexPassages();
  }

  /** Opens the index in `dir` for `docsRoot`, rebuilding what is missing, corrupt or outdated. */
  static async open(dir: string, docsRoot: string): Promise<PassageIndex> {
    const notices: string[] = [];
    await mkdir(dir, { recursive: true });
    const fresh = (): Manifest => ({ formatVersion: INDEX_FORMAT_VERSION, docsRoot, updatedAt: '', embeddingModel: null, documents: {} });

    let manifest = fresh();
    let lexical = LexicalIndex.empty();
    const manifestText = await readFile(path.join(dir, 'manifest.json'), 'utf8').catch(() => undefined);
    if (manifestText !== undefined) {
      try {
        const parsed = JSON.parse(manifestText) as Manifest;
        if (parsed.formatVersion !== INDEX_FORMAT_VERSION) {
          notices.push(`The index was written in format ${String(parsed.formatVersion)}; this version uses ${INDEX_FORMAT_VERSION}: rebuilding it.`);
        } else if (parsed.docsRoot !== docsRoot) {
          notices.push(`The index belonged to ${parsed.docsRoot}: rebuilding it for ${docsRoot}.`);
        } else {
          manifest = parsed;
          lexical = LexicalIndex.load(await readFile(path.join(dir, 'lexical.bin')));
        }
      } catch (error) {
        notices.push(`The index was unreadable (${(error as Error).message}): rebuilding it.`);
        manifest = fresh();
        lexical = LexicalIndex.empty();
      }
    }
    if (manifest.updatedAt === '') {
      await rm(path.join(dir, 'vectors'), { recursive: true, force: true });
      await rm(path.join(dir, 'lexical.json'), { force: true }); // the lexical index of format 3 and before
    }

    let vectors: VectorStore | undefined;
    try {
      vectors = await VectorStore.open(path.join(dir, 'vectors'));
    } catch (error) {
      notices.push(`The vector index was unreadable (${(error as Error).message}): its vectors will be rebuilt.`);
      await rm(path.join(dir, 'vectors'), { recursive: true, force: true });
      manifest.embeddingModel = null;
      vectors = await VectorStore.open(path.join(dir, 'vectors'));
    }
    return new PassageIndex(dir, manifest, lexical, vectors, notices);
  }

  get isIndexed(): boolean {
    return this.manifest.updatedAt !== '';
  }

  get documentCount(): number {
    return Object.keys(this.manifest.documents).length;
  }

  get passageCount(): number {
    return this.passagesById.size;
  }

  get embeddingModel(): string | null {
    return this.manifest.embeddingModel;
  }

  passage(id: string): Passage | undefined {
    return this.passagesById.get(id);
  }

  allPassages(): Passage[] {
    return [...this.passagesById.values()];
  }

  lexicalQuery(text: string, limit: number) {
    return this.lexical.query(text, limit);
  }

  async vectorQuery(vector: Float32Array, limit: number) {
    return this.vectors ? this.vectors.query(vector, limit) : [];
  }

  /** Removes everything: the next run indexes from scratch. */
  async clear(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true });
    this.manifest = { ...this.manifest, updatedAt: '', embeddingModel: null, documents: {} };
    this.lexical = LexicalIndex.empty();
    this.vectors = await VectorStore.open(path.join(this.dir, 'vectors'));
    this.reindexPassages();
  }

  /**
   * One indexing run, in five phases: list the documents, read the changed ones, chunk them into
   * passages, embed the passages that have no vector yet, and write the index. Nothing is written
   * before the last phase, so a cancelled run leaves the index as it was.
   */
  async update(docs: DocSource, options: IndexRunOptions = {}): Promise<IndexReport> {
    const started = Date.now();
    const { signal, embedder } = options;
    const report: IndexReport = {
      documents: 0, passages: 0, added: 0, updated: 0, removed: 0, unchanged: 0, embedded: 0,
      skipped: [], retrieval: embedder ? 'hybrid' : 'lexical', notices: [], ms: 0,
    };

    const { files, removedPaths } = await this.listDocuments(docs, options);
    const { changed, touched } = await this.readAndChunkChanged(docs, files, removedPaths, report, options);
    const change = this.passageChange(changed, removedPaths);
    const embedded = await this.embedNewPassages(change, report, options);
    signal?.throwIfAborted();
    await this.write({ changed, touched, removedPaths, change, embedded }, options);

    report.removed = removedPaths.length;
    report.documents = this.documentCount;
    report.passages = this.passageCount;
    report.ms = Date.now() - started;
    return report;
  }

  /** Phase 1, list: the documents of this run, and the indexed ones that are gone. */
  private async listDocuments(docs: DocSource, options: IndexRunOptions): Promise<{ files: DocFile[]; removedPaths: string[] }> {
    options.onProgress?.({ phase: 'scanning', done: 0, total: 0 });
    const listed = await docs.list(options.signal);
    let files: DocFile[] = listed;
    let removedPaths: string[];
    if (options.paths) {
      const wanted = new Set(options.paths);
      files = listed.filter((f) => wanted.has(f.path));
      const present = new Set(files.map((f) => f.path));
      removedPaths = options.paths.filter((p) => !present.has(p) && this.manifest.documents[p]);
    } else {
      const present = new Set(listed.map((f) => f.path));
      removedPaths = Object.keys(this.manifest.documents).filter((p) => !present.has(p));
    }
    return { files, removedPaths };
  }

  /**
   * Phases 2 and 3, read and chunk, file by file: what changed becomes new document entries
   * (nothing is written yet). A file whose size and mtime are unchanged is not read; one whose
   * content hash is unchanged keeps its passages (only its stamp is refreshed). Unreadable,
   * binary or undecodable files are skipped with a reason (and dropped from the index).
   */
  private async readAndChunkChanged(
    docs: DocSource,
    files: DocFile[],
    removedPaths: string[],
    report: IndexReport,
    { signal, onProgress }: IndexRunOptions,
  ): Promise<{ changed: Map<string, DocumentEntry>; touched: Map<string, { size: number; mtimeMs: number }> }> {
    const changed = new Map<string, DocumentEntry>();
    const touched = new Map<string, { size: number; mtimeMs: number }>();
    for (let i = 0; i < files.length; i++) {
      signal?.throwIfAborted();
      const file = files[i];
      onProgress?.({ phase: 'reading', done: i, total: files.length, file: file.path });
      const known = this.manifest.documents[file.path];
      if (known && known.size === file.size && known.mtimeMs === file.mtimeMs) {
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
      if (known && known.passages[0]?.version === version && version) {
        touched.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
        report.unchanged++;
        continue;
      }
      if (known) report.updated++;
      else report.added++;
      changed.set(file.path, { version, size: file.size, mtimeMs: file.mtimeMs, passages });
    }
    onProgress?.({ phase: 'reading', done: files.length, total: files.length });
    return { changed, touched };
  }

  /** The passage-level change: ids of the passages of changed or removed documents, and the new passages. */
  private passageChange(changed: Map<string, DocumentEntry>, removedPaths: string[]): PassageChange {
    const oldIds = new Set<string>();
    for (const p of [...changed.keys(), ...removedPaths]) {
      for (const passage of this.manifest.documents[p]?.passages ?? []) oldIds.add(passage.id);
    }
    return { oldIds, newPassages: [...changed.values()].flatMap((d) => d.passages) };
  }

  /**
   * Phase 4, embed (the long, cancellable part): passages whose id has no vector yet; all of
   * them when the embedding model changed. Nothing without an embedder (lexical-only run).
   */
  private async embedNewPassages(change: PassageChange, report: IndexReport, { signal, onProgress, embedder }: IndexRunOptions): Promise<EmbeddedChange> {
    let vectorChange: VectorChange = { add: [], remove: [] };
    let embeddingModel = this.manifest.embeddingModel;
    if (embedder && this.vectors) {
      let existing = await this.vectors.ids();
      const remove = new Set<string>();
      if (embeddingModel !== embedder.modelId) {
        // Another model's vectors cannot be compared with this one's: re-embed everything.
        if (embeddingModel) report.notices.push(`Embedding model changed (${embeddingModel} → ${embedder.modelId}): re-embedding all passages.`);
        existing.forEach((id) => remove.add(id));
        existing = new Set();
      }
      const byId = new Map(this.passagesById);
      for (const id of change.oldIds) byId.delete(id);
      for (const p of change.newPassages) byId.set(p.id, p);
      for (const id of existing) if (!byId.has(id)) remove.add(id);
      const toEmbed = [...byId.values()].filter((p) => !existing.has(p.id));
      const add: { id: string; vector: Float32Array }[] = [];
      const BATCH = 32;
      for (let i = 0; i < toEmbed.length; i += BATCH) {
        signal?.throwIfAborted();
        onProgress?.({ phase: 'embedding', done: i, total: toEmbed.length });
        const batch = toEmbed.slice(i, i + BATCH);
        const vectors = await embedder.embed(batch.map(embeddingText), signal);
        batch.forEach((p, j) => add.push({ id: p.id, vector: vectors[j] }));
      }
      onProgress?.({ phase: 'embedding', done: toEmbed.length, total: toEmbed.length });
      vectorChange = { add, remove: [...remove] };
      embeddingModel = embedder.modelId;
      report.embedded = add.length;
    }
    return { vectorChange, embeddingModel };
  }

  /** Phase 5, write: apply the run to the manifest, the lexical index and the vectors, one write per file. */
  private async write(run: IndexRun, { onProgress }: IndexRunOptions): Promise<void> {
    const { changed, touched, removedPaths, change, embedded } = run;
    onProgress?.({ phase: 'saving', done: 0, total: 1 });
    const documents = { ...this.manifest.documents };
    for (const p of removedPaths) delete documents[p];
    for (const [p, entry] of changed) documents[p] = entry;
    for (const [p, stamp] of touched) documents[p] = { ...documents[p], ...stamp };
    this.lexical.remove(change.oldIds);
    this.lexical.add(change.newPassages.filter((p) => !this.lexical.has(p.id)));
    const { vectorChange } = embedded;
    if (this.vectors && (vectorChange.add.length || vectorChange.remove.length)) await this.vectors.apply(vectorChange);
    this.manifest = {
      formatVersion: INDEX_FORMAT_VERSION,
      docsRoot: this.manifest.docsRoot,
      updatedAt: new Date().toISOString(),
      embeddingModel: embedded.embeddingModel,
      documents,
    };
    await writeAtomic(path.join(this.dir, 'lexical.bin'), this.lexical.serialize());
    await writeAtomic(path.join(this.dir, 'manifest.json'), JSON.stringify(this.manifest));
    this.reindexPassages();
    onProgress?.({ phase: 'saving', done: 1, total: 1 });
  }

  private reindexPassages(): void {
    this.passagesById = new Map();
    for (const entry of Object.values(this.manifest.documents)) {
      for (const p of entry.passages) this.passagesById.set(p.id, p);
    }
  }
}

/** Phase 2 for one file: its text, or why it cannot be indexed (unreadable, binary, not UTF-8). */
async function readDocumentText(docs: DocSource, file: DocFile): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await docs.read(file);
  } catch (error) {
    return { ok: false, reason: `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  return decodeDocument(bytes);
}

/** What the embedder sees of a passage: its heading path gives the text its topic. */
export function embeddingText(p: Passage): string {
  return p.heading ? `${p.heading}\n${p.text}` : p.text;
}

async function writeAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, file);
}
