// Passages made ready for the support check once, and kept by their text: a passage retrieved
// for a turn is prepared when it enters the turn's evidence (or at its first check), and every
// sentence that cites it, in this turn and the next ones, reads what was prepared. A ready passage
// holds only what its text alone gives (tokens, units, the index of its words and negations,
// names, weekdays and months, list counts…), never anything of a sentence, of the term weights or
// of the scorer's features: so one cache serves every scorer, and a changed text is a new entry.

import type { DateWord } from './anchors';
import { preparePassage, type PreparedPassage } from './passageScan';
import { PassageNameReader } from './passageNames';
import type { ValueMention } from './values';
import type { PassageAnchors } from './valuePlaces';

/** A passage as the lexical score reads it: prepared at once, a few rarer parts read at their first need. */
export interface ReadyPassage {
  prepared: PreparedPassage;
  names: PassageNameReader;
  /** Weekdays and months it names (read when a sentence names one). */
  dates?: DateWord[];
  /** The counts its lists give ("Subteams:" and three items), read when a sentence states a value. */
  lists?: ValueMention[];
  /** Its `looseText`, for quoted titles. */
  plain?: string;
  /** Whether it holds each pair of words run together that a sentence asked about ("timezone"). */
  joined?: Map<string, boolean>;
  /** The values and weekdays of its units, and the stretch of words each is bound to. */
  anchors?: PassageAnchors;
  /** It says "we", "our", "ours" or "us" (read when a sentence names what the passage does not). */
  firstPerson?: boolean;
}

/** Passages kept ready by default: a turn's retrieved passages and their unions, for several turns. */
export const PASSAGE_CACHE_LIMIT = 256;
/**
 * Characters of passage text kept ready at most (a ready passage keeps about 15 times its text's
 * size: see `approximateBytes`), so that a few very long passages cannot hold much memory.
 */
export const PASSAGE_CACHE_CHARS = 1_000_000;

/** Everything the score reads of a passage whatever the sentence, done now. */
export function readyPassage(text: string): ReadyPassage {
  const prepared = preparePassage(text);
  const names = new PassageNameReader(text, prepared);
  names.prepare();
  return { prepared, names };
}

/**
 * Ready passages by text, at most `limit` of them and `chars` characters of text (the ones used
 * least recently are forgotten first; a passage longer than `chars` is prepared and not kept).
 */
export class PassageCache {
  // A Map iterates in insertion order: a passage used is put last, so the first is the one used least recently.
  private readonly entries = new Map<string, ReadyPassage>();
  private kept = 0;

  constructor(
    readonly limit: number = PASSAGE_CACHE_LIMIT,
    readonly chars: number = PASSAGE_CACHE_CHARS,
  ) {}

  /** The passage ready: prepared now the first time its text is seen, then the one kept. */
  ready(text: string): ReadyPassage {
    let passage = this.entries.get(text);
    if (passage !== undefined) {
      this.entries.delete(text);
      this.entries.set(text, passage);
      return passage;
    }
    passage = readyPassage(text);
    if (text.length > this.chars) return passage;
    while (this.entries.size >= this.limit || (this.entries.size > 0 && this.kept + text.length > this.chars)) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.kept -= oldest.length;
    }
    this.entries.set(text, passage);
    this.kept += text.length;
    return passage;
  }

  /** How many passages are kept ready. */
  get size(): number {
    return this.entries.size;
  }

  /** Characters of text of the passages kept ready. */
  get keptChars(): number {
    return this.kept;
  }
}

/**
 * About how many bytes a ready passage keeps alive beyond its text (V8's object layout
 * approximated: 8-byte fields, 16-byte headers, strings one byte a character on Latin-1 text,
 * a Map entry 3 fields and a third more for its table): what a cache of them costs per entry.
 */
export function approximateBytes(passage: ReadyPassage): number {
  const p = passage.prepared;
  const array = (n: number): number => 16 + 8 * n;
  const string = (n: number): number => 16 + n;
  let bytes = string(p.lower.length) + p.tokens.byteLength + 64 + p.unitNegated.byteLength + 64;
  bytes += array(p.unitFirst.length) + array(p.unitStart.length) + array(p.unitEnd.length);
  for (const index of [p.byStem, p.byWord]) {
    if (!index) continue;
    bytes += 16 + 32 * index.size;
    for (const [term, places] of index) bytes += string(term.length) + array(places.length);
  }
  // The plain words' stems: mostly the index's own strings, so the set's table only.
  bytes += 16 + 24 * p.plainStems.size;
  for (const values of p.values.values()) bytes += array(values.length) + 96 * values.length;
  return bytes + passage.names.approximateBytes();
}
