// The local passage store: today's index on disk (manifest, lexical index, vectors) behind the
// passage store port. A thin wrapper: the index itself lives in store/local/ (passageIndex.ts).

import type { Passage, RetrievalMode } from '../../domain/types';
import type { Notice } from '../../domain/notices';
import type { DocSource } from '../docs/docSource';
import { HybridRetriever } from '../retrieval/hybridRetriever';
import { termText, type IndexReport, type IndexRunOptions } from '../indexing/indexRun';
import { PassageIndex } from './local/passageIndex';
import type { Embedder } from '../types';
import type { TermStats } from '../text/termStats';
import { commonFolderOf } from '../metrics/topic';
import type { PassageStore, StoreSearch, StoreStatus } from './passageStore';

export class LocalPassageStore implements PassageStore {
  readonly kind = 'local' as const;
  readonly label = 'local index';
  /** The index's term weights, read once per index state. */
  private stats: TermStats | undefined;

  private constructor(private readonly index: PassageIndex) {}

  static async open(
    indexDir: string,
    docsRoot: string,
    options: { keepStrayFiles?: boolean } = {},
  ): Promise<LocalPassageStore> {
    return new LocalPassageStore(await PassageIndex.open(indexDir, docsRoot, options));
  }

  get openNotices(): Notice[] {
    return this.index.openNotices;
  }

  status(): StoreStatus {
    return {
      indexed: this.index.isIndexed,
      documents: this.index.documentCount,
      passages: this.index.passageCount,
      embeddingModel: this.index.embeddingModel,
      vectors: this.index.vectorFill(),
    };
  }

  async update(docs: DocSource, options: IndexRunOptions): Promise<IndexReport> {
    this.stats = undefined;
    try {
      return await this.index.update(docs, options);
    } finally {
      // Weights read while the run was going are of the index before it.
      this.stats = undefined;
    }
  }

  mode(embedder: Embedder | undefined): RetrievalMode {
    return new HybridRetriever(this.index, embedder).mode;
  }

  async search(
    query: string,
    topK: number,
    embedder: Embedder | undefined,
    signal?: AbortSignal,
  ): Promise<StoreSearch> {
    const retriever = new HybridRetriever(this.index, embedder);
    return { mode: retriever.mode, passages: await retriever.search(query, topK, signal) };
  }

  async passages(ids: readonly string[]): Promise<Passage[]> {
    return ids.map((id) => this.index.passage(id)).filter((p): p is Passage => p !== undefined);
  }

  /** Heading and text of every passage (benchmarks and tests compare stores with it). */
  async passageTexts(): Promise<string[]> {
    return this.index.allPassages().map(termText);
  }

  /** Read from the index's stored term counts (all of them), not recomputed. */
  async termStats(_texts: readonly string[]): Promise<TermStats> {
    this.stats ??= this.index.termStats();
    return this.stats;
  }

  /** The term counts as JSON, for a store in another thread (the index worker). */
  termCountsJSON(): string {
    return this.index.termCountsJSON();
  }

  /** From the document table: no passage is read (at 50k passages, reading them all cost a second). */
  async commonFolder(): Promise<string> {
    return commonFolderOf(new Set(this.index.sources()));
  }

  async clear(): Promise<void> {
    await this.index.clear();
    this.stats = undefined;
  }

  /** Releases the index's pin on its generation (another process's run may then remove its files). */
  async close(): Promise<void> {
    await this.index.close();
  }
}
