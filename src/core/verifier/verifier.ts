// The after-model check of a final answer: each sentence must be cited, cite only evidence
// ids of this invocation, and be supported by a cited passage. Sentences that fail are
// dropped; with nothing kept the answer becomes an abstention.

import type { Evidence, EvidenceLookup, SentenceVerdict, VerifiedText } from '../../domain/types';
import type { SupportResult, SupportScorer } from '../types';
import { isAbstention } from '../../domain/abstention';
import { NOT_FOUND_UNSUPPORTED } from './abstention';
import { citedIds, withoutCitations } from './citations';
import { isNonFactual } from './exemption';
import { createLexicalScorer } from './lexicalScorer';
import { splitSentences } from './sentenceSplitter';
import { DEFAULT_THRESHOLD } from '../../domain/threshold';

export interface VerifierOptions {
  /** Minimum lexical support score (0..1) for a sentence to be kept. */
  threshold: number;
  /** First tier: the lexical scorer by default. */
  scorer: SupportScorer;
  /** Second opinion (entailment or judge) for sentences the first tier rejects; none by default. */
  escalation?: SupportScorer;
}

export { DEFAULT_THRESHOLD };
/** An escalation tier answers on its own 0..1 scale (entailment probability, judge yes = 1). */
export const ESCALATION_THRESHOLD = 0.5;

export function defaultVerifierOptions(): VerifierOptions {
  return { threshold: DEFAULT_THRESHOLD, scorer: createLexicalScorer() };
}

/** Options with undefined fields ignored, so `{ threshold: setting }` with no setting keeps the default. */
export function resolveOptions(partial: Partial<VerifierOptions> = {}): VerifierOptions {
  const options = defaultVerifierOptions();
  if (partial.threshold !== undefined) {
    if (!Number.isFinite(partial.threshold) || partial.threshold < 0 || partial.threshold > 1) {
      throw new RangeError(`verifier threshold must be a number from 0 to 1, got ${partial.threshold}`);
    }
    options.threshold = partial.threshold;
  }
  if (partial.scorer) options.scorer = partial.scorer;
  if (partial.escalation) options.escalation = partial.escalation;
  return options;
}

// A value mismatch is an exact, deterministic contradiction ("30 days" vs "90 days"): no model
// is asked to overrule it. Low support and negation conflicts may be paraphrases: escalated.
const FINAL_CODES = new Set(['value-mismatch']);

export interface Scored {
  kept: boolean;
  result: SupportResult;
  tier: SentenceVerdict['tier'];
}

async function bestSupport(claim: string, passages: Evidence[], scorer: SupportScorer, signal?: AbortSignal): Promise<SupportResult> {
  const texts = passages.map((p) => p.text);
  // A sentence may combine facts from the passages it cites together ("[E1, E2]").
  if (texts.length > 1) texts.push(texts.join('\n'));
  let best: SupportResult | undefined;
  for (const text of texts) {
    signal?.throwIfAborted();
    const r = await scorer.score(claim, text, signal);
    if (!best || r.score > best.score) best = r;
  }
  return best ?? { score: 0, code: 'low-support' };
}

/** The lexical tier, then the escalation tier for what it rejects (also used by the grounding check). */
export async function judgeSupport(claim: string, passages: Evidence[], options: VerifierOptions, signal?: AbortSignal): Promise<Scored> {
  const lexical = await bestSupport(claim, passages, options.scorer, signal);
  const conflict = lexical.code === 'value-mismatch' || lexical.code === 'negation-mismatch';
  if (lexical.score >= options.threshold && !conflict) return { kept: true, result: lexical, tier: options.scorer.tier };
  if (!options.escalation || FINAL_CODES.has(lexical.code ?? '')) return { kept: false, result: lexical, tier: options.scorer.tier };
  const second = await bestSupport(claim, passages, options.escalation, signal);
  if (second.score >= ESCALATION_THRESHOLD) return { kept: true, result: second, tier: options.escalation.tier };
  // Rejected by both: the lexical explanation names what is missing; the second tier's is added.
  const explanation = [lexical.explanation, second.explanation && `${options.escalation.tier}: ${second.explanation}`]
    .filter(Boolean)
    .join('; ');
  return { kept: false, result: { score: second.score, code: lexical.code ?? 'low-support', explanation }, tier: options.escalation.tier };
}

/** One sentence's verdict; the reason is the code, then the explanation when there is one. */
export function verdictOf(
  span: { text: string; start: number; end: number },
  citations: string[],
  fields: Pick<SentenceVerdict, 'verdict' | 'code' | 'support'> & { explanation?: string; tier?: SentenceVerdict['tier'] },
): SentenceVerdict {
  const v: SentenceVerdict = {
    text: span.text,
    citations,
    verdict: fields.verdict,
    reason: fields.explanation ? `${fields.code}: ${fields.explanation}` : fields.code,
    code: fields.code,
    support: fields.support,
    start: span.start,
    end: span.end,
  };
  if (fields.tier) v.tier = fields.tier;
  return v;
}

async function judgeSentence(
  span: { text: string; start: number; end: number },
  evidence: EvidenceLookup,
  options: VerifierOptions,
  signal?: AbortSignal,
): Promise<SentenceVerdict> {
  const citations = citedIds(span.text);
  if (citations.length === 0) {
    if (isNonFactual(span.text)) return verdictOf(span, citations, { verdict: 'exempt', code: 'non-factual', support: 0 });
    return verdictOf(span, citations, { verdict: 'dropped', code: 'no-citation', support: 0, explanation: 'the sentence cites no evidence id' });
  }
  const unknown = citations.filter((id) => !evidence.get(id));
  if (unknown.length > 0) {
    const list = unknown.join(', ');
    const explanation = `${list} ${unknown.length > 1 ? 'were' : 'was'} not retrieved in this turn`;
    return verdictOf(span, citations, { verdict: 'dropped', code: 'unknown-id', support: 0, explanation });
  }
  const passages = citations.map((id) => evidence.get(id) as Evidence);
  const { kept, result, tier } = await judgeSupport(withoutCitations(span.text), passages, options, signal);
  if (kept) return verdictOf(span, citations, { verdict: 'kept', code: 'supported', support: result.score, tier });
  const code = result.code && result.code !== 'supported' ? result.code : 'low-support';
  let explanation = result.explanation;
  if (code === 'low-support' && explanation && citations.length > 1) explanation = explanation.replace(/^the cited passage does not mention/, 'no cited passage mentions');
  return verdictOf(span, citations, { verdict: 'dropped', code, support: result.score, tier, explanation });
}

/** The answer with dropped sentences cut out and the lines they leave empty removed. */
export function rewrite(text: string, verdicts: SentenceVerdict[]): string {
  let out = '';
  let pos = 0;
  for (const v of verdicts) {
    out += text.slice(pos, v.start);
    if (v.verdict !== 'dropped') out += text.slice(v.start, v.end);
    pos = v.end;
  }
  out += text.slice(pos);
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, '').replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 '))
    .filter((line, i, lines) => {
      // A list marker or heading marker whose content was dropped.
      if (/^[ \t]*(?:>[ \t]?)*(?:#{1,6}|[-*+]|\d{1,9}[.)])?[ \t]*$/.test(line) && line.trim() !== '') return false;
      return !(line === '' && (i === 0 || lines[i - 1] === ''));
    })
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export async function verifyAnswer(
  text: string,
  evidence: EvidenceLookup,
  options?: Partial<VerifierOptions>,
  signal?: AbortSignal,
): Promise<VerifiedText> {
  const resolved = resolveOptions(options);
  if (text.trim() === '') return { answer: text, abstained: false, sentences: [] };
  if (isAbstention(text)) return abstentionLine(text);
  const sentences: SentenceVerdict[] = [];
  for (const span of splitSentences(text)) {
    signal?.throwIfAborted();
    sentences.push(await judgeSentence(span, evidence, resolved, signal));
  }
  if (!sentences.some((s) => s.verdict === 'kept')) return { answer: NOT_FOUND_UNSUPPORTED, abstained: true, sentences };
  return { answer: rewrite(text, sentences), abstained: false, sentences };
}

/**
 * `NOT_FOUND:` is one line: the answer is that line, and anything the model wrote after it is
 * unverified text, shown as dropped (never inside the abstention as if it were the reason).
 */
function abstentionLine(text: string): VerifiedText {
  const lineStart = text.length - text.trimStart().length;
  const newline = text.indexOf('\n', lineStart);
  const lineEnd = newline < 0 ? text.length : newline;
  const answer = text.slice(lineStart, lineEnd).trim();
  const sentences = splitSentences(text)
    .filter((span) => span.start >= lineEnd)
    .map((span) =>
      verdictOf(span, citedIds(span.text), {
        verdict: 'dropped',
        code: 'after-abstention',
        support: 0,
        explanation: 'text after the NOT_FOUND line is not checked and not part of the answer',
      }),
    );
  return { answer, abstained: true, sentences };
}

/** A one-passage ledger, for checking a claim as if the model had cited it as E1. */
function singleEvidence(text: string): EvidenceLookup {
  const e1: Evidence = { id: 'E1', passageId: 'E1', source: '', startLine: 0, endLine: 0, heading: '', text, version: '' };
  return { get: (id) => (id === 'E1' ? e1 : undefined), all: () => [e1] };
}

/** The verdict of `claim [E1]` with `evidenceText` as E1: what `evident verify` prints. */
export async function verifyClaim(
  claim: string,
  evidenceText: string,
  options?: Partial<VerifierOptions>,
): Promise<{ supported: boolean; score: number }> {
  // One sentence, whatever punctuation the claim has inside: the check reads it whole.
  const sentence = `${claim.trim().replace(/[.!?]+$/, '')} [E1].`;
  const span = { text: sentence, start: 0, end: sentence.length };
  const verdict = await judgeSentence(span, singleEvidence(evidenceText), resolveOptions(options));
  return { supported: verdict.verdict === 'kept', score: verdict.support };
}
