// The dense side of retrieval: passage vectors in contiguous Float32Arrays, searched exactly
// (a dot-product scan; vectors are normalised, so it is the cosine). Storage is a list of
// segments, each written once by one indexing run (`vectors-<gen>.f32` rows + `vectors-<gen>.ids`
// ids): an edit appends a small segment and marks the rows it replaces as dead; compaction
// rewrites the live rows into one segment when dead rows or segments pile up. Files are written
// by the index's store (write-then-rename, lengths in the manifest); this class holds the data.
// Above ANN_MIN_VECTORS the store also keeps an ANN snapshot (annIndex.ts: a usearch graph over
// every live vector when it was built) and searches it instead of scanning: the snapshot's
// candidates plus the vectors added since (scanned exactly), those removed or replaced since
// taken out of the graph in memory, all reranked by their exact scores. The snapshot is rebuilt when that delta grows past
// ANN_DELTA_SHARE; below the threshold, or without the native module, the search is exact.

import { AnnSnapshot, annLibrary } from './annIndex';

export interface VectorHit {
  id: string;
  score: number;
}

/** A segment as the manifest records it. */
export interface VectorSegmentRef {
  /** File stem: `<stem>.f32` holds the rows, `<stem>.ids` the ids (one per line). */
  stem: string;
  rows: number;
  /** Rows replaced or removed since the segment was written. */
  dead: number[];
}

interface Segment {
  ref: VectorSegmentRef;
  ids: string[];
  data: Float32Array;
  dead: Uint8Array;
  /** Not written yet (rows added by the current run). */
  pending: boolean;
}

/** Compaction: when dead rows exceed this share, or the segments this count. */
const MAX_DEAD_SHARE = 0.25;
const MAX_SEGMENTS = 8;

/** Below this many vectors an exact scan is about as fast as the graph (bench:vectors). */
export const ANN_MIN_VECTORS = 10_000;
/** The snapshot is rebuilt when the vectors added, replaced or removed since exceed this share (or count). */
const ANN_DELTA_SHARE = 0.05;
const ANN_DELTA_MIN = 500;
/** Graph candidates read per hit wanted, reranked exactly (int8 distances are approximate). */
const ANN_OVERFETCH = 2;

let annMinVectors = ANN_MIN_VECTORS;
/**
 * Moves the threshold (benchmarks force the graph on at small sizes with 0, or off with Infinity:
 * queries then scan exactly even where a graph is loaded); undefined restores it.
 */
export function setAnnMinVectors(n: number | undefined): void {
  annMinVectors = n ?? ANN_MIN_VECTORS;
}

/** The ANN snapshot as the manifest records it: `<stem>.usearch` and `<stem>.ids`. */
export interface AnnSnapshotRef {
  stem: string;
  rows: number;
  /** Ids still live whose vector was replaced after the snapshot was built. */
  replaced: string[];
}

/** What a save does with the ANN snapshot. */
export type AnnSavePlan =
  | { kind: 'none' } // no snapshot (below the threshold, or no native module)
  | { kind: 'keep'; ref: AnnSnapshotRef } // the snapshot on disk stays
  | { kind: 'write'; ref: AnnSnapshotRef; snapshot: AnnSnapshot }; // a new one, to write

export class VectorStore {
  private segments: Segment[] = [];
  private where = new Map<string, { segment: Segment; row: number }>();
  /**
   * The snapshot: its ids (from its ids file) and, once loaded, its graph. A graph read from disk
   * is loaded at the first query (`loadAnn`), not by an indexing run, which needs only the ids.
   */
  private ann:
    | {
        stem: string;
        /** Built by this process, not written yet. */
        pending: boolean;
        ids: string[];
        /** The ids of the graph file (removed ones included). */
        held: Set<string>;
        snapshot?: AnnSnapshot;
        load?: () => Promise<AnnSnapshot>;
        loading?: Promise<void>;
      }
    | undefined;
  /** Ids of the snapshot file whose vector is gone or was replaced (taken out of the graph in memory). */
  private annStale = new Set<string>();
  /** Live ids the snapshot lacks or holds stale (scanned exactly on every query). */
  private annDelta = new Set<string>();

  constructor(readonly dimensions: number) {}

  /** Whether queries go through the ANN snapshot (else: an exact scan). */
  get usesAnn(): boolean {
    return this.ann?.snapshot !== undefined;
  }

  /** Whether a save would build a snapshot that is not there (above the threshold, module loaded). */
  get wantsAnn(): boolean {
    return this.ann === undefined && annWanted(this.size);
  }

  /** Every live vector, in one array (vector i is ids[i]). */
  liveRows(): { ids: string[]; data: Float32Array } {
    const dims = this.dimensions;
    const ids = [...this.where.keys()];
    const data = new Float32Array(ids.length * dims);
    ids.forEach((id, row) => {
      const at = this.where.get(id);
      if (at) data.set(at.segment.data.subarray(at.row * dims, (at.row + 1) * dims), row * dims);
    });
    return { ids, data };
  }

  /**
   * Attaches the snapshot on disk (after the segments) by its ids; `load` reads its graph when
   * `loadAnn` is first called. Until then queries scan exactly.
   */
  attachAnnFile(ref: AnnSnapshotRef, ids: string[], load: () => Promise<AnnSnapshot>): void {
    const held = new Set(ids);
    const replaced = new Set(ref.replaced);
    const stale = new Set<string>();
    for (const id of ids) if (!this.where.has(id) || replaced.has(id)) stale.add(id);
    const delta = new Set<string>();
    for (const id of this.where.keys()) if (!held.has(id) || replaced.has(id)) delta.add(id);
    this.ann = { stem: ref.stem, pending: false, ids, held, load };
    this.annStale = stale;
    this.annDelta = delta;
  }

  /**
   * Attaches a loaded snapshot. Throws (and drops it) when it does not find the vectors it holds
   * (a damaged file that loaded): the caller searches exactly and rebuilds it.
   */
  attachAnn(snapshot: AnnSnapshot, ref: AnnSnapshotRef): void {
    this.attachAnnFile(ref, snapshot.ids, () => Promise.resolve(snapshot));
    this.useSnapshot(snapshot);
  }

  /** Reads the graph of the attached snapshot file, once; on failure the snapshot is dropped and the error thrown. */
  async loadAnn(): Promise<void> {
    const ann = this.ann;
    const load = ann?.load;
    if (!ann || ann.snapshot || !load) return;
    ann.loading ??= (async () => {
      const snapshot = await load().catch((error: unknown) => {
        if (this.ann === ann) this.dropAnn();
        throw error;
      });
      if (this.ann === ann) this.useSnapshot(snapshot);
    })();
    return ann.loading;
  }

  private useSnapshot(snapshot: AnnSnapshot): void {
    const stale = this.annStale;
    // Probes: vectors the snapshot holds must find themselves among their nearest keys.
    const probes = snapshot.ids.filter((id) => !stale.has(id));
    const step = Math.max(1, Math.floor(probes.length / 16));
    let checked = 0;
    let missed = 0;
    for (let i = 0; i < probes.length && checked < 16; i += step, checked++) {
      const at = this.where.get(probes[i]);
      if (!at) continue;
      const vector = at.segment.data.subarray(at.row * this.dimensions, (at.row + 1) * this.dimensions);
      if (!snapshot.search(vector, 3).includes(probes[i])) missed++;
    }
    if (missed > 1) {
      this.dropAnn();
      throw new Error(`the vector search index does not find ${missed} of ${checked} of its own vectors`);
    }
    for (const id of stale) snapshot.remove(id);
    if (this.ann) this.ann.snapshot = snapshot;
  }

  get size(): number {
    return this.where.size;
  }

  has(id: string): boolean {
    return this.where.has(id);
  }

  ids(): Set<string> {
    return new Set(this.where.keys());
  }

  /** Adds a segment read from disk; throws when its data does not match its ref. */
  addLoaded(ref: VectorSegmentRef, ids: string[], data: Float32Array): void {
    if (ids.length !== ref.rows || data.length !== ref.rows * this.dimensions) {
      throw new Error(
        `vector segment ${ref.stem} holds ${ids.length} ids and ${data.length / this.dimensions} rows, expected ${ref.rows}`,
      );
    }
    const segment: Segment = {
      ref: { ...ref, dead: [...ref.dead] },
      ids,
      data,
      dead: new Uint8Array(ref.rows),
      pending: false,
    };
    for (const row of ref.dead) segment.dead[row] = 1;
    this.segments.push(segment);
    ids.forEach((id, row) => {
      if (segment.dead[row]) return;
      const previous = this.where.get(id);
      if (previous) this.markDead(previous.segment, previous.row);
      this.where.set(id, { segment, row });
    });
  }

  /** Adds (or replaces) vectors: they go into one new segment, written on the next save. */
  add(items: { id: string; vector: Float32Array }[]): void {
    if (!items.length) return;
    const data = new Float32Array(items.length * this.dimensions);
    const segment: Segment = {
      ref: { stem: '', rows: items.length, dead: [] },
      ids: items.map((i) => i.id),
      data,
      dead: new Uint8Array(items.length),
      pending: true,
    };
    items.forEach((item, row) => {
      if (item.vector.length !== this.dimensions) {
        throw new Error(`a vector of ${item.vector.length} dimensions in a store of ${this.dimensions}`);
      }
      data.set(item.vector, row * this.dimensions);
    });
    this.segments.push(segment);
    items.forEach((item, row) => {
      const previous = this.where.get(item.id);
      if (previous) this.markDead(previous.segment, previous.row);
      this.where.set(item.id, { segment, row });
      if (this.ann) {
        if (this.ann.held.has(item.id)) this.annStale.add(item.id);
        this.ann.snapshot?.remove(item.id);
        this.annDelta.add(item.id);
      }
    });
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      const at = this.where.get(id);
      if (!at) continue;
      this.markDead(at.segment, at.row);
      this.where.delete(id);
      if (this.ann) {
        if (this.ann.held.has(id)) this.annStale.add(id);
        this.ann.snapshot?.remove(id);
        this.annDelta.delete(id);
      }
    }
  }

  /** Top-k by dot product (the exact score of each hit): through the snapshot when there is one. */
  query(vector: Float32Array, k: number): VectorHit[] {
    if (vector.length !== this.dimensions || k <= 0) return [];
    const snapshot = this.ann?.snapshot;
    return snapshot && this.size >= annMinVectors ? this.annQuery(snapshot, vector, k) : this.exactQuery(vector, k);
  }

  /** The snapshot's candidates (stale ones dropped) and the delta, reranked by exact score. */
  private annQuery(snapshot: AnnSnapshot, vector: Float32Array, k: number): VectorHit[] {
    const dims = this.dimensions;
    const hits: VectorHit[] = [];
    const score = (id: string) => {
      const at = this.where.get(id);
      if (at) hits.push({ id, score: dot(at.segment.data, at.row * dims, vector, dims) });
    };
    for (const id of snapshot.search(vector, k * ANN_OVERFETCH)) if (!this.annStale.has(id)) score(id);
    for (const id of this.annDelta) score(id);
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, k);
  }

  /** Exact top-k by dot product over every live row. */
  exactQuery(vector: Float32Array, k: number): VectorHit[] {
    const dims = this.dimensions;
    if (vector.length !== dims || k <= 0) return [];
    const bestScore: number[] = [];
    const bestId: string[] = [];
    for (const segment of this.segments) {
      const { data, dead, ids } = segment;
      const rows = ids.length;
      for (let row = 0; row < rows; row++) {
        if (dead[row]) continue;
        const score = dot(data, row * dims, vector, dims);
        if (bestScore.length === k && score <= bestScore[k - 1]) continue;
        let j = bestScore.length < k ? bestScore.length : k - 1;
        while (j > 0 && bestScore[j - 1] < score) {
          if (j < k) {
            bestScore[j] = bestScore[j - 1];
            bestId[j] = bestId[j - 1];
          }
          j--;
        }
        bestScore[j] = score;
        bestId[j] = ids[row];
      }
    }
    return bestId.map((id, i) => ({ id, score: bestScore[i] }));
  }

  /**
   * What a save must write: new segments (with the stem they get) and the refs of all segments.
   * When dead rows or segments pile up, everything live is compacted into one new segment.
   */
  async planSave(
    newStem: () => string,
    annStem = 'ann',
    { deferGraph = false }: { deferGraph?: boolean } = {},
  ): Promise<{
    write: { stem: string; ids: string[]; data: Float32Array }[];
    refs: VectorSegmentRef[];
    compacted: boolean;
    ann: AnnSavePlan;
  }> {
    this.segments = this.segments.filter((s) => s.ids.length > 0 && s.dead.some((d) => !d));
    const total = this.segments.reduce((n, s) => n + s.ids.length, 0);
    const tooDead = total > 0 && (total - this.size) / total > MAX_DEAD_SHARE;
    const tooMany = this.segments.length > MAX_SEGMENTS;
    const compacted = tooDead || tooMany;
    if (tooDead) this.compact(this.segments);
    else if (tooMany) {
      // Many segments, few dead rows (chunks of a fill, many edits): the small ones are merged,
      // the largest stays as it is on disk: neither rewritten nor copied in memory.
      const largest = this.segments.reduce((a, b) => (b.ids.length > a.ids.length ? b : a));
      this.compact(this.segments.filter((segment) => segment !== largest));
    }
    const write: { stem: string; ids: string[]; data: Float32Array }[] = [];
    for (const segment of this.segments) {
      if (!segment.pending) continue;
      segment.ref = { stem: newStem(), rows: segment.ids.length, dead: deadRows(segment.dead) };
      write.push({ stem: segment.ref.stem, ids: segment.ids, data: segment.data });
    }
    return {
      write,
      refs: this.segments.map((s) => ({ ...s.ref, dead: deadRows(s.dead) })),
      compacted,
      ann: await this.planAnn(annStem, deferGraph),
    };
  }

  /** Called once the planned segments are on disk and committed. */
  markSaved(): void {
    for (const segment of this.segments) segment.pending = false;
    if (this.ann) this.ann.pending = false;
  }

  /**
   * The snapshot a save leaves: none below the threshold (or without the native module), a new
   * one when there is none or the delta since it grew too large, else the one on disk. With
   * `deferGraph` (a chunk of a fill that goes on) no graph is built: the one on disk is kept (its
   * delta searched exactly) or, without one, the search stays exact until the fill's last commit.
   */
  private async planAnn(stem: string, deferGraph = false): Promise<AnnSavePlan> {
    if (!annWanted(this.size)) {
      this.dropAnn();
      return { kind: 'none' };
    }
    const delta = this.annDelta.size + this.annStale.size;
    // Built but not written (the last save failed), and unchanged since: written as it is.
    if (this.ann?.pending && this.ann.snapshot && delta === 0) {
      return { kind: 'write', ref: this.annRef(), snapshot: this.ann.snapshot };
    }
    if (!this.ann || this.ann.pending || delta > Math.max(ANN_DELTA_MIN, ANN_DELTA_SHARE * this.size)) {
      if (deferGraph) return this.ann && !this.ann.pending ? { kind: 'keep', ref: this.annRef() } : { kind: 'none' };
      const library = annLibrary();
      if (!library) return { kind: 'none' };
      // Rows handed over a batch at a time from the segments: no second copy of every vector.
      const ids = [...this.where.keys()];
      const places = [...this.where.values()]; // as of now, whatever changes during the build
      const dims = this.dimensions;
      let buffer = new Float32Array(0);
      const snapshot = await AnnSnapshot.build(library, dims, ids, (start, end) => {
        if (buffer.length < (end - start) * dims) buffer = new Float32Array((end - start) * dims);
        for (let row = start; row < end; row++) {
          const at = places[row];
          buffer.set(at.segment.data.subarray(at.row * dims, (at.row + 1) * dims), (row - start) * dims);
        }
        return buffer.subarray(0, (end - start) * dims);
      });
      this.ann = { stem, pending: true, ids, held: new Set(ids), snapshot };
      this.annStale = new Set();
      this.annDelta = new Set();
      return { kind: 'write', ref: this.annRef(), snapshot };
    }
    return { kind: 'keep', ref: this.annRef() };
  }

  private annRef(): AnnSnapshotRef {
    const ann = this.ann as NonNullable<typeof this.ann>;
    return { stem: ann.stem, rows: ann.ids.length, replaced: [...this.annStale].filter((id) => this.where.has(id)) };
  }

  /** Forgets the snapshot: the search is exact until a save builds one. */
  dropAnn(): void {
    this.ann = undefined;
    this.annStale = new Set();
    this.annDelta = new Set();
  }

  /** Moves the live rows of `segments` into one new segment (pending: written by this save). */
  private compact(segments: Segment[]): void {
    const dims = this.dimensions;
    const merged = new Set(segments);
    const ids: string[] = [];
    const places: { segment: Segment; row: number }[] = [];
    for (const segment of segments) {
      segment.ids.forEach((id, row) => {
        const at = this.where.get(id);
        if (at && at.segment === segment && at.row === row) {
          ids.push(id);
          places.push(at);
        }
      });
    }
    const data = new Float32Array(ids.length * dims);
    places.forEach((at, row) => data.set(at.segment.data.subarray(at.row * dims, (at.row + 1) * dims), row * dims));
    const segment: Segment = {
      ref: { stem: '', rows: ids.length, dead: [] },
      ids,
      data,
      dead: new Uint8Array(ids.length),
      pending: true,
    };
    this.segments = [...this.segments.filter((s) => !merged.has(s)), ...(ids.length ? [segment] : [])];
    ids.forEach((id, row) => this.where.set(id, { segment, row }));
  }

  private markDead(segment: Segment, row: number): void {
    segment.dead[row] = 1;
  }
}

/** Whether `size` vectors should be searched through a snapshot (and the native module loads). */
export function annWanted(size: number): boolean {
  return size > 0 && size >= annMinVectors && annLibrary() !== undefined;
}

function deadRows(dead: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < dead.length; i++) if (dead[i]) out.push(i);
  return out;
}

/** Dot product of a row of `data` (from `offset`) with `q`, unrolled by four. */
function dot(data: Float32Array, offset: number, q: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    s0 += data[offset + d] * q[d];
    s1 += data[offset + d + 1] * q[d + 1];
    s2 += data[offset + d + 2] * q[d + 2];
    s3 += data[offset + d + 3] * q[d + 3];
  }
  for (; d < dims; d++) s0 += data[offset + d] * q[d];
  return s0 + s1 + s2 + s3;
}
