// Case-insensitive patterns spelt out without the `i` flag, which makes a Unicode scan several
// times slower: each letter as a class of its cases (a Unicode case-insensitive "s" also matches
// "ſ", U+017F, and a "k" the Kelvin sign, U+212A), and \b as look-arounds on the word characters
// of that mode (ASCII letters, digits, "_", "ſ" and the Kelvin sign).

/** `word` matched in any case, as the `iu` flags match it. */
export const anyCase = (word: string): string =>
  [...word].map((c) => `[${c}${c.toUpperCase()}${c === 's' ? '\\u017f' : c === 'k' ? '\\u212a' : ''}]`).join('');

/** A word character of a `iu` pattern (what its \b looks at). */
export const WORD_CHAR = '[A-Za-z0-9_\\u017f\\u212a]';
