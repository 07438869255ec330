// The write side of the local index: applying a run in memory and committing it as a new
// generation (passage segment, document table, lexical snapshot when due, term counts, vector
// segments, then the manifest; generation.ts), or vectors only while filling. A folder that
// refuses writes keeps the change in memory and the report says so.

import { notice } from '../../../domain/notices';
import type { ChangedDocument, PassageChange, Stamp } from '../../indexing/changeSet';
import { INDEX_FORMAT_VERSION, termText, type IndexReport, type IndexRunOptions } from '../../indexing/indexRun';
import { isWriteRefused } from '../../retrieval/indexFiles';
import { afterCommit, commitGeneration } from './generation';
import { emptyDelta, lexicalDeltaLimit, LEXICAL_EXTENSION, loadLexical, saveLexical } from './lexicalFiles';
import type { DocumentEntry } from './manifest';
import { writePassageSegments } from './passageSegments';
import { writeVectorSegments } from './vectorFiles';
import type { EmbeddedChange } from './vectorFill';
import { IndexState } from './indexState';

/** Everything one run decided, applied by the write phase. */
export interface IndexRun {
  changed: Map<string, ChangedDocument>;
  touched: Map<string, Stamp>;
  removedPaths: string[];
  change: PassageChange;
  embedded: EmbeddedChange;
}

export class IndexWriter extends IndexState {
  /**
   * One chunk of vectors, committed: a new vector segment and the manifest (or the whole index
   * when the files on disk lag behind memory). A folder that refuses writes keeps them in memory.
   */
  protected async commitVectors(
    items: { id: string; vector: Float32Array }[],
    embeddingModel: string,
    report: IndexReport,
    deferGraph: boolean,
  ): Promise<void> {
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
      const said = notice(
        'index-not-writable',
        `The index folder ${this.dir} cannot be written (${(error as NodeJS.ErrnoException).code}): the new vectors are kept in memory only and will be computed again next time.`,
      );
      if (!report.notices.some((n) => n.text === said.text)) report.notices.push(said);
    }
  }

  /** Writes the vector segments not yet on disk, then the manifest: a commit of vectors only. */
  protected async saveVectors(embeddingModel: string, dimensions: number, deferGraph: boolean): Promise<void> {
    const gen = this.manifest.generation + 1;
    const manifest = await commitGeneration(this.dir, this.lock, async (writer) => {
      const { vectors, ann } = await writeVectorSegments(
        this.dir,
        gen,
        this.manifest,
        this.vectors,
        writer,
        deferGraph,
      );
      return {
        ...this.manifest,
        updatedAt: new Date().toISOString(),
        generation: gen,
        embeddingModel,
        dimensions,
        vectors,
        ann,
      };
    });
    this.manifest = manifest;
    this.vectors?.markSaved();
    if (this.saved) this.saved = { ...this.saved, savedAt: manifest.updatedAt };
    await afterCommit(this.dir, this.lease, this.manifest);
  }

  /**
   * Phase 5, write: apply the run in memory (documents, lexical index, term counts, vectors),
   * then save only what changed; a run that changed nothing writes nothing. When the folder
   * refuses writes, the index in memory stays current and the report says so.
   */
  protected async write(run: IndexRun, report: IndexReport, { onProgress }: IndexRunOptions): Promise<void> {
    const { changed, touched, removedPaths, change, embedded } = run;
    const { vectors, vectorChange, embeddingModel } = embedded;
    const docChange = changed.size > 0 || removedPaths.length > 0 || touched.size > 0;
    const vectorDirty =
      vectorChange.reset ||
      vectorChange.add.length > 0 ||
      vectorChange.remove.length > 0 ||
      embeddingModel !== this.manifest.embeddingModel ||
      vectors?.wantsAnn === true;
    // An index written before term counts were stored gets them once.
    const termsMissing = this.isIndexed && !this.manifest.terms;
    if (!docChange && !vectorDirty && !this.needsFullSave && this.isIndexed && !termsMissing) return;

    onProgress?.({ phase: 'saving', done: 0, total: 1 });
    const terms = this.loadTermCounts();
    for (const p of [...changed.keys(), ...removedPaths]) {
      for (const passage of this.documentPassages(p)) terms.remove(termText(passage));
    }
    for (const passage of change.newPassages) terms.add(termText(passage));
    this.termsDirty = true;
    const lexicalRemoved = [...change.oldIds];
    // A new snapshot will be written: the index is read now, before the documents change under it.
    const pendingDelta =
      this.lexicalDelta.add.size + this.lexicalDelta.remove.size + change.oldIds.size + change.newPassages.length;
    if (
      !this.manifest.lexical ||
      this.needsFullSave ||
      pendingDelta > lexicalDeltaLimit(this.passageCount) ||
      this.snapshotEachSave
    ) {
      void this.lexical;
    }
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
    for (const p of [...changed.keys(), ...removedPaths]) this.passageCache.forget(p);
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
      this.manifest = {
        ...this.manifest,
        embeddingModel,
        updatedAt: this.manifest.updatedAt || new Date().toISOString(),
      };
      for (const [p, doc] of changed) {
        this.documents[p] = {
          ...doc.stamp,
          version: doc.version,
          ids: doc.passages.map((x) => x.id),
          segment: '',
          offset: 0,
          length: 0,
        };
        this.passageCache.keepUnsaved(p, doc.passages);
      }
      report.notices.push(
        notice(
          'index-not-writable',
          `The index folder ${this.dir} cannot be written (${(error as NodeJS.ErrnoException).code}): answering from the index in memory; the changes are not saved and will be indexed again next time.`,
        ),
      );
    }
    onProgress?.({ phase: 'saving', done: 1, total: 1 });
  }

  /**
   * Writes this run's files (a passage segment for the changed documents, the document table, a
   * lexical snapshot when the delta is large, term counts, new vector segments), then the manifest.
   */
  protected async save(
    changed: Map<string, ChangedDocument>,
    embeddingModel: string | null,
    dimensions: number | null,
  ): Promise<void> {
    const gen = this.manifest.generation + 1;
    let entries: Record<string, DocumentEntry> = {};
    const manifest = await commitGeneration(this.dir, this.lock, async (writer) => {
      const passages = await writePassageSegments({
        gen,
        segmentRefs: this.manifest.passages,
        documents: this.documents,
        changed,
        compactAll: this.needsFullSave,
        passagesOf: (p) => this.documentPassages(p, { keep: false }),
        write: writer.write,
      });
      entries = passages.entries;
      const documentsRef = await writer.write(`documents-${gen}.json`, JSON.stringify(entries));

      // Lexical: a new snapshot only when the changes since the last one are many.
      let lexicalRef = this.manifest.lexical;
      const delta = this.lexicalDelta.add.size + this.lexicalDelta.remove.size;
      if (
        !lexicalRef ||
        this.needsFullSave ||
        (this.lexicalLoaded && (delta > lexicalDeltaLimit(this.passageCount) || (this.snapshotEachSave && delta > 0)))
      ) {
        const snapshot = saveLexical(this.lexical);
        lexicalRef = await writer.write(`lexical-${gen}.${LEXICAL_EXTENSION}`, snapshot);
        // From here the index in memory is the snapshot: views on one buffer instead of an object
        // per term and per passage (a third of the memory at 50k passages; same answers).
        this.lexical = loadLexical(snapshot);
        this.lexicalDelta = emptyDelta();
      }

      let termsRef = this.manifest.terms ?? null;
      if (this.termCounts && (this.termsDirty || !termsRef)) {
        termsRef = await writer.write(`terms-${gen}.txt`, this.termCounts.serialize());
      }

      // Vectors: new segments only (or one compacted segment), and the vector search graph.
      const { vectors: vectorRefs, ann: annRef } = await writeVectorSegments(
        this.dir,
        gen,
        this.manifest,
        this.vectors,
        writer,
      );
      return {
        formatVersion: INDEX_FORMAT_VERSION,
        docsRoot: this.manifest.docsRoot,
        updatedAt: new Date().toISOString(),
        embeddingModel,
        dimensions,
        generation: gen,
        documents: documentsRef,
        passages: passages.passageRefs,
        lexical: lexicalRef,
        lexicalDelta: { add: [...this.lexicalDelta.add], remove: [...this.lexicalDelta.remove] },
        vectors: vectorRefs,
        ann: annRef,
        terms: termsRef,
      };
    });
    this.manifest = manifest;
    this.documents = entries;
    this.vectors?.markSaved();
    this.passageCache.saved();
    this.termsDirty = false;
    this.noteSaved();
    for (const [p, doc] of changed) this.passageCache.remember(p, doc.passages);
    await afterCommit(this.dir, this.lease, this.manifest);
  }
}
