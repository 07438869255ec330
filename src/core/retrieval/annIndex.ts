// The approximate-nearest-neighbour side of the vector store: a usearch HNSW graph over int8
// copies of the vectors, used to find candidates fast; the store reranks them exactly from its
// Float32Array rows, so every score it returns is the exact cosine. usearch is a native module
// with prebuilt binaries for linux-x64/arm64, darwin and win32-x64; where it cannot load (win32-
// arm64, a broken binary) the store searches exactly, and the reason is logged once.
// A snapshot is one file (`ann-<gen>.usearch`, usearch's own format) plus the passage id of each
// key (`ann-<gen>.ids`, one per line, key = line number), written once and never changed. The
// manifest records the graph file's SHA-1 and it is checked before usearch reads the file: a
// damaged graph makes the native loader abort the whole process, so it must never see one.

import { createHash } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';
import type * as Usearch from 'usearch';

export type AnnLibrary = Pick<typeof Usearch, 'Index'>;

/** Graph degree and search breadth (measured in bench/vectorBench.ts). */
const CONNECTIVITY = 32;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 512;
/** Vectors added per native call while building. */
const BUILD_BATCH = 2048;

/** Platforms usearch ships a prebuilt binary for (elsewhere its loader recurses to the drive root). */
const PREBUILT = new Set(['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win32-x64']);

function requireUsearch(): AnnLibrary {
  const platform = `${process.platform}-${process.arch}`;
  if (!PREBUILT.has(platform)) throw new Error(`usearch has no prebuilt binary for ${platform}`);
  return require('usearch') as AnnLibrary;
}

let loader: () => AnnLibrary = requireUsearch;
let loaded: { library: AnnLibrary | undefined; reason?: string } | undefined;
let log: (message: string) => void = () => {};

/** The library, or undefined when the native module cannot load (then `annUnavailableReason`). */
export function annLibrary(): AnnLibrary | undefined {
  if (!loaded) {
    try {
      loaded = { library: loader() };
    } catch (error) {
      loaded = { library: undefined, reason: (error as Error).message.split('\n')[0] };
      log(
        `Vector search is exact (a full scan, slower above 10,000 passages): the usearch native module could not load on ${process.platform}-${process.arch} (${loaded.reason}).`,
      );
    }
  }
  return loaded.library;
}

export function annUnavailableReason(): string | undefined {
  annLibrary();
  return loaded?.reason;
}

/** Logs a message about vector search (a fallback to exact search and why). */
export function logAnn(message: string): void {
  log(message);
}

/** Where the fallback messages go (the engine's log). */
export function setAnnLog(sink: (message: string) => void): void {
  log = sink;
}

/** Replaces how the library is loaded (tests simulate a missing or broken binary with it). */
export function setAnnLoader(load: (() => AnnLibrary) | undefined): void {
  loader = load ?? requireUsearch;
  loaded = undefined;
}

export class AnnSnapshot {
  private readonly keyOf: Map<string, number>;

  private constructor(
    private readonly index: Usearch.Index,
    readonly ids: string[],
  ) {
    this.keyOf = new Map(ids.map((id, key) => [id, key]));
  }

  /** Keys in the file (removed ones included). */
  get size(): number {
    return this.ids.length;
  }

  /** Whether the graph holds `id` (and has not had it removed). */
  has(id: string): boolean {
    return this.keyOf.has(id);
  }

  /** Takes `id` out of the graph in memory (the file is never changed): searches skip it. */
  remove(id: string): void {
    const key = this.keyOf.get(id);
    if (key === undefined) return;
    this.index.remove(BigInt(key));
    this.keyOf.delete(id);
  }

  /**
   * Builds a graph over `ids` (vector i of `data` is `ids[i]`), in batches with the event loop
   * free between them (a 50k build takes seconds of native work).
   */
  /**
   * Builds a graph of `ids`; `rows` is either all their vectors, one row per id, or a function
   * that gives the rows `start..end` (a batch at a time: usearch copies what it is given, so a
   * store need not assemble a second copy of every vector for the build).
   */
  static async build(
    library: AnnLibrary,
    dimensions: number,
    ids: string[],
    rows: Float32Array | ((start: number, end: number) => Float32Array),
  ): Promise<AnnSnapshot> {
    const index = new library.Index({
      dimensions,
      metric: 'ip' as Usearch.MetricKind,
      quantization: 'i8' as Usearch.ScalarKind,
      connectivity: CONNECTIVITY,
      expansion_add: EXPANSION_ADD,
      expansion_search: EXPANSION_SEARCH,
      multi: false,
    });
    const batch =
      typeof rows === 'function'
        ? rows
        : (start: number, end: number) => rows.subarray(start * dimensions, end * dimensions);
    for (let start = 0; start < ids.length; start += BUILD_BATCH) {
      const end = Math.min(ids.length, start + BUILD_BATCH);
      index.add(
        BigUint64Array.from({ length: end - start }, (_, i) => BigInt(start + i)),
        batch(start, end),
      );
      if (end < ids.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return new AnnSnapshot(index, ids);
  }

  /**
   * Loads a saved snapshot; throws when the file is not the one saved (its SHA-1 differs), or not
   * a usearch index of these vectors (wrong dimensions, a count that does not match its ids).
   */
  static async load(
    library: AnnLibrary,
    file: string,
    dimensions: number,
    ids: string[],
    sha1: string,
  ): Promise<AnnSnapshot> {
    const actual = createHash('sha1')
      .update(await readFile(file))
      .digest('hex');
    if (actual !== sha1) {
      throw new Error(`${path.basename(file)} is not the file that was saved (its checksum differs)`);
    }
    const index = new library.Index({
      dimensions,
      metric: 'ip' as Usearch.MetricKind,
      quantization: 'i8' as Usearch.ScalarKind,
      connectivity: CONNECTIVITY,
      expansion_add: EXPANSION_ADD,
      expansion_search: EXPANSION_SEARCH,
      multi: false,
    });
    index.load(file);
    if (index.dimensions() !== dimensions) {
      throw new Error(
        `${path.basename(file)} holds vectors of ${index.dimensions()} dimensions, expected ${dimensions}`,
      );
    }
    if (index.size() !== ids.length) {
      throw new Error(`${path.basename(file)} holds ${index.size()} vectors for ${ids.length} ids`);
    }
    return new AnnSnapshot(index, ids);
  }

  /** The ids of the (about) `k` nearest keys, nearest first. */
  search(vector: Float32Array, k: number): string[] {
    const n = Math.min(k, this.keyOf.size);
    if (n <= 0) return [];
    const found = this.index.search(vector, n, 1);
    const out: string[] = [];
    for (let i = 0; i < found.keys.length; i++) {
      const id = this.ids[Number(found.keys[i])];
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  /** Writes the graph to `dir/name` through a temporary file; returns its byte length and SHA-1. */
  async save(dir: string, name: string): Promise<{ bytes: number; sha1: string }> {
    const file = path.join(dir, name);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      this.index.save(tmp);
      const content = await readFile(tmp);
      await rename(tmp, file);
      return { bytes: content.byteLength, sha1: createHash('sha1').update(content).digest('hex') };
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw error;
    }
  }
}
