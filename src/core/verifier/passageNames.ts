// A passage's names looked up without reading all of it: what `passageStems` (names.ts) gives,
// asked one name at a time. Most words of a passage are plain (ASCII letters and digits): their
// forms are the word lower-cased and, written in camel case ("MemorialBettws"), its parts; a
// plain word is made a string and stemmed only when it starts like the stem asked for (all of a
// Porter stem but its last letter is a prefix of its word, as passageScan.ts relies on). Every
// other word is read as `passageStems` reads it, once; so are acronyms written with stops, and
// the runs of capitalised words only when an acronym is asked for. The words are the tokens
// passageScan.ts found in the lower-cased passage when lower-casing kept its length (no lower
// case is shorter, and a letter's is a letter: the tokens are the same) and there is no Kelvin
// sign (the one character whose lower case is ASCII at the same length: a plain token there).

import { addStoppedAcronyms, addWordForms, type NameLookup, runAcronyms } from './names';
import { stem, TokenScanner } from '../text/terms';
import type { PreparedPassage } from './passageScan';

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;

/** One reading of the passage: plain words by range, the rest as `passageStems` gives them. */
interface Scan {
  /** Start and end of each plain word, and of each of its camel-case parts when it has two or more. */
  ranges: Int32Array;
  /** Its first three characters lower-cased, seven bits each, the first in the low bits (0 past its end). */
  heads: Int32Array;
  count: number;
  /** Stems of the other words (and their parts). */
  stems: Set<string>;
  /** Acronyms written in capitals, of every word. */
  written: Set<string>;
}

export class PassageNameReader implements NameLookup {
  private scan: Scan | undefined;
  private stopped: { stems: Set<string>; written: Set<string> } | undefined;
  private allWritten: Set<string> | undefined;
  private runs: Set<string> | undefined;
  private readonly known = new Map<string, boolean>();

  readonly stems = { has: (s: string): boolean => this.hasStem(s) };

  constructor(
    private readonly text: string,
    private readonly prepared?: PreparedPassage,
  ) {}

  get acronyms(): ReadonlySet<string> {
    return (this.runs ??= runAcronyms(this.text));
  }

  get written(): ReadonlySet<string> {
    return (this.allWritten ??= new Set([...this.read().written, ...this.stoppedAcronyms().written]));
  }

  private hasStem(s: string): boolean {
    let found = this.known.get(s);
    if (found === undefined) {
      found = this.plainWordHas(s) || this.read().stems.has(s) || this.stoppedAcronyms().stems.has(s);
      this.known.set(s, found);
    }
    return found;
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
    const { ranges, heads, count } = this.read();
    // The word's first k characters, lower-cased, must be the stem's (plain words are ASCII).
    const k = Math.min(3, s.length - 1);
    let head = 0;
    for (let i = 0; i < k; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128) return false;
      head |= c << (7 * i);
    }
    const mask = (1 << (7 * Math.max(0, k))) - 1;
    const text = this.text;
    for (let w = 0; w < count; w++) {
      if ((heads[w] & mask) !== head) continue;
      const start = ranges[2 * w];
      const end = ranges[2 * w + 1];
      if (stem(text.slice(start, end).toLowerCase()) === s) return true;
    }
    return false;
  }

  private read(): Scan {
    if (this.scan) return this.scan;
    const text = this.text;
    const scan: Scan = {
      ranges: new Int32Array(256),
      heads: new Int32Array(128),
      count: 0,
      stems: new Set(),
      written: new Set(),
    };
    const push = (start: number, end: number): void => {
      if (2 * scan.count + 2 > scan.ranges.length) {
        const grown = new Int32Array(2 * scan.ranges.length);
        grown.set(scan.ranges);
        scan.ranges = grown;
        const heads = new Int32Array(scan.ranges.length >> 1);
        heads.set(scan.heads);
        scan.heads = heads;
      }
      scan.ranges[2 * scan.count] = start;
      scan.ranges[2 * scan.count + 1] = end;
      let head = 0;
      for (let i = 0; i < 3 && start + i < end; i++) head |= (text.charCodeAt(start + i) | 32) << (7 * i);
      scan.heads[scan.count] = head;
      scan.count++;
      // /^\p{Lu}{3,}$/u on ASCII: capitals only.
      if (end - start < 3) return;
      for (let i = start; i < end; i++) if (!isUpper(text.charCodeAt(i))) return;
      scan.written.add(text.slice(start, end).toLowerCase());
    };
    const word = (start: number, end: number, plain: boolean): void => {
      if (!plain) {
        addWordForms(text.slice(start, end), scan.stems, scan.written);
        return;
      }
      push(start, end);
      // The parts split where a lower-case letter meets a capital (/(?<=\p{Ll})(?=\p{Lu})/u on ASCII).
      let from = start;
      for (let i = start + 1; i < end; i++) {
        if (isUpper(text.charCodeAt(i)) && isLower(text.charCodeAt(i - 1))) {
          push(from, i);
          from = i;
        }
      }
      if (from > start) push(from, end);
    };
    const prepared = this.prepared;
    // Lower-casing keeps every token when it keeps the length, but the Kelvin sign becomes an ASCII "k".
    if (prepared && prepared.lower.length === text.length && !text.includes('\u212a')) {
      const t = prepared.tokens;
      for (let i = 0; i < t.length; i += 3) word(t[i], t[i + 1], t[i + 2] >= 0);
    } else {
      const tokens = new TokenScanner(text);
      while (tokens.next()) word(tokens.start, tokens.end, tokens.plain);
    }
    this.scan = scan;
    return scan;
  }
}
