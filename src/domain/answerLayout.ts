// How an answer's sentences fall into blocks (paragraphs, headings, list items), shared by the
// chat webview and the answer document in the editor, so both show the same structure. Pure.

import type { SentenceVerdict } from './types';
import { findCitationGroups } from './citations';

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

/** Google Search grounding links go through this redirect host; the page's site is then in the title. */
const GROUNDING_REDIRECT_HOST = 'vertexaisearch.cloud.google.com';

/** The site of a web source, for its chip: the uri's host (without www.), or the title for grounding redirects. */
export function webDomain(evidence: { uri?: string; title?: string }): string {
  // (The domain layer has no URL class: the host is read with the URL grammar's authority rule.)
  const host = /^https?:\/\/(?:[^@/?#]*@)?([^/?#:]+)/i
    .exec(evidence.uri ?? '')?.[1]
    ?.toLowerCase()
    .replace(/^www\./, '');
  if (host && host !== GROUNDING_REDIRECT_HOST) return host;
  return evidence.title || evidence.uri || '';
}

/** True for evidence from built-in grounding (a web page or a data-store document), not a workspace passage. */
export function isWebEvidence(evidence: { uri?: string }): evidence is { uri: string } {
  return typeof evidence.uri === 'string';
}

/** Where a piece of evidence comes from, in one line: "title · domain" or "path · lines 4–9". */
export function describeSource(evidence: {
  source: string;
  startLine: number;
  endLine: number;
  uri?: string;
  title?: string;
}): string {
  if (isWebEvidence(evidence)) {
    const domain = webDomain(evidence);
    return evidence.title && evidence.title !== domain ? `${evidence.title} · ${domain}` : domain;
  }
  return `${evidence.source} · ${describeLines(evidence)}`;
}

/**
 * The ids a verdict cites that its text does not write (built-in grounding cites through the
 * metadata, not through [E#] in the text): shown as chips after the sentence.
 */
export function unwrittenCitations(sentence: { text: string; citations: readonly string[] }): string[] {
  const written = new Set(findCitationGroups(sentence.text).flatMap((g) => g.evidenceIds));
  return sentence.citations.filter((id) => !written.has(id));
}
