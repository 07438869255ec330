// Checking any text against the docs, sentence by sentence, with the product's verifier: what the
// agents' check tool, "Check Text Against the Docs" and `evident check` all run.
//
// * A sentence that cites evidence ids, when the text comes with the ledger of its searches (an
//   agent's conversation), is checked exactly as `ask` checks a model's answer: cited, real
//   (every id in that ledger), supporting (route `cited`).
// * A sentence without ids, or any sentence of a text that comes with no ledger (a pasted answer,
//   a PR description: its ids, if any, name nothing of ours), is checked against the passages
//   retrieved for it: the verifier's support check alone (route `retrieved`). Each retrieved
//   passage is tried on its own, as if the sentence cited it; the sentence is kept when one backs
//   it. Passages are never pooled, so a sentence cannot be "backed" by words spread over several.
// * A sentence that states nothing (the verifier's conservative exemption) is exempt (route `none`).

import { isAbstention } from '../../domain/abstention';
import { withoutCitations } from '../../domain/citations';
import { citationCoverage } from '../../domain/coverage';
import type { Evidence, EvidenceLookup, Passage, SentenceVerdict, VerifiedText } from '../../domain/types';
import { verifierView } from '../agent/agentLoop';
import { ConversationEvidence } from './toolLedger';
import type { CheckRoute } from './toolSchemas';

/** Verifies a text against a ledger, as `ask` verifies a model's answer (threshold, tiers, term weights). */
export type TextVerifier = (text: string, evidence: EvidenceLookup, signal?: AbortSignal) => Promise<VerifiedText>;

/** What a check needs from the index (the engine provides it). */
export interface CheckIndex {
  /** The best `k` passages for `query`, best first (a search outside any turn). */
  searchPassages(query: string, k: number, signal?: AbortSignal): Promise<Passage[]>;
  /** The verifier with term weights exact for the stems of `texts`. */
  verifierFor(texts: readonly string[]): Promise<TextVerifier>;
}

export interface CheckedSentence extends SentenceVerdict {
  route: CheckRoute;
  /** Kept: the passages that back it. Dropped: those it was checked against (for `retrieved`, the closest). */
  evidence: Evidence[];
}

export interface TextCheck {
  sentences: CheckedSentence[];
  /** Kept over factual sentences (src/domain/coverage.ts); 1 when nothing factual was said. */
  coverage: number;
  /** Distinct passages retrieved for sentences without ids. */
  retrieved: number;
}

export interface CheckProgress {
  /** Sentences checked against retrieved passages so far, of `total`. */
  done: number;
  total: number;
}

export interface TextCheckOptions {
  /** The ledger of the searches this text's ids come from; absent: its ids are not evidence (checked by retrieval). */
  evidence?: EvidenceLookup;
  /** The question the text answers: also searched with each sentence that cites no id. */
  question?: string;
  /** Passages retrieved per sentence (and per query). */
  k: number;
  /**
   * The source (docs-relative path) of the text itself when it is one of the indexed documents (a
   * draft policy in the workspace): its own passages never back it, or every sentence would be.
   */
  excludeSource?: string;
  signal?: AbortSignal;
  onProgress?(progress: CheckProgress): void;
}

const NO_EVIDENCE: EvidenceLookup = { get: () => undefined, all: () => [] };
const HAS_CONTENT = /[\p{L}\p{N}]/u;

export async function checkText(text: string, index: CheckIndex, options: TextCheckOptions): Promise<TextCheck> {
  const { signal } = options;
  const ledger = options.evidence ?? NO_EVIDENCE;
  const view = verifierView(ledger);
  const verify = await index.verifierFor([text, ...view.all().map((e) => e.text)]);
  const verified = await verify(text, view, signal);
  const sentences: CheckedSentence[] = [];
  if (verified.abstained && isAbstention(text)) sentences.push(abstentionLine(text));
  const pending: { at: number; claim: string }[] = [];
  for (const s of verified.sentences) {
    const route = routeOf(s, options.evidence !== undefined);
    const evidence =
      route === 'cited' ? s.citations.map((id) => ledger.get(id)).filter((e): e is Evidence => e !== undefined) : [];
    sentences.push({ ...s, route, evidence });
    const claim = withoutCitations(s.text).replace(/\s+/g, ' ').trim();
    if (route === 'retrieved' && HAS_CONTENT.test(claim)) pending.push({ at: sentences.length - 1, claim });
  }
  const candidates = await retrieveFor(pending, index, options);
  const checkWith = await index.verifierFor([text, ...candidates.flatMap((c) => c.passages.map((p) => p.text))]);
  for (let i = 0; i < pending.length; i++) {
    signal?.throwIfAborted();
    const { at, claim } = pending[i];
    sentences[at] = await bestRetrieved(sentences[at], claim, candidates[i].passages, checkWith, signal);
    options.onProgress?.({ done: i + 1, total: pending.length });
  }
  const retrieved = new Set(candidates.flatMap((c) => c.passages.map((p) => p.id))).size;
  return { sentences, coverage: citationCoverage(sentences, false), retrieved };
}

/**
 * `cited`: it cites ids and the text came with their ledger. `none`: exempt, or text after a
 * NOT_FOUND line (never part of an answer). Everything else is checked by retrieval: no ids, or
 * ids that name nothing of this check.
 */
function routeOf(s: SentenceVerdict, withLedger: boolean): CheckRoute {
  if (s.verdict === 'exempt' || s.code === 'after-abstention') return 'none';
  if (s.citations.length > 0 && withLedger) return 'cited';
  return 'retrieved';
}

/** The passages for each sentence: searched with the sentence, and with the question before it when there is one. */
async function retrieveFor(
  pending: { claim: string }[],
  index: CheckIndex,
  options: TextCheckOptions,
): Promise<{ passages: Passage[] }[]> {
  const out: { passages: Passage[] }[] = [];
  for (const { claim } of pending) {
    options.signal?.throwIfAborted();
    const queries = options.question ? [claim, `${options.question} ${claim}`] : [claim];
    const byId = new Map<string, Passage>();
    for (const query of queries) {
      // Asking for more when the text's own passages are left out keeps k candidates from the others.
      const found = await index.searchPassages(
        query,
        options.excludeSource === undefined ? options.k : options.k * 2,
        options.signal,
      );
      const others = found.filter((p) => p.source !== options.excludeSource).slice(0, options.k);
      for (const p of others) if (!byId.has(p.id)) byId.set(p.id, p);
    }
    out.push({ passages: [...byId.values()] });
  }
  return out;
}

/**
 * The sentence checked against each retrieved passage alone, as `claim [Ej]` with only Ej in the
 * ledger: kept by the best-supporting passage that backs it; else dropped with the reason the
 * closest passage gave (a contradicted figure names the passage's value).
 */
async function bestRetrieved(
  sentence: CheckedSentence,
  claim: string,
  passages: Passage[],
  verify: TextVerifier,
  signal?: AbortSignal,
): Promise<CheckedSentence> {
  if (passages.length === 0) {
    return {
      ...sentence,
      verdict: 'dropped',
      code: 'low-support',
      support: 0,
      reason: 'low-support: no passage of the documents matches this sentence',
      evidence: [],
    };
  }
  const ledger = new ConversationEvidence(passages.length);
  const recorded = passages.map((p) => ledger.record(p));
  const view = verifierView(ledger);
  let best: { verdict: SentenceVerdict; evidence: Evidence } | undefined;
  for (const evidence of recorded) {
    const only: EvidenceLookup = {
      get: (id) => (id === evidence.id ? view.get(id) : undefined),
      all: () => [view.get(evidence.id) as Evidence],
    };
    const result = await verify(`${claim} [${evidence.id}]`, only, signal);
    const verdict = result.sentences.length === 1 ? result.sentences[0] : undefined;
    if (!verdict) continue;
    if (!best || outranks(verdict, best.verdict)) best = { verdict, evidence };
  }
  if (!best) {
    return {
      ...sentence,
      verdict: 'dropped',
      code: 'low-support',
      support: 0,
      reason: 'low-support: the sentence could not be checked as one sentence',
      evidence: [],
    };
  }
  const { verdict: v, evidence } = best;
  const checked: CheckedSentence = {
    ...sentence,
    verdict: v.verdict,
    code: v.code,
    reason: v.reason,
    support: v.support,
    evidence: [evidence],
  };
  if (v.tier) checked.tier = v.tier;
  else delete checked.tier;
  return checked;
}

/** Kept beats dropped; then the higher support (the earlier-retrieved passage on a tie). */
function outranks(a: SentenceVerdict, b: SentenceVerdict): boolean {
  const aKept = a.verdict === 'kept';
  if (aKept !== (b.verdict === 'kept')) return aKept;
  return a.support > b.support;
}

/** A `NOT_FOUND:` text says the documents do not answer: its line states nothing to check. */
function abstentionLine(text: string): CheckedSentence {
  const start = text.length - text.trimStart().length;
  const newline = text.indexOf('\n', start);
  const end = newline < 0 ? text.trimEnd().length : newline;
  return {
    text: text.slice(start, end).trim(),
    citations: [],
    verdict: 'exempt',
    code: 'non-factual',
    reason: 'non-factual: NOT_FOUND says the documents do not answer; there is nothing to check',
    support: 0,
    start,
    end,
    route: 'none',
    evidence: [],
  };
}
