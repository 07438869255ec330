// Over-long blocks (a paragraph of a whole book on one line, a megabyte with no spaces) split
// into passage-sized parts: by sentences first, then by words, then by length, so no passage,
// no evidence and no answer can grow to the size of the file. A code block is kept whole unless
// it is longer than the character cap, and then split at line boundaries first.

import { isLowSurrogate } from './headingCap';

/** A block (or part of one) with its line range: the chunker's unit. */
export interface TextUnit {
  startLine: number;
  endLine: number;
  text: string;
  words: number;
}

/** The most characters one part may hold (about 200 long words). */
export const MAX_UNIT_CHARS = 3000;

/** `unit` itself when it fits, else its parts (each with the block's line range). */
export function splitOverlongUnit(unit: TextUnit, maxWords: number, isCode = false): TextUnit[] {
  const fitsWords = isCode || unit.words <= maxWords;
  if (fitsWords && unit.text.length <= MAX_UNIT_CHARS) return [unit];
  const pieces = isCode ? unit.text.split('\n') : unit.text.split(/(?<=[.!?])\s+|\n/);
  const parts = pieces.flatMap((piece) => cutPiece(piece, isCode ? Number.POSITIVE_INFINITY : maxWords));
  return pack(parts, isCode ? Number.POSITIVE_INFINITY : maxWords, isCode ? '\n' : ' ').map((text) => ({
    startLine: unit.startLine,
    endLine: unit.endLine,
    text,
    words: countWords(text),
  }));
}

/** A sentence (or line) too long on its own: cut into runs of words, and words into lengths. */
function cutPiece(piece: string, maxWords: number): string[] {
  const text = piece.trim();
  if (!text) return [];
  if (countWords(text) <= maxWords && text.length <= MAX_UNIT_CHARS) return [text];
  const out: string[] = [];
  for (const word of text.split(/\s+/)) {
    for (let i = 0; i < word.length;) {
      let end = Math.min(i + MAX_UNIT_CHARS, word.length);
      // Never between the two halves of a surrogate pair (an emoji, a rare CJK character).
      if (end < word.length && isLowSurrogate(word.charCodeAt(end))) end--;
      out.push(word.slice(i, end));
      i = end;
    }
  }
  return out;
}

/** Joins consecutive pieces while the result stays within both limits. */
function pack(pieces: string[], maxWords: number, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  let words = 0;
  for (const piece of pieces) {
    const w = countWords(piece);
    if (current && (words + w > maxWords || current.length + separator.length + piece.length > MAX_UNIT_CHARS)) {
      out.push(current);
      current = '';
      words = 0;
    }
    current = current ? `${current}${separator}${piece}` : piece;
    words += w;
  }
  if (current) out.push(current);
  return out;
}

function countWords(text: string): number {
  const t = text.trim();
  return t ? t.split(/\s+/).length : 0;
}
