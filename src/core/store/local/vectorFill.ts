// The vector side of a local indexing run: which passages need a vector and which vectors go
// (the plan), then the long, cancellable part: embedding in batches and committing in chunks, so
// a killed run resumes where its last commit ended and a cancelled one keeps what it embedded.

import type { Passage } from '../../../domain/types';
import type { VectorFill } from '../../../domain/partialRetrieval';
import { notice } from '../../../domain/notices';
import { embeddingText, type IndexReport, type IndexRunOptions } from '../../indexing/indexRun';
import type { ChangedDocument, KnownDocuments, PassageChange, Stamp } from '../../indexing/changeSet';
import type { Embedder } from '../../types';
import { VectorStore, annWanted } from '../../retrieval/vectorStore';

/**
 * Vector commits while filling: every COMMIT_PASSAGES passages or COMMIT_MS, whichever first. A
 * commit writes one vector segment and the manifest (see docs/measurements.md for its cost), so
 * a killed run loses at most this much embedding work.
 */
const COMMIT_PASSAGES = 2048;
const COMMIT_MS = 15_000;
/**
 * Passages per embedder call: the embedder groups each call's texts by token count, so a larger
 * call pads less (the handbook: 13% padded tokens in calls of 32, 1.5% in calls of 128; see
 * docs/measurements.md); progress is reported between calls. A commit chunk takes at least two
 * calls, so a small chunk (`commitEvery`) is not overshot.
 */
const EMBED_BATCH = 128;

/** A passage to embed: its id and the text the embedder sees. */
export interface EmbedItem {
  id: string;
  text: string;
}

export interface EmbeddedChange {
  /** The vector store the change applies to (a new one when the model changed); undefined when untouched. */
  vectors: VectorStore | undefined;
  vectorChange: { add: { id: string; vector: Float32Array }[]; remove: string[]; reset: boolean };
  /** The model the vectors now come from (unchanged on a lexical-only run). */
  embeddingModel: string | null;
  dimensions: number | null;
}

/** What the plan needs to know of the index as it is. */
export interface IndexedVectors {
  /** The model and dimensions of the stored vectors, how many live rows, and whether a search graph is stored. */
  embeddingModel: string | null;
  dimensions: number | null;
  rows: number;
  hasGraph: boolean;
  /** The files on disk lag behind memory (the next save writes everything). */
  fullSavePending: boolean;
  passageCount: number;
  documents: KnownDocuments;
  /** Whether a document of the index holds the passage. */
  holds(id: string): boolean;
  /** A document's passages, read without caching. */
  passagesOf(docPath: string): Passage[];
  loadVectors(): Promise<VectorStore | undefined>;
  /** The change of a lexical-only write: nothing on the vector side. */
  unchanged: EmbeddedChange;
}

/**
 * Phase 4, plan the vectors: which passages need one (new ones, and those of a cut-off vector
 * file or a killed run; all of them when the embedding model changed) and which vectors go
 * (their passages are gone). Nothing without an embedder (lexical-only run), and the vector
 * files are not even read when nothing changed and every passage has its vector.
 */
export async function planEmbedding(
  index: IndexedVectors,
  run: {
    changed: Map<string, ChangedDocument>;
    touched: Map<string, Stamp>;
    removedPaths: string[];
    change: PassageChange;
  },
  report: IndexReport,
  embedder: Embedder | undefined,
): Promise<{ embedded: EmbeddedChange; toEmbed: EmbedItem[] }> {
  const { changed, touched, removedPaths, change } = run;
  let embeddingModel = index.embeddingModel;
  const none = index.unchanged;
  if (!embedder) return { embedded: none, toEmbed: [] };
  const docChange = changed.size > 0 || removedPaths.length > 0 || touched.size > 0;
  const vectorsComplete =
    embeddingModel === embedder.modelId &&
    index.dimensions === embedder.dimensions &&
    index.rows === index.passageCount;
  // A missing graph (damaged, or the corpus grew past the threshold) is built by this run.
  const annMissing = !index.hasGraph && annWanted(index.passageCount);
  if (vectorsComplete && !docChange && !index.fullSavePending && !annMissing) return { embedded: none, toEmbed: [] };

  let vectors = await index.loadVectors();
  let reset = false;
  if (embeddingModel !== embedder.modelId || !vectors || vectors.dimensions !== embedder.dimensions) {
    // Another model's vectors cannot be compared with this one's: re-embed everything.
    if (embeddingModel && embeddingModel !== embedder.modelId) {
      report.notices.push(
        notice(
          'embedding-model-changed',
          `Embedding model changed (${embeddingModel} → ${embedder.modelId}): re-embedding all passages.`,
        ),
      );
    }
    reset = true;
    vectors = new VectorStore(embedder.dimensions);
  }
  const store = vectors;
  const { oldIds, newIds, newPassages } = change;
  const remove = new Set<string>();
  for (const id of oldIds) if (!newIds.has(id)) remove.add(id);
  // Vectors of passages no document holds any more (left by a lexical-only run).
  for (const id of store.ids()) if (!newIds.has(id) && (!index.holds(id) || oldIds.has(id))) remove.add(id);
  // Only what the embedder needs of each passage (ids and texts, not whole passages).
  const item = (p: Passage): EmbedItem => ({ id: p.id, text: embeddingText(p) });
  const toEmbed: EmbedItem[] = newPassages.filter((p) => !store.has(p.id)).map(item);
  // Passages of unchanged documents that have no vector (a new model, a cut-off vector file, a
  // killed run, a run that committed its lexical part in batches).
  const removedSet = new Set(removedPaths);
  for (const [docPath, entry] of Object.entries(index.documents)) {
    if (!entry || changed.has(docPath) || removedSet.has(docPath)) continue;
    if (entry.ids.some((id) => !store.has(id))) {
      for (const p of index.passagesOf(docPath)) if (!store.has(p.id)) toEmbed.push(item(p));
    }
  }
  // Batches of similar length: a batch is padded to its longest text, so mixed lengths waste
  // most of the model's work (about half of it on the handbook).
  toEmbed.sort((a, b) => a.text.length - b.text.length);
  embeddingModel = embedder.modelId;
  return {
    embedded: {
      vectors: store,
      vectorChange: { add: [], remove: [...remove], reset },
      embeddingModel,
      dimensions: embedder.dimensions,
    },
    toEmbed,
  };
}

/** Where a fill commits its vectors. */
export interface FillTarget {
  /** Whether a document of the index still holds the passage (one removed meanwhile is not embedded). */
  holds(id: string): boolean;
  vectorFill(): VectorFill;
  /** Commits one chunk of vectors; `deferGraph`: not the last chunk, the search graph waits. */
  commit(
    items: { id: string; vector: Float32Array }[],
    embeddingModel: string,
    report: IndexReport,
    deferGraph: boolean,
  ): Promise<void>;
}

/**
 * Phase 6, fill the vectors (the long, cancellable part): embed `toEmbed` in batches and commit
 * them in chunks. Cancelled or failed, it first commits what it embedded, then throws.
 */
export async function fillVectors(
  target: FillTarget,
  toEmbed: EmbedItem[],
  report: IndexReport,
  { signal, onProgress, embedder, commitEvery }: IndexRunOptions,
): Promise<void> {
  if (!embedder || toEmbed.length === 0) return;
  const everyPassages = commitEvery?.passages ?? COMMIT_PASSAGES;
  const everyMs = commitEvery?.ms ?? COMMIT_MS;
  const perCall = Math.max(1, Math.min(EMBED_BATCH, Math.floor(everyPassages / 2)));
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
    await target.commit(items, embedder.modelId, report, !last);
    const commits = (report.vectorCommits ??= { count: 0, ms: 0 });
    commits.count++;
    commits.ms += performance.now() - started;
    report.embedded += items.length;
    lastCommit = Date.now();
  };
  const progress = (done: number) =>
    onProgress?.({ phase: 'embedding', done, total: toEmbed.length, vectors: target.vectorFill() });
  // Identical texts (templates, repeated boilerplate: 283 of k8s-community's 11,812 passages) are
  // embedded once, and every passage holding one gets its vector.
  const texts = sameTexts(toEmbed);
  let done = 0;
  try {
    for (let i = 0; i < texts.length; i += perCall) {
      signal?.throwIfAborted();
      progress(done);
      const call = texts.slice(i, i + perCall);
      done += call.reduce((n, t) => n + t.ids.length, 0);
      // A passage removed meanwhile is not embedded (watch runs go through the same queue, but be safe).
      const batch = call
        .map((t) => ({ text: t.text, ids: t.ids.filter((id) => target.holds(id)) }))
        .filter((t) => t.ids.length > 0);
      if (!batch.length) continue;
      const out = await embedder.embed(
        batch.map((t) => t.text),
        signal,
      );
      batch.forEach((t, j) => t.ids.forEach((id) => pending.push({ id, vector: out[j] })));
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

/** The distinct texts of `items` in their first order, each with the ids of the passages holding it. */
export function sameTexts(items: EmbedItem[]): { text: string; ids: string[] }[] {
  const byText = new Map<string, string[]>();
  for (const { id, text } of items) {
    const ids = byText.get(text);
    if (ids) ids.push(id);
    else byText.set(text, [id]);
  }
  return [...byText].map(([text, ids]) => ({ text, ids }));
}
