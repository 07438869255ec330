// The lexical index of a local index folder: its snapshot file (`lexical-<gen>.bin`), read through
// the lexical index's narrow interface only (its format is its own business), and when a new
// snapshot is due instead of a longer list of changes replayed on open.

import type { Passage } from '../../../domain/types';
import { LexicalIndex } from '../../retrieval/lexicalIndex';
import { readRange } from '../../retrieval/indexFiles';

export const LEXICAL_EXTENSION = 'bin';

/** A lexical snapshot is rewritten when the passages changed since exceed this share (or count). */
const LEXICAL_DELTA_SHARE = 0.05;
const LEXICAL_DELTA_MIN = 2000;

/** Passage ids added to / removed from the lexical index since its snapshot was written. */
export interface LexicalDelta {
  add: Set<string>;
  remove: Set<string>;
}

export function emptyDelta(): LexicalDelta {
  return { add: new Set(), remove: new Set() };
}

export function loadLexical(bytes: Uint8Array): LexicalIndex {
  return LexicalIndex.load(bytes);
}

/** Checks a snapshot's header only (the rest is read on first use); throws when it is not one this version reads. */
export function checkLexicalHeader(file: string, bytes: number): void {
  LexicalIndex.checkHeader(readRange(file, 0, Math.min(32, bytes)), bytes);
}

export function saveLexical(lexical: LexicalIndex): Uint8Array {
  return lexical.serialize();
}

/** A lexical index built from scratch over `passages` (a missing or damaged snapshot). */
export function buildLexical(passages: Passage[]): LexicalIndex {
  const lexical = LexicalIndex.empty();
  lexical.add(passages);
  return lexical;
}

/** A lexical snapshot is rewritten when the changes listed since the last one exceed this. */
export function lexicalDeltaLimit(passageCount: number): number {
  return Math.max(LEXICAL_DELTA_MIN, LEXICAL_DELTA_SHARE * passageCount);
}
