// The after-model check of a final answer: each sentence must be cited, cite only evidence
// ids of this invocation, and be supported by a cited passage. Sentences that fail are
// dropped; with nothing kept the answer becomes an abstention.

import { joinedWithHeadings } from './headingContext';
import type { Evidence, EvidenceLookup, SentenceVerdict, VerifiedText } from '../../domain/types';
import type { SupportResult, SupportScorer, TextSimilarity } from '../types';
import { isAbstention, modelReason, notFound } from '../../domain/abstention';
import { NOT_FOUND_MODEL, NOT_FOUND_UNSUPPORTED } from './abstention';
import { citedIds, withoutCitations } from './citations';
import { isLeadIn, isNonFactual, isTableHeader, itemsAfter } from './exemption';
import { extractValues } from './values';
import { createLexicalScorer } from './lexicalScorer';
import { splitSentences, type SentenceSpan } from './sentenceSplitter';
import { DEFAULT_THRESHOLD } from '../../domain/threshold';
import { splitHedge, withoutAnswerParticle } from './anchors';
import { withoutReaderAside } from './readerAsides';
import { valuesGiven } from './hedgeValues';
import { semanticSupport } from './semanticSupport';

export interface VerifierOptions {
  /** Minimum lexical support score (0..1) for a sentence to be kept. */
  threshold: number;
  /** First tier: the lexical scorer by default. */
  scorer: SupportScorer;
  /** Second opinion (entailment or judge) for sentences the first tier rejects; none by default. */
  escalation?: SupportScorer;
  /**
   * Meaning under the embedding model, when one is loaded: a word of the sentence the passage
   * lacks may be met by a passage word of the same meaning. Never overrules an anchor.
   */
  similarity?: TextSimilarity;
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
  if (partial.similarity) options.similarity = partial.similarity;
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

async function bestSupport(
  claim: string,
  passages: Evidence[],
  scorer: SupportScorer,
  signal?: AbortSignal,
): Promise<SupportResult> {
  // Each passage with its heading (context, not a statement), and, for a sentence that may combine
  // facts from the passages it cites together ("[E1, E2]"), all of them joined.
  const texts = passages.map((p) => joinedWithHeadings([p]));
  if (passages.length > 1) texts.push(joinedWithHeadings(passages));
  let best: SupportResult | undefined;
  for (const { text, context } of texts) {
    signal?.throwIfAborted();
    const r = await scorer.score(claim, text, signal, context.headings.length > 0 ? context : undefined);
    if (!best || r.score > best.score) best = r;
  }
  return best ?? { score: 0, code: 'low-support' };
}

/** The lexical tier, then the escalation tier for what it rejects (also used by the grounding check). */
export async function judgeSupport(
  claim: string,
  passages: Evidence[],
  options: VerifierOptions,
  signal?: AbortSignal,
): Promise<Scored> {
  const lexical = await bestSupport(claim, passages, options.scorer, signal);
  const conflict = lexical.code === 'value-mismatch' || lexical.code === 'negation-mismatch';
  if (lexical.score >= options.threshold && !conflict) {
    return { kept: true, result: lexical, tier: options.scorer.tier };
  }
  if (options.similarity && lexical.missing && !conflict) {
    const rescued = await semanticSupport(claim, lexical, passages, options.similarity, options.threshold, signal);
    if (rescued) return { kept: true, result: rescued, tier: options.scorer.tier };
  }
  if (!options.escalation || FINAL_CODES.has(lexical.code ?? '')) {
    return { kept: false, result: lexical, tier: options.scorer.tier };
  }
  const second = await bestSupport(claim, passages, options.escalation, signal);
  if (second.score >= ESCALATION_THRESHOLD) return { kept: true, result: second, tier: options.escalation.tier };
  // Rejected by both: the lexical explanation names what is missing; the second tier's is added.
  const explanation = [lexical.explanation, second.explanation && `${options.escalation.tier}: ${second.explanation}`]
    .filter(Boolean)
    .join('; ');
  return {
    kept: false,
    result: { score: second.score, code: lexical.code ?? 'low-support', explanation },
    tier: options.escalation.tier,
  };
}

/** One sentence's verdict; the reason is the code, then the explanation when there is one. */
export function verdictOf(
  span: { text: string; start: number; end: number },
  citations: string[],
  fields: Pick<SentenceVerdict, 'verdict' | 'code' | 'support'> & {
    explanation?: string;
    tier?: SentenceVerdict['tier'];
  },
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

/** Longest sentence the verifier reads (characters); a longer one is dropped unread (bounded cost). */
export const MAX_SENTENCE_CHARS = 4000;
/** Longest token a passage must hold verbatim to back it (a junk token, a blob). */
const LONG_TOKEN = /[\p{L}\p{N}_]{41,}/gu;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/** What the sentence's neighbours tell: the answer text it sits in. */
interface SentenceContext {
  text: string;
  spans: readonly SentenceSpan[];
  index: number;
}

async function judgeSentence(
  span: { text: string; start: number; end: number },
  evidence: EvidenceLookup,
  options: VerifierOptions,
  signal?: AbortSignal,
  context?: SentenceContext,
): Promise<SentenceVerdict> {
  const citations = citedIds(span.text);
  if (span.text.length > MAX_SENTENCE_CHARS) {
    return verdictOf(span, citations, {
      verdict: 'dropped',
      code: 'low-support',
      support: 0,
      explanation: `the sentence is too long to check (${span.text.length} characters; at most ${MAX_SENTENCE_CHARS})`,
    });
  }
  const written = withoutCitations(span.text);
  // A hedge says what the documents do not state: a partial abstention, not a fact to back.
  const { claim: stated, hedge } = splitHedge(written, (clause) => valuesGiven(clause, evidence.all()));
  const claimText = withoutReaderAside(withoutAnswerParticle(stated));
  const leftover = claimText.replace(
    /\b(?:however|unfortunately|but|note|that|said|though|also|and|so|while|although)\b/giu,
    '',
  );
  // Nothing else, or (uncited) only a frame ("For a disabled repository, …") or words about the answer ("…, but here's what they do say:").
  const claimsNothing =
    hedge !== undefined &&
    (!LETTER_OR_NUMBER.test(leftover) || (citations.length === 0 && (isNonFactual(leftover) || isFrame(leftover))));
  if (claimsNothing) {
    return verdictOf(span, citations, {
      verdict: 'exempt',
      code: 'partial-abstention',
      support: 0,
      explanation: 'it says what the documents do not state',
    });
  }
  if (citations.length === 0) {
    if (isNonFactual(span.text)) {
      return verdictOf(span, citations, { verdict: 'exempt', code: 'non-factual', support: 0 });
    }
    if (context && isLeadIn(context.text, context.spans, context.index)) {
      return verdictOf(span, citations, {
        verdict: 'exempt',
        code: 'non-factual',
        support: 0,
        explanation: 'a lead-in to the cited list that follows',
      });
    }
    if (context && isTableHeader(context.text, span)) {
      return verdictOf(span, citations, {
        verdict: 'exempt',
        code: 'non-factual',
        support: 0,
        explanation: 'the header row of a table',
      });
    }
    return verdictOf(span, citations, {
      verdict: 'dropped',
      code: 'no-citation',
      support: 0,
      explanation: 'the sentence cites no evidence id',
    });
  }
  const unknown = citations.filter((id) => !evidence.get(id));
  if (unknown.length > 0) {
    const list = unknown.join(', ');
    const explanation = `${list} ${unknown.length > 1 ? 'were' : 'was'} not retrieved in this turn`;
    return verdictOf(span, citations, { verdict: 'dropped', code: 'unknown-id', support: 0, explanation });
  }
  const passages = citations.map((id) => evidence.get(id) as Evidence);
  // A token of over 40 letters (a blob, a junk word) backs nothing unless a cited passage holds it as written.
  for (const m of claimText.matchAll(LONG_TOKEN)) {
    if (!passages.some((p) => p.text.includes(m[0]))) {
      return verdictOf(span, citations, {
        verdict: 'dropped',
        code: 'low-support',
        support: 0,
        explanation: `the cited passage does not contain '${m[0].slice(0, 24)}…' (${m[0].length} characters)`,
      });
    }
  }
  const { kept, result, tier } = await judgeSupport(
    context ? withoutListCount(claimText, context) : claimText,
    passages,
    options,
    signal,
  );
  if (kept) return verdictOf(span, citations, { verdict: 'kept', code: 'supported', support: result.score, tier });
  const code = result.code && result.code !== 'supported' ? result.code : 'low-support';
  let explanation = result.explanation;
  if (code === 'low-support' && explanation && citations.length > 1) {
    explanation = explanation.replace(/^the cited passage does not mention/, 'no cited passage mentions');
  }
  return verdictOf(span, citations, { verdict: 'dropped', code, support: result.score, tier, explanation });
}

/**
 * A lead-in's count of the list it introduces ("three licenses:" before three items) is backed by
 * the list itself, whose items are checked one by one: the claim is read without it. A count the
 * list does not have stays, and is checked against the passage like any value.
 */
function withoutListCount(claim: string, context: SentenceContext): string {
  const items = itemsAfter(context.text, context.spans[context.index]);
  if (items === undefined || items < 2) return claim;
  const count = extractValues(claim).find((v) => v.key === String(items) && !/^[$€£%]$/.test(v.unit));
  if (!count || count.start === undefined) return claim;
  const number = /^\S+\s*/.exec(claim.slice(count.start))?.[0] ?? '';
  return claim.slice(0, count.start) + claim.slice(count.start + number.length);
}

/** A frame before a hedge: a short prepositional phrase with no digit and no negation ("For a disabled repository"). */
function isFrame(text: string): boolean {
  const t = text.trim().replace(/[,:;]+$/, '');
  return (
    /^(?:for|in|on|under|with|as\s+for|regarding|about|when|if|beyond\s+that)\b/i.test(t) &&
    !/\d/.test(t) &&
    !/\b(?:not|no|never|without|n['’]t)\b/i.test(t) &&
    t.split(/\s+/).length <= 15
  );
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
  const spans = splitSentences(text);
  const abstention = isAbstention(text);
  const sentences: SentenceVerdict[] = [];
  for (let i = 0; i < spans.length; i++) {
    signal?.throwIfAborted();
    // The model's NOT_FOUND reason (its first sentence) is the abstention line itself, not a claim.
    if (abstention && i === 0) continue;
    sentences.push(await judgeSentence(spans[i], evidence, resolved, signal, { text, spans, index: i }));
  }
  if (abstention) return { answer: abstentionAnswer(spans[0]?.text ?? text), abstained: true, sentences };
  if (!sentences.some((s) => s.verdict === 'kept')) {
    return { answer: NOT_FOUND_UNSUPPORTED, abstained: true, sentences };
  }
  return { answer: rewrite(text, sentences), abstained: false, sentences };
}

/**
 * `NOT_FOUND:` from the model: the abstention shown is one line in Evident's words, with the
 * model's first sentence as its reason only when that is plain text of bounded length (no link,
 * address or markup: `modelReason`). Every later sentence was verified like any other; none of
 * them is part of the abstention line.
 */
function abstentionAnswer(firstSentence: string): string {
  const reason = modelReason(withoutCitations(firstSentence));
  return reason ? notFound(reason) : NOT_FOUND_MODEL;
}

/** A one-passage ledger, for checking a claim as if the model had cited it as E1. */
function singleEvidence(text: string): EvidenceLookup {
  const e1: Evidence = {
    id: 'E1',
    passageId: 'E1',
    source: '',
    startLine: 0,
    endLine: 0,
    heading: '',
    text,
    version: '',
  };
  return { get: (id) => (id === 'E1' ? e1 : undefined), all: () => [e1] };
}

/** The verdict of `claim [E1]` with `evidenceText` as E1: what `evident verify` prints. */
export async function verifyClaim(
  claim: string,
  evidenceText: string,
  options?: Partial<VerifierOptions>,
): Promise<{ supported: boolean; score: number }> {
  const verdict = await claimVerdict(claim, evidenceText, options);
  return { supported: verdict.verdict === 'kept', score: verdict.support };
}

/** The whole verdict of `claim [E1]` (its reason too): for diagnosis of the claim check. */
export async function claimVerdict(
  claim: string,
  evidenceText: string,
  options?: Partial<VerifierOptions>,
): Promise<SentenceVerdict> {
  // One sentence, whatever punctuation the claim has inside: the check reads it whole.
  const sentence = `${claim.trim().replace(/[.!?]+$/, '')} [E1].`;
  const span = { text: sentence, start: 0, end: sentence.length };
  return judgeSentence(span, singleEvidence(evidenceText), resolveOptions(options));
}
