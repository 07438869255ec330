// A passage's names looked up without reading all of it: what `passageStems` (names.ts) gives,
// asked one name at a time. Most words of a passage are plain (ASCII letters and digits): their
// forms are the word lower-cased and, written in camel case ("MemorialBettws"), its parts; a
// plain word is made a string and stemmed only when it starts like the stem asked for (all of a
// Porter stem but its last letter is a prefix of its word, as passageScan.ts relies on). The
// words are the tokens passageScan.ts found, with their prefix codes: nothing is copied or
// allocated per word. The camel-case words are found by one native pattern over the passage,
// every other word is read as `passageStems` reads it, once; so are acronyms written with stops,
// and the runs of capitalised words only when an acronym is asked for. The prepared tokens serve
// when lower-casing kept the passage's length (no lower case is shorter, and a letter's is a
// letter: the tokens are the same) and there is no Kelvin sign (the one character whose lower
// case is ASCII at the same length: a plain token there); otherwise the passage is scanned here.
// A passage kept for many sentences (passageCache.ts) is read whole at once instead (`prepare`):
// then a name's stem is one set lookup, the plain words' stems those its prepared index read.

import { addStoppedAcronyms, addWordForms, type NameLookup, runAcronyms } from './names';
import { stem, TokenScanner } from '../text/terms';
import { type PreparedPassage, prefixCode } from './passageScan';

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;

// A lower-case letter before a capital: where a plain word splits into camel-case parts.
const CAMEL = /[a-z][A-Z]/g;

export class PassageNameReader implements NameLookup {
  /** Start, end and prefix code (of its lower case; -1 when not plain) of each token. */
  private tokens: Int32Array | undefined;
  /** Start and end of each camel-case part of a plain word ("Memorial", "Bettws"), and its prefix code. */
  private parts: number[] | undefined;
  /** Stems and written acronyms of the words that are not plain (and their parts). */
  private others: { stems: Set<string>; written: Set<string> } | undefined;
  private stopped: { stems: Set<string>; written: Set<string> } | undefined;
  private allWritten: Set<string> | undefined;
  private runs: Set<string> | undefined;
  /** Every stem `hasStem` can find, once `prepare` has read them all (with the prepared passage's plain words' stems). */
  private allStems: Set<string> | undefined;
  private preparedStems: ReadonlySet<string> | undefined;
  private readonly known = new Map<string, boolean>();
  private readonly writtenKnown = new Map<string, boolean>();

  readonly stems = { has: (s: string): boolean => this.hasStem(s) };

  constructor(
    private readonly text: string,
    private readonly prepared?: PreparedPassage,
  ) {}

  get acronyms(): ReadonlySet<string> {
    return (this.runs ??= runAcronyms(this.text));
  }

  get written(): ReadonlySet<string> {
    return (this.allWritten ??= new Set([...this.writtenInWords(), ...this.stoppedAcronyms().written]));
  }

  /**
   * `written.has(acronym)` without building `written`: a plain word or camel-case part in capitals
   * is looked for by its prefix code and length, and only the words that are not plain are read.
   */
  writes(acronym: string): boolean {
    if (this.allWritten) return this.allWritten.has(acronym);
    let found = this.writtenKnown.get(acronym);
    if (found === undefined) {
      found =
        this.plainCapitals(acronym) ||
        this.otherWords().written.has(acronym) ||
        this.stoppedAcronyms().written.has(acronym);
      this.writtenKnown.set(acronym, found);
    }
    return found;
  }

  /**
   * Reads every word now (a passage prepared for many sentences): the stems of all its words in
   * one set, so that a name's lookup is one set lookup, and its stopped acronyms.
   */
  prepare(): void {
    if (this.allStems) return;
    const stems = new Set<string>([...this.otherWords().stems, ...this.stoppedAcronyms().stems]);
    const tokens = this.tokenTable();
    const text = this.text;
    if (tokens === this.prepared?.tokens) {
      // The prepared passage has stemmed its plain words already (the same words: see `tokenTable`).
      this.preparedStems = this.prepared.plainStems;
    } else {
      for (let t = 0; t < tokens.length; t += 3) {
        if (tokens[t + 2] >= 0) stems.add(stem(text.slice(tokens[t], tokens[t + 1]).toLowerCase()));
      }
    }
    const parts = this.camelParts();
    for (let p = 0; p < parts.length; p += 3) stems.add(stem(text.slice(parts[p], parts[p + 1]).toLowerCase()));
    this.allStems = stems;
  }

  /** About how many bytes it keeps alive (see passageCache.ts `approximateBytes`). */
  approximateBytes(): number {
    const set = (s: ReadonlySet<string> | undefined): number => {
      if (!s) return 0;
      let bytes = 16 + 24 * s.size;
      for (const w of s) bytes += 16 + w.length;
      return bytes;
    };
    let bytes = 128 + set(this.allStems) + set(this.allWritten) + set(this.runs);
    if (this.tokens && this.tokens !== this.prepared?.tokens) bytes += this.tokens.byteLength;
    if (this.parts) bytes += 16 + 8 * this.parts.length;
    for (const found of [this.others, this.stopped]) if (found) bytes += set(found.stems) + set(found.written);
    return bytes + 40 * (this.known.size + this.writtenKnown.size);
  }

  private hasStem(s: string): boolean {
    if (this.allStems) return this.allStems.has(s) || this.preparedStems?.has(s) === true;
    let found = this.known.get(s);
    if (found === undefined) {
      found = this.plainWordHas(s) || this.otherWords().stems.has(s) || this.stoppedAcronyms().stems.has(s);
      this.known.set(s, found);
    }
    return found;
  }

  /**
   * A plain word or camel-case part written in capitals, three or more, whose lower case is
   * `acronym` (what `writtenInWords` adds for plain words): only ASCII lower-case letters can be one.
   */
  private plainCapitals(acronym: string): boolean {
    if (acronym.length < 3) return false;
    for (let i = 0; i < acronym.length; i++) if (!isLower(acronym.charCodeAt(i))) return false;
    const code = prefixCode(acronym, 0, 3);
    const capitals = (start: number, end: number): boolean => {
      if (end - start !== acronym.length) return false;
      for (let i = start; i < end; i++) {
        const c = this.text.charCodeAt(i);
        if (!isUpper(c) || (c | 32) !== acronym.charCodeAt(i - start)) return false;
      }
      return true;
    };
    const tokens = this.tokenTable();
    for (let t = 0; t < tokens.length; t += 3) {
      if (tokens[t + 2] === code && capitals(tokens[t], tokens[t + 1])) return true;
    }
    const parts = this.camelParts();
    for (let p = 0; p < parts.length; p += 3) {
      if (parts[p + 2] === code && capitals(parts[p], parts[p + 1])) return true;
    }
    return false;
  }

  private stoppedAcronyms(): { stems: Set<string>; written: Set<string> } {
    if (!this.stopped) {
      this.stopped = { stems: new Set(), written: new Set() };
      addStoppedAcronyms(this.text, this.stopped.stems, this.stopped.written);
    }
    return this.stopped;
  }

  /** A plain word (or camel-case part) of the passage whose stem is `s`. */
  private plainWordHas(s: string): boolean {
    const tokens = this.tokenTable();
    // The word's first k characters, lower-cased, must be the stem's (plain words are ASCII).
    const k = Math.max(0, Math.min(3, s.length - 1));
    for (let i = 0; i < k; i++) if (s.charCodeAt(i) >= 128) return false;
    const head = prefixCode(s, 0, k);
    const mask = (1 << (6 * k)) - 1;
    const text = this.text;
    for (let t = 0; t < tokens.length; t += 3) {
      const code = tokens[t + 2];
      if (code < 0 || (code & mask) !== head) continue;
      if (stem(text.slice(tokens[t], tokens[t + 1]).toLowerCase()) === s) return true;
    }
    const parts = this.camelParts();
    for (let p = 0; p < parts.length; p += 3) {
      if ((parts[p + 2] & mask) !== head) continue;
      if (stem(text.slice(parts[p], parts[p + 1]).toLowerCase()) === s) return true;
    }
    return false;
  }

  /** Start, end and prefix code of each token: the prepared passage's when they are the text's, else a scan of the text. */
  private tokenTable(): Int32Array {
    if (this.tokens) return this.tokens;
    const prepared = this.prepared;
    const text = this.text;
    // Lower-casing keeps every token when it keeps the length, but the Kelvin sign becomes an ASCII "k".
    if (prepared && prepared.lower.length === text.length && !text.includes('\u212a')) {
      this.tokens = prepared.tokens;
    } else {
      const found: number[] = [];
      const scanner = new TokenScanner(text);
      while (scanner.next()) {
        const { start, end } = scanner;
        const code = scanner.plain ? prefixCode(text.slice(start, Math.min(end, start + 3)).toLowerCase(), 0, 3) : -1;
        found.push(start, end, code);
      }
      this.tokens = Int32Array.from(found);
    }
    return this.tokens;
  }

  /** Index (into the token table) of the token holding character `at`: the last starting at or before it. */
  private tokenAt(at: number): number {
    const tokens = this.tokenTable();
    let lo = 0;
    let hi = tokens.length / 3 - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tokens[3 * mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return 3 * lo;
  }

  /** The camel-case parts of the plain words: where a lower-case letter meets a capital (/(?<=\p{Ll})(?=\p{Lu})/u on ASCII). */
  private camelParts(): number[] {
    if (this.parts) return this.parts;
    const parts: number[] = [];
    const tokens = this.tokenTable();
    const text = this.text;
    let last = -1;
    CAMEL.lastIndex = 0;
    for (let m = CAMEL.exec(text); m; m = CAMEL.exec(text)) {
      // Two adjacent letters are in one token; each plain word is split once.
      const t = this.tokenAt(m.index);
      CAMEL.lastIndex = m.index + 1;
      if (t === last || tokens[t + 2] < 0 || tokens[t + 1] <= m.index) continue;
      last = t;
      const start = tokens[t];
      const end = tokens[t + 1];
      let from = start;
      const push = (a: number, b: number): void => {
        parts.push(a, b, prefixCode(text.slice(a, Math.min(b, a + 3)).toLowerCase(), 0, 3));
      };
      for (let i = start + 1; i < end; i++) {
        if (isUpper(text.charCodeAt(i)) && isLower(text.charCodeAt(i - 1))) {
          push(from, i);
          from = i;
        }
      }
      push(from, end);
    }
    CAMEL.lastIndex = 0;
    this.parts = parts;
    return parts;
  }

  /** Stems and written acronyms of the words that are not plain, read as `passageStems` reads them. */
  private otherWords(): { stems: Set<string>; written: Set<string> } {
    if (this.others) return this.others;
    const stems = new Set<string>();
    const written = new Set<string>();
    const tokens = this.tokenTable();
    for (let t = 0; t < tokens.length; t += 3) {
      if (tokens[t + 2] < 0) addWordForms(this.text.slice(tokens[t], tokens[t + 1]), stems, written);
    }
    this.others = { stems, written };
    return this.others;
  }

  /** Acronyms written in capitals, of every word and camel-case part, in the passage's order. */
  private writtenInWords(): Set<string> {
    const text = this.text;
    const written = new Set<string>();
    const unused = new Set<string>();
    // /^\p{Lu}{3,}$/u on ASCII: capitals only.
    const capitals = (start: number, end: number): void => {
      if (end - start < 3) return;
      for (let i = start; i < end; i++) if (!isUpper(text.charCodeAt(i))) return;
      written.add(text.slice(start, end).toLowerCase());
    };
    const tokens = this.tokenTable();
    for (let t = 0; t < tokens.length; t += 3) {
      const start = tokens[t];
      const end = tokens[t + 1];
      if (tokens[t + 2] < 0) {
        addWordForms(text.slice(start, end), unused, written);
        continue;
      }
      capitals(start, end);
      let from = start;
      for (let i = start + 1; i < end; i++) {
        if (isUpper(text.charCodeAt(i)) && isLower(text.charCodeAt(i - 1))) {
          capitals(from, i);
          from = i;
        }
      }
      if (from > start) capitals(from, end);
    }
    return written;
  }
}
