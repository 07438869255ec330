// A passage's names looked up without reading all of it: what `passageStems` (names.ts) gives,
// asked one name at a time. Most names a sentence states are in its passage as a plain word
// (ASCII letters and digits, or a part of one written in camel case, "MemorialBettws"), whose
// stem is that word's: such a word is found by reading only the words that start like the name's
// stem (all of a Porter stem but its last letter is a prefix of its word; see passageScan.ts). A
// name not met that way, and every acronym lookup, reads the whole passage as `passageStems`
// does, once: a name is never reported missing without it.

import { type NameLookup, type PassageNames, passageStems } from './names';
import { stem, TokenScanner } from './terms';

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;

export class PassageNameReader implements NameLookup {
  /** Start and end of each plain word, and of each part of one in camel case (parts only when it has two or more). */
  private words: Int32Array | undefined;
  private count = 0;
  private whole: PassageNames | undefined;
  private readonly known = new Map<string, boolean>();

  readonly stems = { has: (s: string): boolean => this.hasStem(s) };

  constructor(private readonly text: string) {}

  get acronyms(): ReadonlySet<string> {
    return this.read().acronyms;
  }

  get written(): ReadonlySet<string> {
    return this.read().written;
  }

  private read(): PassageNames {
    return (this.whole ??= passageStems(this.text));
  }

  private hasStem(s: string): boolean {
    let found = this.known.get(s);
    if (found === undefined) {
      found = (this.whole === undefined && this.plainWordHas(s)) || this.read().stems.has(s);
      this.known.set(s, found);
    }
    return found;
  }

  /** A plain word (or camel-case part) of the passage whose stem is `s`: found means `passageStems` holds it. */
  private plainWordHas(s: string): boolean {
    const words = this.wordRanges();
    const k = Math.min(3, s.length - 1);
    const text = this.text;
    for (let w = 0; w < this.count; w++) {
      const start = words[2 * w];
      const end = words[2 * w + 1];
      if (end - start < k) continue;
      let same = true;
      for (let i = 0; i < k && same; i++) {
        const c = text.charCodeAt(start + i);
        same = (isUpper(c) ? c | 32 : c) === s.charCodeAt(i);
      }
      if (same && stem(text.slice(start, end).toLowerCase()) === s) return true;
    }
    return false;
  }

  private wordRanges(): Int32Array {
    if (this.words) return this.words;
    const text = this.text;
    let words = new Int32Array(64);
    const push = (start: number, end: number): void => {
      if (2 * this.count + 2 > words.length) {
        const grown = new Int32Array(2 * words.length);
        grown.set(words);
        words = grown;
      }
      words[2 * this.count] = start;
      words[2 * this.count + 1] = end;
      this.count++;
    };
    const tokens = new TokenScanner(text);
    while (tokens.next()) {
      if (!tokens.plain) continue;
      push(tokens.start, tokens.end);
      // The parts split where a lower-case letter meets a capital (/(?<=\p{Ll})(?=\p{Lu})/u on ASCII).
      let from = tokens.start;
      for (let i = tokens.start + 1; i < tokens.end; i++) {
        if (isUpper(text.charCodeAt(i)) && isLower(text.charCodeAt(i - 1))) {
          push(from, i);
          from = i;
        }
      }
      if (from > tokens.start) push(from, tokens.end);
    }
    this.words = words;
    return words;
  }
}
