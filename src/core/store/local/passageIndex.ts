// The index of a docs folder on disk (this file: opening it and its runs; the index in memory is
// indexState.ts, its writes indexWriter.ts). Indexing is incremental: documents whose size, mtime,
// ctime and inode are unchanged are not re-read, passages whose id is already embedded are not
// re-embedded, deleted documents are removed. Storage is proportional to the change:
//   * `documents-<gen>.json`  the document table (stamps, version, passage ids, where the passages are)
//   * `passages-<gen>.jsonl`  segments of passages, one line per document, read lazily by offset (passageSegments.ts)
//   * `lexical-<gen>.bin`     a snapshot of the lexical index, read on first use; the passages added
//                             and removed since are listed in the manifest and replayed then (lexicalFiles.ts)
//   * `vectors-<gen>.f32/.ids` vector segments (vectorFiles.ts, vectorStore.ts), loaded on first use
//   * `ann-<gen>.usearch/.ids` the vector search graph over them (above a size; see annIndex.ts)
//   * `terms-<gen>.txt`       document frequencies of the verifier's terms (termFiles.ts)
//   * `manifest.json`         names the files above with their lengths; renaming it commits a save
//                             (manifest.ts: its format, opening and repair; generation.ts: the commit)
// A run commits twice over: the lexical part first (answers work from then on), then the vectors
// in chunks (vectorFill.ts), so a killed or cancelled run resumes without embedding again what it
// committed. What a run changes is found store-independently (core/indexing/changeSet.ts).
// A run that changes nothing writes nothing. A corrupt, damaged or outdated index is rebuilt as
// little as needed (a cut-off vector file: only its vectors), with a notice saying why. An index
// folder that cannot be written (read-only, full disk) still answers, with a notice.
// Several processes may share the folder: an open index pins the generation it read (a reader
// lease, readerLeases.ts), and a run holds the writer lock (indexLock.ts), first catching up
// with what another writer committed; a run that may not wait answers from the committed index.

import { mkdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import * as path from 'node:path';
import { notice, type Notice } from '../../../domain/notices';
import type { DocFile, DocSource } from '../../docs/docSource';
import { LexicalIndex } from '../../retrieval/lexicalIndex';
import { MANIFEST_FILE } from '../../retrieval/indexFiles';
import { acquireIndexLock, type LockHolder } from '../../retrieval/indexLock';
import type { ReaderLease } from '../../retrieval/readerLeases';
import { emptyReport, type IndexProgress, type IndexReport, type IndexRunOptions } from '../../indexing/indexRun';
import {
  listDocuments,
  passageChange,
  readAndChunkChanged,
  readBatches,
  sameStamp,
  type ChangedDocument,
  type PassageChange,
  type Stamp,
} from '../../indexing/changeSet';
import { freshManifest, openManifest, pinnedFiles, vectorRows } from './manifest';
import { afterCommit, commitGeneration, removeLeftovers } from './generation';
import { emptyDelta } from './lexicalFiles';
import { fillVectors, planEmbedding } from './vectorFill';
import { IndexWriter } from './indexWriter';

/** How often a run that may not wait looks again for another process's first commit. */
const FIRST_INDEX_POLL_MS = 200;

/**
 * A run that reads more than this many bytes of documents (a first index) commits its lexical
 * part in batches of about this size: memory holds one batch's passages, not the corpus's (see
 * docs/measurements.md, build peak memory).
 */
const READ_BATCH_BYTES = 4 << 20;

export class PassageIndex extends IndexWriter {
  /**
   * Opens the index in `dir` for `docsRoot`, rebuilding what is missing, corrupt or outdated. The
   * generation it reads is pinned first (a reader lease), so another process's run cannot remove
   * its files; nothing is removed on open (leftovers go in a run, under the writer lock).
   * `keepStrayFiles` is accepted for callers of before (open never removes anything now).
   */
  static async open(
    dir: string,
    docsRoot: string,
    options: { keepStrayFiles?: boolean; lease?: ReaderLease } = {},
  ): Promise<PassageIndex> {
    await mkdir(dir, { recursive: true });
    const opened = await openManifest(dir, docsRoot, options.lease);
    const index = new PassageIndex(
      dir,
      opened.manifest,
      opened.documents,
      opened.lexicalFile ?? LexicalIndex.empty(),
      opened.notices,
    );
    index.lease = opened.lease;
    index.needsFullSave = opened.fullSave;
    if (opened.rebuildLexical) index.lexical = index.rebuildLexical();
    return index;
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
      this.lexicalDelta = emptyDelta();
      this.vectors = undefined;
      this.vectorsLoading = undefined;
      this.needsFullSave = false;
      this.termCounts = undefined;
      this.termsDirty = false;
      this.passageCache.clear();
      this.saved = null;
      this.reindexPassages();
      await commitGeneration(this.dir, this.lock, async () => this.manifest);
      await afterCommit(this.dir, this.lease, this.manifest);
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
   * it committed), or with `whenBusy: 'answer'` catches up and returns `busy` — once there is a
   * committed index to answer from (during another process's first index it waits for that). A folder that
   * refuses writes has no lock to take (nobody can commit there): `work` runs as it is.
   */
  private async locked<T>(
    options: Pick<IndexRunOptions, 'whenBusy' | 'onWaiting' | 'signal' | 'onLexicalReady'>,
    work: () => Promise<T>,
  ): Promise<{ done: T } | { busy: LockHolder | undefined }> {
    let attempt = await acquireIndexLock(this.dir, {
      wait: options.whenBusy !== 'answer',
      signal: options.signal,
      onWait: async (holder) => {
        options.onWaiting?.(holder);
        // While waiting, answers come from what the other writer has committed.
        await this.catchUp().catch(() => undefined);
        if (this.isIndexed) options.onLexicalReady?.();
      },
    });
    let told = false;
    while (attempt.kind === 'busy') {
      await this.catchUp();
      if (this.isIndexed) return { busy: attempt.holder };
      // Nothing committed yet (the other process writes the first index): there is nothing to
      // answer from, so wait for its first commit, or for its lock to free up and index here.
      if (!told) options.onWaiting?.(attempt.holder);
      told = true;
      await sleep(FIRST_INDEX_POLL_MS, undefined, { signal: options.signal });
      attempt = await acquireIndexLock(this.dir, { wait: false, signal: options.signal });
    }
    if (attempt.kind === 'unlockable') return { done: await work() };
    try {
      await this.catchUp();
      this.lock = attempt;
      await removeLeftovers(this.dir, this.manifest);
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
    (this as { openNotices: Notice[] }).openNotices = notices;
    notices.push(...fresh.openNotices);
  }

  /**
   * One indexing run, in two commits. First the lexical part: list the documents, read the changed
   * ones, chunk them into passages and write them with the lexical index (and the removal of the
   * vectors of passages that are gone): from then on answers work, by words. Then the vectors:
   * passages without one are embedded and committed in chunks (see vectorFill.ts), so a run
   * killed at any point resumes where its last commit ended, and a cancelled run keeps what it
   * embedded. Nothing is written before the first commit. The run holds the writer lock (see
   * `locked`); the report says `busy` when another process held it and the run was asked not to wait.
   */
  async update(docs: DocSource, options: IndexRunOptions = {}): Promise<IndexReport> {
    const started = Date.now();
    let lexicalSaid = false;
    const onLexicalReady = () => {
      if (!lexicalSaid) options.onLexicalReady?.();
      lexicalSaid = true;
    };
    const notices = this.openNotices.length;
    const outcome = await this.locked({ ...options, onLexicalReady }, () =>
      this.run(docs, { ...options, onLexicalReady }),
    );
    if ('done' in outcome) {
      outcome.done.notices.unshift(...this.openNotices.slice(notices));
      return outcome.done;
    }
    const holder = outcome.busy;
    return {
      documents: this.documentCount,
      passages: this.passageCount,
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
      embedded: 0,
      skipped: [],
      retrieval: options.embedder || options.lazyEmbedder ? 'hybrid' : 'lexical',
      ms: Date.now() - started,
      notices: [
        ...this.openNotices.slice(notices),
        notice(
          'index-busy',
          `Another Evident process${holder ? ` (pid ${holder.pid} on ${holder.host}, since ${holder.since})` : ''} is updating this index: answering from the index as it last saved it.`,
        ),
      ],
      busy: holder ? { pid: holder.pid, host: holder.host, since: holder.since } : null,
    };
  }

  /** One run (see `update`), under the writer lock. */
  private async run(docs: DocSource, options: IndexRunOptions): Promise<IndexReport> {
    const started = Date.now();
    const { signal, embedder } = options;
    const report = emptyReport(embedder ? 'hybrid' : 'lexical');

    const { files, removedPaths } = await listDocuments(docs, this.documents, report, options);
    const batches = readBatches(
      files,
      (f) => !this.documents[f.path] || !sameStamp(this.documents[f.path], f),
      options.readBatchBytes ?? READ_BATCH_BYTES,
    );
    let changed = new Map<string, ChangedDocument>();
    let touched = new Map<string, Stamp>();
    let change: PassageChange;
    let removed = removedPaths;
    let lexicalChange = false;
    if (batches.length > 1) {
      // A large run (a first index): the lexical part is committed batch by batch, so the passages
      // of the whole corpus are never held at once; the vectors are planned from what is committed.
      ({ removed: report.removed, lexicalChange } = await this.commitInBatches(
        docs,
        batches,
        removedPaths,
        files.length,
        report,
        options,
      ));
      removed = [];
      change = { oldIds: new Set(), newPassages: [], newIds: new Set() };
    } else {
      ({ changed, touched } = await readAndChunkChanged(docs, files, this.documents, removedPaths, report, options));
      change = passageChange(this.documents, changed, removedPaths);
      lexicalChange = changed.size > 0 || removedPaths.length > 0 || touched.size > 0;
      report.removed = removedPaths.length;
    }
    if (!embedder && options.lazyEmbedder) {
      const upToDate =
        !lexicalChange &&
        !this.needsFullSave &&
        this.manifest.embeddingModel === options.lazyEmbedder.modelId &&
        vectorRows(this.manifest) === this.passageCount;
      const loaded = upToDate ? undefined : await options.lazyEmbedder.load();
      report.retrieval = upToDate || loaded ? 'hybrid' : 'lexical';
      options = { ...options, embedder: loaded };
    }
    const { embedded, toEmbed } = await planEmbedding(
      this.indexedVectors(),
      { changed, touched, removedPaths: removed, change },
      report,
      options.embedder,
    );
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
    await fillVectors(
      {
        holds: (id) => this.docOf.has(id),
        vectorFill: () => this.vectorFill(),
        commit: (items, model, r, deferGraph) => this.commitVectors(items, model, r, deferGraph),
      },
      toEmbed,
      report,
      options,
    );

    report.ms = Date.now() - started;
    return report;
  }

  /** What planning the vectors needs of the index as it is now. */
  private indexedVectors(): Parameters<typeof planEmbedding>[0] {
    return {
      embeddingModel: this.manifest.embeddingModel,
      dimensions: this.manifest.dimensions,
      rows: vectorRows(this.manifest),
      hasGraph: Boolean(this.manifest.ann),
      fullSavePending: this.needsFullSave,
      passageCount: this.passageCount,
      documents: this.documents,
      holds: (id) => this.docOf.has(id),
      passagesOf: (docPath) => this.documentPassages(docPath, { keep: false }),
      loadVectors: () => this.loadVectors(),
      unchanged: this.unchangedVectors(),
    };
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
        const read = await readAndChunkChanged(docs, batch, this.documents, batchRemoved, report, options, {
          done,
          total,
        });
        done += batch.length;
        removed += batchRemoved.length;
        lexicalChange ||= read.changed.size > 0 || read.touched.size > 0 || batchRemoved.length > 0;
        const change = passageChange(this.documents, read.changed, batchRemoved);
        // A batch's save is part of reading the corpus: progress says so (a "saving" phase would
        // read as the end of the reading, and progress never goes back).
        const at = done;
        const onProgress = (p: IndexProgress) =>
          options.onProgress?.(p.phase === 'saving' ? { phase: 'reading', done: at, total } : p);
        await this.write({ ...read, removedPaths: batchRemoved, change, embedded: this.unchangedVectors() }, report, {
          ...options,
          onProgress,
        });
      }
    } finally {
      this.snapshotEachSave = false;
    }
    return { removed, lexicalChange };
  }
}
