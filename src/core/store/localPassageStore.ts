// The local passage store: today's index on disk (manifest, lexical index, vectors) behind the
// passage store port. A thin wrapper: the index itself lives in retrieval/passageIndex.ts.

import type { Passage, RetrievalMode } from '../../domain/types';
import type { DocSource } from '../docs/docSource';
import { HybridRetriever } from '../retrieval/hybridRetriever';
import { PassageIndex, termText, type IndexReport, type IndexRunOptions } from '../retrieval/passageIndex';
import type { Embedder } from '../types';
import type { TermStats } from '../verifier/termStats';
import type { PassageStore, StoreSearch, StoreStatus } from './passageStore';

export class LocalPassageStore implements PassageStore {
  readonly kind = 'local' as const;
  readonly label = 'local index';

  private constructor(private readonly index: PassageIndex) {}

  static async open(indexDir: string, docsRoot: string): Promise<LocalPassageStore> {
    return new LocalPassageStore(await PassageIndex.open(indexDir, docsRoot));
  }

  get openNotices(): string[] {
    return this.index.openNotices;
  }

  status(): StoreStatus {
    return {
      indexed: this.index.isIndexed,
      documents: this.index.documentCount,
      passages: this.index.passageCount,
      embeddingModel: this.index.embeddingModel,
    };
  }

  update(docs: DocSource, options: IndexRunOptions): Promise<IndexReport> {
    return this.index.update(docs, options);
  }

  mode(embedder: Embedder | undefined): RetrievalMode {
    return new HybridRetriever(this.index, embedder).mode;
  }

  async search(query: string, topK: number, embedder: Embedder | undefined, signal?: AbortSignal): Promise<StoreSearch> {
    const retriever = new HybridRetriever(this.index, embedder);
    return { mode: retriever.mode, passages: await retriever.search(query, topK, signal) };
  }

  async passages(ids: readonly string[]): Promise<Passage[]> {
    return ids.map((id) => this.index.passage(id)).filter((p): p is Passage => p !== undefined);
  }

  async passageTexts(): Promise<string[]> {
    return this.index.allPassages().map(termText);
  }

  /** Read from the index's stored term counts, not recomputed. */
  async termStats(): Promise<TermStats> {
    return this.index.termStats();
  }

  /** From the document table: no passage is read. */
  async sources(): Promise<string[]> {
    return this.index.sources();
  }

  clear(): Promise<void> {
    return this.index.clear();
  }

  async close(): Promise<void> {}
}
