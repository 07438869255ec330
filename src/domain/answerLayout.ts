// How an answer's sentences fall into blocks (paragraphs, headings, list items), shared by the
// chat webview and the answer document in the editor, so both show the same structure. Pure.

import type { SentenceVerdict } from './types';

const LIST_MARKER = /^\s*(?:[-*+]|(\d{1,3})[.)])\s+/;
const HEADING_MARKER = /^\s*#{1,6}\s+/;

export type Block = { kind: 'p' | 'h' } | { kind: 'li'; ordered: boolean };

export interface PlacedSentence {
  sentence: SentenceVerdict;
  block: Block;
  /** True when the sentence starts a new block. */
  opens: boolean;
  /** Sentence text with its list or heading marker removed. */
  text: string;
}

/**
 * Groups sentences into paragraphs, headings and list items. Sentences keep their order;
 * a list or heading marker at the start of a sentence opens a new block, and a gap of two
 * or more characters in the model's text (a blank line) opens a new paragraph.
 */
export function placeSentences(sentences: readonly SentenceVerdict[]): PlacedSentence[] {
  const placed: PlacedSentence[] = [];
  let previous: PlacedSentence | undefined;
  for (const sentence of sentences) {
    const list = LIST_MARKER.exec(sentence.text);
    const heading = HEADING_MARKER.exec(sentence.text);
    let block: Block;
    let opens: boolean;
    let text = sentence.text;
    if (list) {
      block = { kind: 'li', ordered: list[1] !== undefined };
      opens = true;
      text = text.slice(list[0].length);
    } else if (heading) {
      block = { kind: 'h' };
      opens = true;
      text = text.slice(heading[0].length);
    } else if (previous && previous.block.kind !== 'h' && sentence.start - previous.sentence.end < 2) {
      block = previous.block;
      opens = false;
    } else {
      block = { kind: 'p' };
      opens = true;
    }
    previous = { sentence, block, opens, text: text.trim() };
    placed.push(previous);
  }
  return placed;
}

/** "line 4" or "lines 4–9". */
export function describeLines(range: { startLine: number; endLine: number }): string {
  return range.startLine === range.endLine ? `line ${range.startLine}` : `lines ${range.startLine}–${range.endLine}`;
}
