// The lexical side of retrieval: a compact BM25 inverted index of our own. Each passage is one
// bag of terms from its text and its heading path (heading terms weighted up, BM25F-style), and
// a little of its file name; terms are lower-cased words without stop words, Porter-stemmed the
// way the verifier stems them. Postings are typed arrays (passage ordinal, weighted term
// frequency); a query scores only the postings of its few content terms into one reused array
// and keeps the top hits in a small heap. Removal marks a passage dead (document frequencies are
// corrected at once; postings are compacted when dead entries pile up). The index saves to one
// binary blob that loads into typed-array views without parsing.
//
// Interface (kept small on purpose: storage is built around it): empty / load(bytes) /
// serialize() / add(passages) / remove(ids) / has(id) / size / query(text, limit).

import { STOPWORDS, NEGATION_WORDS, stem } from '../text/terms';
import type { Passage } from '../../domain/types';

export interface LexicalHit {
  id: string;
  score: number;
}

/** BM25 parameters: the textbook values (the shared index's SQL uses them too). */
export const K1 = 1.2;
export const B = 0.75;
/** How passages and queries are analysed. Only the defaults are saved; the others exist so the
 * retrieval benchmark can show what each choice is worth (`npm run bench:retrieval -- --ablation`). */
export interface LexicalTuning {
  stopWords: boolean;
  stemming: boolean;
  /** A heading term counts this many times a text term (the heading names the passage's topic). */
  headingWeight: number;
  /** A file-name term counts this much (the file name names the document's topic). */
  sourceWeight: number;
}

export const DEFAULT_TUNING: Readonly<LexicalTuning> = {
  stopWords: true,
  stemming: true,
  headingWeight: 2,
  sourceWeight: 0.5,
};

/** Bump when the analysis or the weights change: a saved index of another version is rebuilt. */
const FORMAT = 1;
const MAGIC = 0x584c5645; // "EVLX" little-endian

const WORD = /[\p{L}\p{N}]+/gu;

/** Words that carry no retrieval signal: function words and negations (they are the verifier's cues, not topics). */
export function isRetrievalStopWord(word: string): boolean {
  return STOPWORDS.has(word) || NEGATION_WORDS.has(word);
}

/** Index terms of a text: lower-cased words, stop words and single letters dropped, stemmed. */
export function lexicalTerms(text: string, tuning: Readonly<LexicalTuning> = DEFAULT_TUNING): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (tuning.stopWords && ((word.length < 2 && !/\d/.test(word)) || isRetrievalStopWord(word))) continue;
    out.push(tuning.stemming ? stem(word) : word);
  }
  return out;
}

/**
 * A passage as one bag of terms: each term's weighted frequency (text 1, heading `headingWeight`,
 * file name `sourceWeight`) and the passage's weighted length. The shared index stores the same.
 */
export function passageTermWeights(
  p: Passage,
  tuning: Readonly<LexicalTuning> = DEFAULT_TUNING,
): { weights: Map<string, number>; length: number } {
  const weights = new Map<string, number>();
  let length = 0;
  const count = (text: string, weight: number) => {
    for (const term of lexicalTerms(text, tuning)) {
      weights.set(term, (weights.get(term) ?? 0) + weight);
      length += weight;
    }
  };
  count(p.text, 1);
  if (tuning.headingWeight) count(p.heading, tuning.headingWeight);
  if (tuning.sourceWeight) count(sourceTopic(p.source), tuning.sourceWeight);
  return { weights, length };
}

/** The topic words of a docs-relative path: its file name without extension ("github-username-policy"). */
function sourceTopic(source: string): string {
  const name = source.slice(source.lastIndexOf('/') + 1);
  return name.replace(/\.[^.]*$/, '');
}

class Postings {
  constructor(
    public docs: Uint32Array,
    public tfs: Float32Array,
    public length: number,
  ) {}

  static empty(): Postings {
    return new Postings(new Uint32Array(4), new Float32Array(4), 0);
  }

  push(doc: number, tf: number): void {
    if (this.length === this.docs.length) {
      const docs = new Uint32Array(Math.max(4, this.length * 2));
      const tfs = new Float32Array(docs.length);
      docs.set(this.docs.subarray(0, this.length));
      tfs.set(this.tfs.subarray(0, this.length));
      this.docs = docs;
      this.tfs = tfs;
    }
    this.docs[this.length] = doc;
    this.tfs[this.length] = tf;
    this.length++;
  }
}

export class LexicalIndex {
  /** Passage ordinal → id ('' once removed). */
  private ids: string[] = [];
  /** Id → ordinal, built on first use after a load (a query needs only `ids`). */
  private ordinalMap: Map<string, number> | undefined = new Map();
  /** Weighted length of each passage (0 once removed). */
  private lengths = new Float32Array(64);
  private alive = new Uint8Array(64);
  private live = 0;
  private totalLength = 0;
  private deadPostings = 0;
  private terms = new Map<string, number>();
  /** Per term; undefined while it is still only a range of the loaded blob (see `list`). */
  private postings: (Postings | undefined)[] = [];
  /** The loaded blob's postings: term t's are `offsets[t]..offsets[t + 1]`. */
  private loaded: { docs: Uint32Array; tfs: Float32Array; offsets: Uint32Array } | undefined;
  /** Live passages holding each term. */
  private df: number[] = [];
  /** Term ids of each passage, built on first removal after a load. */
  private docTerms: (Uint32Array | undefined)[] | undefined = [];
  private scores = new Float64Array(0);

  private constructor(private readonly tuning: Readonly<LexicalTuning> = DEFAULT_TUNING) {}

  static empty(tuning: Partial<LexicalTuning> = {}): LexicalIndex {
    return new LexicalIndex({ ...DEFAULT_TUNING, ...tuning });
  }

  get size(): number {
    return this.live;
  }

  has(id: string): boolean {
    return this.ordinals.has(id);
  }

  private get ordinals(): Map<string, number> {
    if (!this.ordinalMap) {
      this.ordinalMap = new Map();
      this.ids.forEach((id, doc) => {
        if (id) this.ordinalMap!.set(id, doc);
      });
    }
    return this.ordinalMap;
  }

  add(passages: Iterable<Passage>): void {
    for (const p of passages) {
      if (this.ordinals.has(p.id)) continue;
      const { weights, length } = passageTermWeights(p, this.tuning);

      const doc = this.ids.length;
      this.ids.push(p.id);
      this.ordinals.set(p.id, doc);
      this.ensureCapacity(doc + 1);
      this.lengths[doc] = length;
      this.alive[doc] = 1;
      this.live++;
      this.totalLength += length;
      const termIds = new Uint32Array(weights.size);
      let i = 0;
      for (const [term, weight] of weights) {
        let t = this.terms.get(term);
        if (t === undefined) {
          t = this.postings.length;
          this.terms.set(term, t);
          this.postings.push(Postings.empty());
          this.df.push(0);
        }
        this.list(t).push(doc, weight);
        this.df[t]++;
        termIds[i++] = t;
      }
      if (this.docTerms) this.docTerms[doc] = termIds;
    }
  }

  remove(ids: Iterable<string>): void {
    const removed: number[] = [];
    for (const id of ids) {
      const doc = this.ordinals.get(id);
      if (doc === undefined) continue;
      removed.push(doc);
      this.ordinals.delete(id);
      this.ids[doc] = '';
      this.alive[doc] = 0;
      this.totalLength -= this.lengths[doc];
      this.lengths[doc] = 0;
      this.live--;
    }
    if (!removed.length) return;
    if (this.docTerms) {
      for (const doc of removed) {
        const termIds = this.docTerms[doc] ?? new Uint32Array(0);
        for (const t of termIds) this.df[t]--;
        this.deadPostings += termIds.length;
        this.docTerms[doc] = undefined;
      }
    } else {
      // After a load there are no per-passage term lists: one pass over the postings finds the
      // removed passages' terms (cheaper than building the lists for every passage).
      const gone = new Uint8Array(this.ids.length);
      for (const doc of removed) gone[doc] = 1;
      for (let t = 0; t < this.postings.length; t++) {
        const list = this.list(t);
        for (let i = 0; i < list.length; i++) {
          if (gone[list.docs[i]] === 1) {
            this.df[t]--;
            this.deadPostings++;
          }
        }
      }
    }
    if (this.deadPostings > 1024 && this.deadPostings > this.livePostings()) this.compact();
  }

  query(text: string, limit: number): LexicalHit[] {
    if (this.live === 0 || limit <= 0) return [];
    const termIds = [...new Set(lexicalTerms(text, this.tuning))]
      .map((w) => this.terms.get(w))
      .filter((t): t is number => t !== undefined && this.df[t] > 0);
    if (termIds.length === 0) return [];
    const n = this.live;
    const avgLength = this.totalLength / n;
    if (this.scores.length < this.ids.length) this.scores = new Float64Array(this.ids.length);
    const scores = this.scores;
    const touched: number[] = [];
    for (const t of termIds) {
      const df = this.df[t];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const { docs, tfs, length } = this.list(t);
      for (let i = 0; i < length; i++) {
        const doc = docs[i];
        if (this.alive[doc] === 0) continue;
        const tf = tfs[i];
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[doc]) / avgLength));
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] += s;
      }
    }
    const hits = topByScore(touched, scores, limit, this.ids).map((doc) => ({ id: this.ids[doc], score: scores[doc] }));
    for (const doc of touched) scores[doc] = 0;
    return hits;
  }

  /** The index as one binary blob (live passages only, renumbered). */
  serialize(): Uint8Array {
    const tuned = (Object.keys(DEFAULT_TUNING) as (keyof LexicalTuning)[]).some(
      (k) => this.tuning[k] !== DEFAULT_TUNING[k],
    );
    if (tuned) throw new Error('only an index with the default tuning is saved');
    const liveDocs: number[] = [];
    const renumber = new Int32Array(this.ids.length).fill(-1);
    for (let d = 0; d < this.ids.length; d++) {
      if (this.alive[d]) {
        renumber[d] = liveDocs.length;
        liveDocs.push(d);
      }
    }
    const termNames: string[] = [];
    const termPostings: Postings[] = [];
    let postingCount = 0;
    for (const [term, t] of this.terms) {
      if (this.df[t] === 0) continue;
      termNames.push(term);
      termPostings.push(this.list(t));
      postingCount += this.df[t];
    }
    const encoder = new TextEncoder();
    const idBytes = encoder.encode(liveDocs.map((d) => this.ids[d]).join('\n'));
    const termBytes = encoder.encode(termNames.join('\n'));
    const pad = (n: number) => (n + 3) & ~3;
    const headerBytes = 4 * 8;
    const total =
      headerBytes +
      pad(idBytes.length) +
      pad(termBytes.length) +
      4 * liveDocs.length +
      4 * (termNames.length + 1) +
      8 * postingCount;
    const buffer = new ArrayBuffer(total);
    const view = new DataView(buffer);
    const header = [
      MAGIC,
      FORMAT,
      liveDocs.length,
      termNames.length,
      postingCount,
      idBytes.length,
      termBytes.length,
      0,
    ];
    header.forEach((v, i) => view.setUint32(4 * i, v, true));
    let offset = headerBytes;
    new Uint8Array(buffer, offset, idBytes.length).set(idBytes);
    offset += pad(idBytes.length);
    new Uint8Array(buffer, offset, termBytes.length).set(termBytes);
    offset += pad(termBytes.length);
    const lengths = new Float32Array(buffer, offset, liveDocs.length);
    liveDocs.forEach((d, i) => (lengths[i] = this.lengths[d]));
    offset += 4 * liveDocs.length;
    const termOffsets = new Uint32Array(buffer, offset, termNames.length + 1);
    offset += 4 * (termNames.length + 1);
    const docs = new Uint32Array(buffer, offset, postingCount);
    const tfs = new Float32Array(buffer, offset + 4 * postingCount, postingCount);
    let p = 0;
    termPostings.forEach((list, i) => {
      termOffsets[i] = p;
      for (let j = 0; j < list.length; j++) {
        const doc = renumber[list.docs[j]];
        if (doc < 0) continue;
        docs[p] = doc;
        tfs[p] = list.tfs[j];
        p++;
      }
    });
    termOffsets[termNames.length] = p;
    return new Uint8Array(buffer);
  }

  /** Loads a blob written by `serialize`; throws on anything else (the caller rebuilds). */
  static load(bytes: Uint8Array): LexicalIndex {
    // Typed-array views need 4-byte alignment: copy the rare unaligned input.
    const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    if (data.byteLength < 32) throw new Error('the lexical index is truncated');
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const [magic, format, docCount, termCount, postingCount, idLength, termLength] = Array.from({ length: 7 }, (_, i) =>
      view.getUint32(4 * i, true),
    );
    if (magic !== MAGIC) throw new Error('not a lexical index');
    if (format !== FORMAT) throw new Error(`lexical index format ${format}, expected ${FORMAT}`);
    const pad = (n: number) => (n + 3) & ~3;
    const expected = 32 + pad(idLength) + pad(termLength) + 4 * docCount + 4 * (termCount + 1) + 8 * postingCount;
    if (data.byteLength !== expected) throw new Error('the lexical index is truncated or corrupt');
    const decoder = new TextDecoder();
    let offset = data.byteOffset + 32;
    const ids = docCount ? decoder.decode(new Uint8Array(data.buffer, offset, idLength)).split('\n') : [];
    offset += pad(idLength);
    const termNames = termCount ? decoder.decode(new Uint8Array(data.buffer, offset, termLength)).split('\n') : [];
    offset += pad(termLength);
    if (ids.length !== docCount || termNames.length !== termCount) throw new Error('the lexical index is corrupt');
    const lengths = new Float32Array(data.buffer, offset, docCount);
    offset += 4 * docCount;
    const termOffsets = new Uint32Array(data.buffer, offset, termCount + 1);
    offset += 4 * (termCount + 1);
    const docs = new Uint32Array(data.buffer, offset, postingCount);
    const tfs = new Float32Array(data.buffer, offset + 4 * postingCount, postingCount);
    for (let i = 0; i < postingCount; i++) {
      if (docs[i] >= docCount || !(tfs[i] > 0)) throw new Error('the lexical index is corrupt');
    }

    const index = new LexicalIndex();
    index.ids = ids;
    index.ordinalMap = undefined; // built on first use: a query does not need it
    index.ensureCapacity(docCount);
    index.lengths.set(lengths);
    index.alive.fill(1, 0, docCount);
    index.live = docCount;
    for (let d = 0; d < docCount; d++) index.totalLength += lengths[d];
    // A term's postings become a view on the blob when first used (`list`): a query touches few.
    index.loaded = { docs, tfs, offsets: termOffsets };
    index.postings = Array.from({ length: termCount }, () => undefined);
    for (let i = 0; i < termCount; i++) {
      const start = termOffsets[i];
      const end = termOffsets[i + 1];
      if (end < start || end > postingCount) throw new Error('the lexical index is corrupt');
      index.terms.set(termNames[i], i);
      index.df.push(end - start);
    }
    index.docTerms = undefined; // removals scan the postings instead
    return index;
  }

  /**
   * Checks the header of a saved index (its 32 first bytes) against the file's length without
   * reading the rest: throws what `load` would throw for a foreign, outdated or cut-off file.
   */
  static checkHeader(header: Uint8Array, fileBytes: number): void {
    if (header.byteLength < 32 || fileBytes < 32) throw new Error('the lexical index is truncated');
    const view = new DataView(header.buffer, header.byteOffset, 32);
    const [magic, format, docCount, termCount, postingCount, idLength, termLength] = Array.from({ length: 7 }, (_, i) =>
      view.getUint32(4 * i, true),
    );
    if (magic !== MAGIC) throw new Error('not a lexical index');
    if (format !== FORMAT) throw new Error(`lexical index format ${format}, expected ${FORMAT}`);
    const pad = (n: number) => (n + 3) & ~3;
    if (fileBytes !== 32 + pad(idLength) + pad(termLength) + 4 * docCount + 4 * (termCount + 1) + 8 * postingCount) {
      throw new Error('the lexical index is truncated or corrupt');
    }
  }

  private ensureCapacity(n: number): void {
    if (n <= this.lengths.length) return;
    const size = Math.max(n, this.lengths.length * 2);
    const lengths = new Float32Array(size);
    lengths.set(this.lengths);
    const alive = new Uint8Array(size);
    alive.set(this.alive);
    this.lengths = lengths;
    this.alive = alive;
  }

  /** Term t's postings (a view on the loaded blob the first time, made once). */
  private list(t: number): Postings {
    let list = this.postings[t];
    if (!list) {
      const { docs, tfs, offsets } = this.loaded!;
      const start = offsets[t];
      const end = offsets[t + 1];
      list = new Postings(docs.subarray(start, end), tfs.subarray(start, end), end - start);
      this.postings[t] = list;
    }
    return list;
  }

  private livePostings(): number {
    return this.df.reduce((a, b) => a + b, 0);
  }

  /**
   * Drops dead passages from the postings (ordinals are kept, so nothing else moves). Into new
   * arrays: after `load`, postings are views on the caller's bytes, which are never written.
   */
  private compact(): void {
    this.postings = this.postings.map((_, t) => {
      const list = this.list(t);
      const docs = new Uint32Array(Math.max(4, this.df[t]));
      const tfs = new Float32Array(docs.length);
      let w = 0;
      for (let i = 0; i < list.length; i++) {
        if (this.alive[list.docs[i]] === 0) continue;
        docs[w] = list.docs[i];
        tfs[w] = list.tfs[i];
        w++;
      }
      return new Postings(docs, tfs, w);
    });
    this.deadPostings = 0;
  }
}

/** The `limit` best documents by score (ties: the smaller id first), best first. */
function topByScore(docs: number[], scores: Float64Array, limit: number, ids: string[]): number[] {
  const better = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && ids[a] < ids[b]);
  // A min-heap of the best `limit` so far: the root is the worst kept.
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!better(heap[parent], heap[i])) break;
      [heap[parent], heap[i]] = [heap[i], heap[parent]];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && better(heap[worst], heap[l])) worst = l;
      if (r < heap.length && better(heap[worst], heap[r])) worst = r;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i], heap[worst]];
      i = worst;
    }
  };
  for (const doc of docs) {
    if (heap.length < limit) {
      heap.push(doc);
      up(heap.length - 1);
    } else if (better(doc, heap[0])) {
      heap[0] = doc;
      down(0);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}
