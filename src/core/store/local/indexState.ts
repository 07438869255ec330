// The local index in memory, its read side: the document table, the lexical index, the passage
// cache, the term counts and the vectors, each read from the folder on first use (a run that
// changes nothing reads none of them), and the queries answered from them. The write side is
// indexWriter.ts, runs are passageIndex.ts.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Passage } from '../../../domain/types';
import type { VectorFill } from '../../../domain/partialRetrieval';
import { notice, type Notice } from '../../../domain/notices';
import type { TermCounts, TermStats } from '../../text/termStats';
import type { IndexReport, SavedIndex } from '../../indexing/indexRun';
import type { LexicalIndex } from '../../retrieval/lexicalIndex';
import { logAnn } from '../../retrieval/annIndex';
import type { VectorStore } from '../../retrieval/vectorStore';
import type { HeldLock } from '../../retrieval/indexLock';
import type { ReaderLease } from '../../retrieval/readerLeases';
import { vectorRows, type DocumentEntry, type Manifest } from './manifest';
import { buildLexical, emptyDelta, loadLexical, type LexicalDelta } from './lexicalFiles';
import { PassageCache, readAllPassages, readDocumentPassages } from './passageSegments';
import { loadVectorFiles } from './vectorFiles';
import { countTerms, readTermCounts } from './termFiles';
import type { EmbeddedChange } from './vectorFill';

export class IndexState {
  /** Passage id → the document holding it: built on first use (`docOf`). */
  protected docOfMap: Map<string, string> | undefined;
  /** Passages in the document table, counted on first use. */
  protected passageTotal: number | undefined;
  /** The lexical index once loaded; until then `lexicalFile` says where it is (`lexical` loads it). */
  protected lexicalLoaded: LexicalIndex | undefined;
  protected lexicalFile: string | undefined;
  protected lexicalDelta: LexicalDelta;
  protected passageCache = new PassageCache();
  protected vectors: VectorStore | undefined;
  protected vectorsLoading: Promise<VectorStore | undefined> | undefined;
  /** Set when the in-memory index differs from the files in a way a partial save cannot express. */
  protected needsFullSave = false;
  protected termCounts: TermCounts | undefined;
  protected termsDirty = false;
  /** Set during a batched run: each batch writes a lexical snapshot (a later open replays no batch). */
  protected snapshotEachSave = false;
  /** The index as committed on disk (what a refused write leaves), null before the first save. */
  protected saved: SavedIndex | null = null;
  /** This index's pin on the generation it reads (undefined: the folder cannot be written). */
  protected lease: ReaderLease | undefined;
  /** The writer lock, held during a run. */
  protected lock: HeldLock | undefined;

  protected constructor(
    protected readonly dir: string,
    protected manifest: Manifest,
    protected documents: Record<string, DocumentEntry>,
    lexical: LexicalIndex | string,
    /** Why the index on disk was not used as it was (rebuild reasons). */
    readonly openNotices: Notice[],
  ) {
    this.lexicalDelta = { add: new Set(manifest.lexicalDelta.add), remove: new Set(manifest.lexicalDelta.remove) };
    if (typeof lexical === 'string') this.lexicalFile = lexical;
    else this.lexicalLoaded = lexical;
    if (manifest.updatedAt && manifest.documents) this.noteSaved();
  }

  /** Records the index in memory as the one committed on disk (after open, and after each save). */
  protected noteSaved(): void {
    this.saved = { documents: this.documentCount, passages: this.passageCount, savedAt: this.manifest.updatedAt };
  }

  /** A refused write: said in the report once, with what the folder keeps. */
  protected refused(error: unknown, report: IndexReport): void {
    report.writeRefused ??= { code: (error as NodeJS.ErrnoException).code ?? 'EIO', kept: this.saved };
  }

  /**
   * The lexical index, read from its snapshot on first use (a run that changes nothing never
   * reads it), with the changes made since the snapshot replayed. A snapshot that fails its full
   * check here (its header was checked on open) is rebuilt from the stored passages.
   */
  protected get lexical(): LexicalIndex {
    if (this.lexicalLoaded) return this.lexicalLoaded;
    const file = this.lexicalFile;
    this.lexicalFile = undefined;
    let lexical: LexicalIndex | undefined;
    if (file !== undefined) {
      try {
        lexical = loadLexical(readFileSync(path.join(this.dir, file)));
      } catch (error) {
        this.openNotices.push(
          notice(
            'lexical-index-damaged',
            `The lexical index was unreadable (${(error as Error).message}): rebuilding it from the stored passages.`,
          ),
        );
      }
    }
    if (!lexical) {
      lexical = this.rebuildLexical();
    } else if (this.lexicalDelta.add.size || this.lexicalDelta.remove.size) {
      const loaded = lexical;
      loaded.remove(this.lexicalDelta.remove);
      const add = [...this.lexicalDelta.add].map((id) => this.passage(id)).filter((p): p is Passage => p !== undefined);
      loaded.add(add.filter((p) => !loaded.has(p.id)));
    }
    this.lexicalLoaded = lexical;
    return lexical;
  }

  protected set lexical(lexical: LexicalIndex) {
    this.lexicalLoaded = lexical;
    this.lexicalFile = undefined;
  }

  /** The lexical index built again from the stored passages; the next save writes everything. */
  protected rebuildLexical(): LexicalIndex {
    const lexical = buildLexical(this.allPassages());
    this.lexicalDelta = emptyDelta();
    this.manifest.lexical = null;
    this.needsFullSave = true;
    return lexical;
  }

  protected get docOf(): Map<string, string> {
    if (!this.docOfMap) {
      this.docOfMap = new Map();
      for (const [docPath, entry] of Object.entries(this.documents)) {
        for (const id of entry.ids) this.docOfMap.set(id, docPath);
      }
    }
    return this.docOfMap;
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
    return Object.entries(this.documents)
      .filter(([, e]) => e.ids.length > 0)
      .map(([p]) => p);
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
    return readAllPassages(this.dir, this.documents, this.passageCache);
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
  protected annUnusable(error: Error): void {
    const ann = this.manifest.ann;
    if (!ann) return;
    logAnn(
      `The vector search index ${ann.stem} is unusable (${error.message}): searching all vectors exactly until the next indexing run rebuilds it.`,
    );
    this.manifest = { ...this.manifest, ann: null };
  }

  /** How many passages have a vector (committed or kept in memory), of all passages. */
  vectorFill(): VectorFill {
    const withVectors = this.vectors ? this.vectors.size : vectorRows(this.manifest);
    return { passagesWithVectors: Math.min(withVectors, this.passageCount), passages: this.passageCount };
  }

  /** The vector side of a lexical-only write: nothing changes there. */
  protected unchangedVectors(): EmbeddedChange {
    return {
      vectors: undefined,
      vectorChange: { add: [], remove: [], reset: false },
      embeddingModel: this.manifest.embeddingModel,
      dimensions: this.manifest.dimensions,
    };
  }

  protected loadTermCounts(): TermCounts {
    if (this.termCounts) return this.termCounts;
    if (!this.needsFullSave) this.termCounts = readTermCounts(this.dir, this.manifest.terms);
    if (!this.termCounts) {
      this.termCounts = countTerms(this.allPassages());
      this.termsDirty = this.isIndexed;
    }
    return this.termCounts;
  }

  protected async loadVectors(): Promise<VectorStore | undefined> {
    this.vectorsLoading ??= (async () => {
      const store = await loadVectorFiles(this.dir, this.manifest, (error) => this.annUnusable(error));
      if (store) this.vectors = store;
      return store;
    })();
    return this.vectorsLoading;
  }

  /** A document's passages; `keep: false` reads them without caching (a pass over every document). */
  protected documentPassages(docPath: string, { keep = true }: { keep?: boolean } = {}): Passage[] {
    const cached = this.passageCache.get(docPath);
    if (cached) return cached;
    const entry = this.documents[docPath];
    if (!entry?.segment) return [];
    const passages = readDocumentPassages(this.dir, entry);
    if (keep) this.passageCache.remember(docPath, passages);
    return passages;
  }

  /** The document table changed: the id map and the count are rebuilt on next use. */
  protected reindexPassages(): void {
    this.docOfMap = undefined;
    this.passageTotal = undefined;
  }
}
