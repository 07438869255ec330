// What the closest passages do say, in their words: an abstention names it, so a reader sees
// why the documents did not answer ("the closest passage, leave.md, says: 'You may carry over up
// to 240 hours…'") instead of a description of the model's own sentence. Plain text, one line,
// bounded; links and addresses are left out (passage text is data, never markup).

import type { Evidence } from '../../domain/types';
import { analyse } from '../text/terms';
import { splitSentences } from './sentenceSplitter';

const MAX_QUOTE_CHARS = 160;

/** The passage sentence that shares the most question words, from the evidence of the turn. */
export function closestPassageSentence(
  question: string,
  evidence: readonly Evidence[],
): { evidence: Evidence; sentence: string } | undefined {
  const wanted = new Set(analyse(question, { stemming: true }).terms.map((t) => t.stem));
  let best: { evidence: Evidence; sentence: string; score: number } | undefined;
  for (const e of evidence.slice(0, 12)) {
    for (const span of splitSentences(e.text.slice(0, 4000))) {
      const stems = new Set(analyse(span.text, { stemming: true }).terms.map((t) => t.stem));
      let score = 0;
      for (const s of wanted) if (stems.has(s)) score++;
      if (score > 0 && (!best || score > best.score)) best = { evidence: e, sentence: span.text, score };
    }
  }
  return best && { evidence: best.evidence, sentence: best.sentence };
}

/** A passage sentence as a quote: one line, no links or addresses, at most MAX_QUOTE_CHARS. */
export function quote(sentence: string): string {
  let text = sentence
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+|www\.\S+|\S+@\S+\.\S+/g, '…')
    .replace(/[*_`#>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length > MAX_QUOTE_CHARS) {
    text = `${text.slice(0, text.lastIndexOf(' ', MAX_QUOTE_CHARS - 1) > 60 ? text.lastIndexOf(' ', MAX_QUOTE_CHARS - 1) : MAX_QUOTE_CHARS - 1)}…`;
  }
  return text;
}

/** "The closest passage (path, lines a–b) says: "…"." — or nothing when no passage shares a question word. */
export function closestPassageNote(question: string, evidence: readonly Evidence[]): string {
  const found = closestPassageSentence(question, evidence);
  if (!found) return '';
  const where = found.evidence.source
    ? `${found.evidence.source}, lines ${found.evidence.startLine}–${found.evidence.endLine}`
    : found.evidence.id;
  return ` The closest passage (${found.evidence.id}, ${where}) says: "${quote(found.sentence)}"`;
}
