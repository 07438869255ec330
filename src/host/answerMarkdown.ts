// The answer as "Copy" puts it on the clipboard: Markdown of the verified text (kept and exempt
// sentences in their paragraphs and lists, dropped ones left out) with its `[E#]` ids, and a
// sources list saying what each id stands for, so the copy still says where each fact is from.
// Pure (no `vscode` import): unit-tested in plain Node.

import type { Evidence, TurnResult } from '../domain/types';
import { ABSTENTION_PREFIX } from '../domain/abstention';
import { describeLines, isWebEvidence, placeSentences, unwrittenCitations } from '../domain/answerLayout';

function sourceLine(e: Evidence): string {
  if (isWebEvidence(e)) return `- [${e.id}] ${e.title ? `${e.title.replace(/\s+/g, ' ')} — ` : ''}<${e.uri}>`;
  return `- [${e.id}] ${e.source}, ${describeLines(e)}${e.heading ? ` — ${e.heading.replace(/\s+/g, ' ')}` : ''}`;
}

export function answerMarkdown(result: TurnResult): string {
  if (result.abstained) {
    return `Not found in the indexed documents: ${result.answer.replace(ABSTENTION_PREFIX, '').replace(/\s+/g, ' ').trim()}\n`;
  }
  let text = '';
  let previousKind: string | undefined;
  const kept = result.sentences.filter((s) => s.verdict !== 'dropped');
  for (const placed of placeSentences(kept)) {
    if (text) text += placed.opens ? (placed.block.kind === 'li' && previousKind === 'li' ? '\n' : '\n\n') : ' ';
    previousKind = placed.block.kind;
    if (placed.opens && placed.block.kind === 'li') text += placed.block.ordered ? '1. ' : '- ';
    if (placed.opens && placed.block.kind === 'h') text += '### ';
    text += `${placed.text.replace(/\s+/g, ' ')}${unwrittenCitations(placed.sentence)
      .map((id) => ` [${id}]`)
      .join('')}`;
  }
  const cited = new Set(kept.flatMap((s) => s.citations));
  const sources = result.evidence.filter((e) => cited.has(e.id));
  if (sources.length > 0) text += `\n\nSources:\n\n${sources.map(sourceLine).join('\n')}`;
  if (result.relevance?.verdict === 'partial') {
    text += `\n\nNot found: ${result.relevance.reason.replace(/\s+/g, ' ').trim()}`;
  }
  return `${text}\n`;
}
