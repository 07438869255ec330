// The text of an answer opened in the editor, with the offsets of every citation and every
// dropped sentence so links, hovers and decorations can be placed. Pure (no `vscode` import):
// unit-tested in plain Node.

import type { Evidence, TurnResult } from '../domain/types';
import { ABSTENTION_PREFIX } from '../domain/abstention';
import { describeLines, isWebEvidence, placeSentences, unwrittenCitations } from '../domain/answerLayout';
import { findCitationGroups, type CitationSpan } from '../domain/citations';

/** A citation in the document's text, with the evidence it links to. */
export interface DocumentCitation extends CitationSpan {
  /** Undefined when the id was not retrieved in this turn (shown, not linked). */
  evidence?: Evidence;
}

export interface DroppedSpan {
  start: number;
  end: number;
  reason: string;
  /** The note after it ("⟵ dropped: reason"), part of the text so it wraps with the line. */
  note: { start: number; end: number };
}

export interface AnswerDocumentLayout {
  text: string;
  citations: DocumentCitation[];
  dropped: DroppedSpan[];
}

class Writer {
  text = '';
  readonly citations: DocumentCitation[] = [];
  readonly dropped: DroppedSpan[] = [];
  constructor(private readonly evidence: ReadonlyMap<string, Evidence>) {}

  plain(s: string): void {
    this.text += s;
  }

  /** Writes text and records each `[E#]` in it; a group `[E1, E2]` yields one span per id. */
  cited(s: string): void {
    const base = this.text.length;
    for (const group of findCitationGroups(s)) {
      let cursor = group.start;
      const bracket = s.slice(group.start, group.end);
      for (const id of group.evidenceIds) {
        const at = bracket.indexOf(id, cursor - group.start) + group.start;
        this.citations.push({
          start: base + at,
          end: base + at + id.length,
          evidenceId: id,
          evidence: this.evidence.get(id),
        });
        cursor = at + id.length;
      }
    }
    this.text += s;
  }
}

const TITLE_MAX_CHARS = 80;

/**
 * The answer document's title: its question, on one line. The document is virtual (its URI's
 * path is encoded), so only what would split the path or the line goes: slashes and control
 * characters; a question mark stays.
 */
export function answerTitle(question: string): string {
  const clean = question
    .replace(/[\\/\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(clean)) return 'Evident answer';
  return clean.length > TITLE_MAX_CHARS ? `${clean.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…` : clean;
}

/** Lays out question, answer (dropped sentences in place), and the turn's evidence. */
export function layoutAnswerDocument(result: TurnResult): AnswerDocumentLayout {
  const w = new Writer(new Map(result.evidence.map((e) => [e.id, e] as const)));
  w.plain(`# ${result.question.replace(/\s+/g, ' ').trim()}\n\n`);
  if (result.abstained) {
    w.plain(
      `> ${result.answer.replace(ABSTENTION_PREFIX, 'Not found in the indexed documents: ').replace(/\s+/g, ' ').trim()}\n\n`,
    );
  }

  if (result.relevance?.verdict === 'partial') {
    w.plain(`> Not found: ${result.relevance.reason.replace(/\s+/g, ' ').trim()}\n\n`);
  }
  const sentences = result.abstained
    ? result.sentences.filter((s) => !ABSTENTION_PREFIX.test(s.text))
    : result.sentences;
  let first = true;
  let previousKind: string | undefined;
  for (const placed of placeSentences(sentences)) {
    const listContinues = placed.block.kind === 'li' && previousKind === 'li';
    if (!first) w.plain(placed.opens ? (listContinues ? '\n' : '\n\n') : ' ');
    previousKind = placed.block.kind;
    if (placed.opens && placed.block.kind === 'li') w.plain(placed.block.ordered ? '1. ' : '- ');
    if (placed.opens && placed.block.kind === 'h') w.plain('### ');
    const start = w.text.length;
    // Built-in grounding cites through its metadata: the ids are written after the sentence.
    const unwritten = unwrittenCitations(placed.sentence)
      .map((id) => ` [${id}]`)
      .join('');
    w.cited(`${placed.text.replace(/\s+/g, ' ')}${unwritten}`);
    if (placed.sentence.verdict === 'dropped') {
      const end = w.text.length;
      const reason = placed.sentence.reason.replace(/\s+/g, ' ').trim();
      w.plain(` ⟵ dropped: ${reason}`);
      w.dropped.push({ start, end, reason, note: { start: end + 1, end: w.text.length } });
    }
    first = false;
  }
  if (!first) w.plain('\n\n');

  const { retrieved, coverage, dropped, abstained } = result.metrics;
  w.plain(
    `---\n\nRetrieved ${retrieved} · coverage ${Math.round(coverage * 100)}% · dropped ${dropped} · ${abstained ? 'abstained' : 'answered'} · model ${result.model} · ${result.retrieval} retrieval\n\n`,
  );
  if (result.evidence.length > 0) {
    w.plain('## Evidence\n\n');
    for (const e of result.evidence) {
      w.plain('- ');
      w.cited(`[${e.id}]`);
      if (isWebEvidence(e)) w.plain(` ${e.uri}${e.title ? ` — ${e.title.replace(/\s+/g, ' ')}` : ''}\n`);
      else w.plain(` ${e.source}, ${describeLines(e)}${e.heading ? ` — ${e.heading.replace(/\s+/g, ' ')}` : ''}\n`);
    }
  }
  return { text: w.text, citations: w.citations, dropped: w.dropped };
}
