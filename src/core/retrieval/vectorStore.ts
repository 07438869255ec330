// The dense side of retrieval: passage vectors in contiguous Float32Arrays, searched exactly
// (a dot-product scan; vectors are normalised, so it is the cosine). Storage is a list of
// segments, each written once by one indexing run (`vectors-<gen>.f32` rows + `vectors-<gen>.ids`
// ids): an edit appends a small segment and marks the rows it replaces as dead; compaction
// rewrites the live rows into one segment when dead rows or segments pile up. Files are written
// by the index's store (write-then-rename, lengths in the manifest); this class holds the data.

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

export class VectorStore {
  private segments: Segment[] = [];
  private where = new Map<string, { segment: Segment; row: number }>();

  constructor(readonly dimensions: number) {}

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
      throw new Error(`vector segment ${ref.stem} holds ${ids.length} ids and ${data.length / this.dimensions} rows, expected ${ref.rows}`);
    }
    const segment: Segment = { ref: { ...ref, dead: [...ref.dead] }, ids, data, dead: new Uint8Array(ref.rows), pending: false };
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
    const segment: Segment = { ref: { stem: '', rows: items.length, dead: [] }, ids: items.map((i) => i.id), data, dead: new Uint8Array(items.length), pending: true };
    items.forEach((item, row) => {
      if (item.vector.length !== this.dimensions) throw new Error(`a vector of ${item.vector.length} dimensions in a store of ${this.dimensions}`);
      data.set(item.vector, row * this.dimensions);
    });
    this.segments.push(segment);
    items.forEach((item, row) => {
      const previous = this.where.get(item.id);
      if (previous) this.markDead(previous.segment, previous.row);
      this.where.set(item.id, { segment, row });
    });
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      const at = this.where.get(id);
      if (!at) continue;
      this.markDead(at.segment, at.row);
      this.where.delete(id);
    }
  }

  /** Exact top-k by dot product over every live row. */
  query(vector: Float32Array, k: number): VectorHit[] {
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
  planSave(newStem: () => string): { write: { stem: string; ids: string[]; data: Float32Array }[]; refs: VectorSegmentRef[]; compacted: boolean } {
    this.segments = this.segments.filter((s) => s.ids.length > 0 && s.dead.some((d) => !d));
    const total = this.segments.reduce((n, s) => n + s.ids.length, 0);
    const compacted = this.segments.length > MAX_SEGMENTS || (total > 0 && (total - this.size) / total > MAX_DEAD_SHARE);
    if (compacted) this.compact();
    const write: { stem: string; ids: string[]; data: Float32Array }[] = [];
    for (const segment of this.segments) {
      if (!segment.pending) continue;
      segment.ref = { stem: newStem(), rows: segment.ids.length, dead: deadRows(segment.dead) };
      write.push({ stem: segment.ref.stem, ids: segment.ids, data: segment.data });
    }
    return { write, refs: this.segments.map((s) => ({ ...s.ref, dead: deadRows(s.dead) })), compacted };
  }

  /** Called once the planned segments are on disk and committed. */
  markSaved(): void {
    for (const segment of this.segments) segment.pending = false;
  }

  private compact(): void {
    const dims = this.dimensions;
    const ids = [...this.where.keys()];
    const data = new Float32Array(ids.length * dims);
    ids.forEach((id, row) => {
      const at = this.where.get(id);
      if (at) data.set(at.segment.data.subarray(at.row * dims, (at.row + 1) * dims), row * dims);
    });
    const segment: Segment = { ref: { stem: '', rows: ids.length, dead: [] }, ids, data, dead: new Uint8Array(ids.length), pending: true };
    this.segments = ids.length ? [segment] : [];
    this.where = new Map(ids.map((id, row) => [id, { segment, row }]));
  }

  private markDead(segment: Segment, row: number): void {
    segment.dead[row] = 1;
  }
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
