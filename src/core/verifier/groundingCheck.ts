// The verifier of the second route (built-in grounding): the provider searched and says, in
// `groundingSupports`, which segments of its answer which grounding chunks back. A sentence is
// kept only when supported segments cover every letter and digit of it; its citations are those
// segments' chunks. Segments are found by their TEXT (their offsets are UTF-8 byte offsets, not
// string indices); the byte offset only picks among repeated occurrences. A support with no
// text, text not in the answer, or no valid chunk index is not used (and is recorded as such).
// When every cited chunk carries text (Vertex AI Search), the lexical support check runs too.

import { isAbstention } from '../../domain/abstention';
import { notice, type Notice } from '../../domain/notices';
import type {
  Evidence,
  EvidenceLookup,
  GroundingMetadata,
  GroundingSupport,
  GroundingSupportRecord,
  SentenceVerdict,
  VerifiedText,
} from '../../domain/types';
import { NOT_FOUND_UNGROUNDED } from './abstention';
import { withoutCitations } from './citations';
import { escapeRegExp } from '../text/matches';
import { isNonFactual } from './exemption';
import { splitSentences, type SentenceSpan } from './sentenceSplitter';
import { judgeSupport, resolveOptions, rewrite, verdictOf, type VerifierOptions } from './verifier';

export interface GroundingCheckResult extends VerifiedText {
  supports: GroundingSupportRecord[];
  /** What the reader should know about the metadata (no metadata, supports not used). */
  notices: Notice[];
}

/** A support located in the answer: characters [start, end) backed by `chunks`. */
interface PlacedSupport {
  start: number;
  end: number;
  chunks: string[];
  record: GroundingSupportRecord;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const encoder = new TextEncoder();

function byteOffset(text: string, index: number): number {
  return encoder.encode(text.slice(0, index)).length;
}

/** Where the segment text occurs in the answer: exactly, else with any run of whitespace equal. */
function occurrences(answer: string, segment: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  for (let at = answer.indexOf(segment); at >= 0; at = answer.indexOf(segment, at + 1)) {
    found.push({ start: at, end: at + segment.length });
  }
  if (found.length > 0) return found;
  const words = segment.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return found;
  const loose = new RegExp(words.map(escapeRegExp).join('\\s+'), 'gu');
  for (const match of answer.matchAll(loose)) found.push({ start: match.index, end: match.index + match[0].length });
  return found;
}

function place(
  answer: string,
  support: GroundingSupport,
  chunkIds: readonly string[],
  evidence: EvidenceLookup,
): PlacedSupport | GroundingSupportRecord {
  const valid = support.chunkIndices.filter((i) => Number.isInteger(i) && i >= 0 && i < chunkIds.length);
  const chunks = [...new Set(valid.map((i) => chunkIds[i]))];
  const uris = chunks.map((id) => evidence.get(id)?.uri ?? evidence.get(id)?.source ?? '');
  const confidence = support.confidenceScores.length ? Math.max(...support.confidenceScores) : undefined;
  const base: GroundingSupportRecord = {
    segment: support.text ?? '',
    sentence: '',
    chunks,
    uris,
    ...(confidence !== undefined ? { confidence } : {}),
  };
  const bad = support.chunkIndices.filter((i) => !valid.includes(i));
  if (chunks.length === 0) {
    const why =
      support.chunkIndices.length === 0
        ? 'it names no grounding chunk'
        : `chunk index ${bad.join(', ')} is not among the ${chunkIds.length} chunks`;
    return { ...base, ignored: why };
  }
  if (!support.text || !support.text.trim()) {
    return { ...base, ignored: 'the segment has no text (its byte offsets alone are not trusted)' };
  }
  const found = occurrences(answer, support.text);
  if (found.length === 0) return { ...base, ignored: 'the segment text is not in the answer' };
  // Repeated text: the occurrence at (or nearest to) the segment's UTF-8 byte offset.
  const wanted = support.startIndex;
  const best =
    wanted === undefined
      ? found[0]
      : found.reduce((a, b) =>
          Math.abs(byteOffset(answer, b.start) - wanted) < Math.abs(byteOffset(answer, a.start) - wanted) ? b : a,
        );
  // Out-of-range indices among valid ones are left out of the citations (the record lists the valid ones).
  return { start: best.start, end: best.end, chunks, record: base };
}

/** Share of the sentence's letters and digits inside placed supports, and those supports. */
function coverage(span: SentenceSpan, placed: readonly PlacedSupport[]): { share: number; supports: PlacedSupport[] } {
  let total = 0;
  let covered = 0;
  const used = new Set<PlacedSupport>();
  let index = span.start;
  for (const ch of span.text) {
    if (WORD_CHAR.test(ch)) {
      total++;
      const hits = placed.filter((p) => index >= p.start && index < p.end);
      if (hits.length > 0) covered++;
      for (const h of hits) used.add(h);
    }
    index += ch.length;
  }
  return { share: total ? covered / total : 0, supports: placed.filter((p) => used.has(p)) };
}

async function judge(
  span: SentenceSpan,
  placed: readonly PlacedSupport[],
  evidence: EvidenceLookup,
  options: VerifierOptions,
  signal?: AbortSignal,
): Promise<SentenceVerdict> {
  const { share, supports } = coverage(span, placed);
  const citations = [...new Set(supports.flatMap((p) => p.chunks))];
  if (supports.length === 0) {
    if (isNonFactual(span.text)) return verdictOf(span, [], { verdict: 'exempt', code: 'non-factual', support: 0 });
    return verdictOf(span, [], {
      verdict: 'dropped',
      code: 'no-grounding-support',
      support: 0,
      tier: 'grounding',
      explanation: 'no grounding support covers this sentence',
    });
  }
  if (share < 1) {
    return verdictOf(span, citations, {
      verdict: 'dropped',
      code: 'no-grounding-support',
      support: share,
      tier: 'grounding',
      explanation: `only ${Math.floor(share * 100)}% of the sentence lies in supported segments`,
    });
  }
  const passages = citations.map((id) => evidence.get(id)).filter((e): e is Evidence => e !== undefined);
  // Chunks with text (retrieved context): the lexical check must agree as well.
  if (passages.length > 0 && passages.every((p) => p.text.trim())) {
    const { kept, result, tier } = await judgeSupport(withoutCitations(span.text), passages, options, signal);
    if (!kept) {
      const code = result.code && result.code !== 'supported' ? result.code : 'low-support';
      return verdictOf(span, citations, {
        verdict: 'dropped',
        code,
        support: result.score,
        tier,
        explanation: result.explanation,
      });
    }
    return verdictOf(span, citations, { verdict: 'kept', code: 'supported', support: result.score, tier });
  }
  return verdictOf(span, citations, { verdict: 'kept', code: 'supported', support: share, tier: 'grounding' });
}

/**
 * Verifies a grounded answer. `chunkIds[j]` is the evidence id under which grounding chunk j was
 * recorded in this invocation's ledger.
 */
export async function verifyGrounded(
  text: string,
  metadata: GroundingMetadata | undefined,
  chunkIds: readonly string[],
  evidence: EvidenceLookup,
  options?: Partial<VerifierOptions>,
  signal?: AbortSignal,
): Promise<GroundingCheckResult> {
  const resolved = resolveOptions(options);
  const notices: Notice[] = [];
  if (isAbstention(text)) return { answer: text.trim(), abstained: true, sentences: [], supports: [], notices };
  if (!metadata) {
    notices.push(
      notice(
        'no-grounding-metadata',
        'The response carried no grounding metadata: no sentence could be checked against search results.',
      ),
    );
  }

  const placed: PlacedSupport[] = [];
  const records: GroundingSupportRecord[] = [];
  for (const support of metadata?.supports ?? []) {
    const result = place(text, support, chunkIds, evidence);
    if ('start' in result) placed.push(result);
    records.push('start' in result ? result.record : result);
  }
  const ignored = records.filter((r) => r.ignored);
  if (ignored.length) {
    notices.push(
      notice(
        'grounding-supports-unused',
        `${ignored.length} grounding support${ignored.length > 1 ? 's were' : ' was'} not used: ${[...new Set(ignored.map((r) => r.ignored))].join('; ')}.`,
      ),
    );
  }

  const sentences: SentenceVerdict[] = [];
  for (const span of splitSentences(text)) {
    signal?.throwIfAborted();
    sentences.push(await judge(span, placed, evidence, resolved, signal));
  }
  // The audit names the sentence(s) each support lies in.
  for (const p of placed) {
    p.record.sentence = sentences
      .filter((s) => s.start < p.end && p.start < s.end)
      .map((s) => s.text)
      .join(' ');
  }
  if (!sentences.some((s) => s.verdict === 'kept')) {
    return { answer: NOT_FOUND_UNGROUNDED, abstained: true, sentences, supports: records, notices };
  }
  return { answer: rewrite(text, sentences), abstained: false, sentences, supports: records, notices };
}
