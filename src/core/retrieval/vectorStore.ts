// The dense side of retrieval: passage vectors in a Vectra LocalIndex on disk (protobuf codec,
// one file). Every indexing run is applied in one beginUpdate/endUpdate, because each Vectra
// commit rewrites the whole file. Vectra is large, so it is loaded on first use.

import type { LocalIndex } from 'vectra';

export interface VectorHit {
  id: string;
  score: number;
}

export interface VectorChange {
  add: { id: string; vector: Float32Array }[];
  remove: string[];
}

const INDEX_FILE = 'index.pb';

export class VectorStore {
  private constructor(private readonly index: LocalIndex) {}

  /** Opens (or creates) the store in `folder`; throws when the file exists but cannot be read. */
  static async open(folder: string): Promise<VectorStore> {
    const { LocalIndex, ProtobufCodec } = await import('vectra');
    const index = new LocalIndex(folder, INDEX_FILE, undefined, new ProtobufCodec());
    if (!(await index.isIndexCreated())) {
      await index.createIndex({ version: 1 });
    }
    await index.getIndexStats(); // loads the file: a corrupt one throws here
    return new VectorStore(index);
  }

  async ids(): Promise<Set<string>> {
    return new Set((await this.index.listItems()).map((item) => item.id));
  }

  async count(): Promise<number> {
    return (await this.index.getIndexStats()).items;
  }

  /** Applies one indexing run's additions and removals as a single write. */
  async apply(change: VectorChange): Promise<void> {
    if (!change.add.length && !change.remove.length) return;
    await this.index.beginUpdate();
    try {
      if (change.remove.length) await this.index.deleteItems(change.remove);
      for (const item of change.add) {
        await this.index.upsertItem({ id: item.id, vector: Array.from(item.vector), metadata: {} });
      }
      await this.index.endUpdate();
    } catch (error) {
      this.index.cancelUpdate();
      throw error;
    }
  }

  async query(vector: Float32Array, k: number): Promise<VectorHit[]> {
    const results = await this.index.queryItems(Array.from(vector), '', k);
    return results.map((r) => ({ id: r.item.id, score: r.score }));
  }
}
