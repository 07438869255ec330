// Every match of a global pattern, found with `exec`. `text.matchAll(pattern)` copies the pattern
// on every call (through its species constructor), which costs more than the scan of a
// sentence-sized text; the support check runs its patterns on thousands of them.

/**
 * The matches `text.matchAll(pattern)` gives when `pattern.lastIndex` is 0, in order (an empty
 * match steps one character on, one code point with the `u` or `v` flag, as matchAll does).
 * The pattern's lastIndex is 0 again afterwards.
 */
export function matchesOf(pattern: RegExp, text: string): RegExpExecArray[] {
  if (!pattern.global) throw new TypeError(`matchesOf needs a global pattern: ${String(pattern)}`);
  const found: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  try {
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      found.push(m);
      if (m[0] === '') {
        pattern.lastIndex = nextIndex(text, pattern.lastIndex, pattern.unicode || pattern.flags.includes('v'));
      }
    }
  } finally {
    pattern.lastIndex = 0;
  }
  return found;
}

/** The index after the character at `i` (after its whole surrogate pair in Unicode mode). */
function nextIndex(text: string, i: number, unicode: boolean): number {
  if (!unicode || i + 1 >= text.length) return i + 1;
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return i + 1;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? i + 2 : i + 1;
}

/** The text as a pattern that matches it literally (every pattern character escaped). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
