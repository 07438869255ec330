// The lexical support score (first tier): the share of the sentence's content words, weighted
// by how informative they are, that the best window of the passage contains; values must
// match exactly and a negation the other side lacks is a conflict. Deterministic, microseconds.

import type { ReasonCode } from '../../domain/types';
import type { SupportResult, SupportScorer } from '../types';
import { LruCache, NEGATION_SCOPE, type PassageUnit, type PreparedPassage, preparePassage, readPassage, unitValues } from './passageScan';
import { analyse, type AnalysedText, type Term } from './terms';
import { type TermStats, uniformTermStats } from './termStats';
import { checkValues, extractValues, type ValueCheck, type ValueMention } from './values';
import { splitClauses } from './clauses';
import { extractNames, missingNames, type NameMention, type PassageNames, passageStems } from './names';

/** Each idea of the lexical tier can be switched off (for the ablation in docs/verifier.md). */
export interface LexicalFeatures {
  /** Weight terms by inverse document frequency (needs termStats). */
  idf: boolean;
  /** Match Porter stems instead of exact words. */
  stemming: boolean;
  /** Numbers, amounts and dates must be present with the same value. */
  values: boolean;
  /** A negation on one side only is a conflict. */
  negation: boolean;
  /** Score against the best `window` passage sentences (chosen greedily); 0 = the whole passage. */
  window: number;
  /** Each clause of a compound sentence must be backed on its own (the score is the weakest clause's). */
  clauses: boolean;
  /** Proper names must appear in the passage (like values). */
  names: boolean;
}

export const DEFAULT_LEXICAL_FEATURES: LexicalFeatures = { idf: true, stemming: true, values: true, negation: true, window: 4, clauses: true, names: true };

export interface LexicalScorerOptions {
  termStats?: TermStats;
  features?: Partial<LexicalFeatures>;
}

// Passages prepared per scorer: one answer cites the same passage from several sentences.
const PASSAGE_CACHE_LIMIT = 256;
// Sentences analysed per scorer: one sentence is scored against each passage it cites and their union.
const SENTENCE_CACHE_LIMIT = 64;

/** A sentence as the score reads it, the same against every passage. */
interface Claim {
  analysed: AnalysedText;
  /** Distinct stems (words with stemming off), in order, and their weights. */
  stems: string[];
  weights: number[];
  total: number;
  /** Values stated in the sentence (read only when that feature is on). */
  values: ValueMention[];
  /** Clauses of a compound sentence with the indices (into `stems`) of their terms; empty for a simple sentence. */
  clauses: { text: string; terms: number[] }[];
  /** Proper names of the sentence (read only when that feature is on). */
  names: NameMention[];
}

function negatedStems(terms: Term[], negations: number[]): Set<string> {
  const negated = new Set<string>();
  for (const n of negations) {
    const head = terms.find((t) => t.position > n);
    if (head && head.position <= n + NEGATION_SCOPE) negated.add(head.stem);
  }
  return negated;
}

/** Adjacent missing words of the sentence joined into phrases: "'business class'". */
function missingPhrases(terms: Term[], missing: Set<string>, limit: number): string {
  const phrases: string[] = [];
  let current: Term[] = [];
  const flush = (): void => {
    if (current.length) phrases.push(`'${current.map((t) => t.word).join(' ')}'`);
    current = [];
  };
  for (const t of terms) {
    if (!missing.has(t.stem)) {
      flush();
      continue;
    }
    if (current.length && t.position !== current[current.length - 1].position + 1) flush();
    current.push(t);
  }
  flush();
  const shown = phrases.slice(0, limit).join(', ');
  return phrases.length > limit ? `${shown} and ${phrases.length - limit} more` : shown;
}

export function createLexicalScorer(options: LexicalScorerOptions = {}): SupportScorer {
  const features: LexicalFeatures = { ...DEFAULT_LEXICAL_FEATURES, ...options.features };
  const stats = features.idf && options.termStats ? options.termStats : uniformTermStats;
  const termOptions = { stemming: features.stemming };
  const passages = new LruCache<string, PreparedPassage>(PASSAGE_CACHE_LIMIT);
  const sentences = new LruCache<string, Claim>(SENTENCE_CACHE_LIMIT);
  const passageStemSets = new LruCache<string, PassageNames>(PASSAGE_CACHE_LIMIT);

  function claimOf(sentence: string): Claim {
    let claim = sentences.get(sentence);
    if (!claim) {
      const analysed = analyse(sentence, termOptions);
      const weights = new Map<string, number>();
      for (const t of analysed.terms) if (!weights.has(t.stem)) weights.set(t.stem, stats.idf(features.stemming ? t.stem : t.word));
      let total = 0;
      for (const w of weights.values()) total += w;
      const values = features.values ? extractValues(sentence) : [];
      const stems = [...weights.keys()];
      const clauses = features.clauses ? clausesOf(sentence, stems, termOptions) : [];
      const names = features.names ? extractNames(sentence) : [];
      claim = { analysed, stems, weights: [...weights.values()], total, values, clauses, names };
      sentences.set(sentence, claim);
    }
    return claim;
  }

  function prepared(text: string): PreparedPassage {
    let passage = passages.get(text);
    if (!passage) {
      passage = preparePassage(text);
      passages.set(text, passage);
    }
    return passage;
  }

  function stemsOf(text: string): PassageNames {
    let found = passageStemSets.get(text);
    if (!found) {
      found = passageStems(text);
      passageStemSets.set(text, found);
    }
    return found;
  }

  function score(sentence: string, passage: string): SupportResult {
    const { analysed: claim, stems, weights: w, total, values: claimed, clauses, names } = claimOf(sentence);
    if (stems.length === 0) {
      return { score: 0, code: 'low-support', explanation: 'the sentence has no content words to check against the passage' };
    }

    const text = prepared(passage);
    // Only the units holding a sentence term, with which terms each holds: the greedy rounds
    // below work on these flags (units without a sentence term never add weight).
    const units = readPassage(text, stems, features.stemming);
    const isCovered = stems.map(() => false);
    const limit = features.window > 0 ? features.window : units.length;
    const chosen: PassageUnit[] = [];
    while (chosen.length < limit) {
      let best = -1;
      let bestGain = 0;
      for (let u = 0; u < units.length; u++) {
        const has = units[u].has;
        let gain = 0;
        for (let i = 0; i < stems.length; i++) if (has[i] && !isCovered[i]) gain += w[i];
        if (gain > bestGain) {
          best = u;
          bestGain = gain;
        }
      }
      if (best < 0) break;
      chosen.push(units[best]);
      for (let i = 0; i < stems.length; i++) if (units[best].has[i]) isCovered[i] = true;
    }
    const covered = new Set(stems.filter((_, i) => isCovered[i]));
    let matched = 0;
    for (let i = 0; i < stems.length; i++) if (isCovered[i]) matched += w[i];
    const overlap = matched / total;

    if (features.values) {
      const check: ValueCheck = claimed.length ? checkValues(claimed, chosen.flatMap((u) => unitValues(text, u))) : { kind: 'ok' };
      if (check.kind === 'mismatch') {
        const found = check.found.text.replace(/\s+/g, ' ');
        return conflict('value-mismatch', `'${check.claimed.text}' — the passage says ${found}`);
      }
      if (check.kind === 'missing') return conflict('low-support', `the passage does not mention '${check.claimed.text}'`);
    }

    if (features.negation && chosen.length) {
      const claimNegated = negatedStems(claim.terms, claim.negations);
      if (claim.negations.length > 0 && !chosen.some((u) => u.hasNegation)) {
        return conflict('negation-mismatch', 'the sentence negates what the passage states');
      }
      if (claim.negations.length === 0) {
        // Denied: every chosen sentence that mentions the term negates it.
        const denied = stems.filter(
          (s, i) => isCovered[i] && !claimNegated.has(s) && chosen.every((u) => !u.has[i] || u.negated[i]),
        );
        if (denied.length > 0) {
          const words = claim.terms.filter((t) => denied.includes(t.stem)).map((t) => t.word);
          return conflict('negation-mismatch', `the passage negates '${[...new Set(words)].join(' ')}'`);
        }
      }
    }

    if (names.length > 0) {
      const absent = missingNames(names, stemsOf(passage));
      if (absent.length > 0) return conflict('low-support', `the cited passage never names ${absent.map((n) => `'${n.text}'`).join(', ')}`);
    }

    const missing = new Set(stems.filter((s) => !covered.has(s)));
    // The weakest clause: a short unbacked clause is not averaged away by a long backed one.
    const weakest = weakestClause(clauses, w, isCovered);
    if (weakest && weakest.score < overlap) {
      const clauseMissing = new Set(weakest.terms.filter((i) => !isCovered[i]).map((i) => stems[i]));
      const phrases = missingPhrases(claim.terms, clauseMissing, 3);
      return { score: weakest.score, code: 'low-support', explanation: `the clause '${weakest.text}' is not backed: the cited passage does not mention ${phrases}` };
    }
    if (overlap >= 1) return { score: 1, code: 'supported' };
    const phrases = missingPhrases(claim.terms, missing, 3);
    return { score: overlap, code: 'low-support', explanation: `the cited passage does not mention ${phrases}` };
  }

  return { tier: 'lexical', score };
}

/** Words that join clauses: not a claim of the clause they open. */
const JOINING_WORDS = new Set(['including', 'plus', 'likewise', 'whereas', 'although', 'though', 'while']);

/** Clauses of a compound sentence as indices of the sentence's distinct stems (none for a simple sentence). */
function clausesOf(sentence: string, stems: string[], options: { stemming: boolean }): Claim['clauses'] {
  const parts = splitClauses(sentence);
  if (parts.length < 2) return [];
  const index = new Map(stems.map((s, i) => [s, i] as const));
  return parts
    .map((c) => ({
      text: c.text.replace(/[.!?]+$/, ''),
      terms: [...new Set(analyse(c.text, options).terms.filter((t) => !JOINING_WORDS.has(t.word)).map((t) => index.get(t.stem)).filter((i): i is number => i !== undefined))],
    }))
    .filter((c) => c.terms.length > 0);
}

/**
 * Share of its weight a clause after the first must find in the passage. Chosen on WiCE dev
 * (docs/verifier.md): the default threshold; lower floors, checking the opening clause too, or
 * counting only the words a clause adds did no better there.
 */
export const CLAUSE_FLOOR = 0.6;

/**
 * The weakest clause after the first that is under the floor, with its score ("and so may
 * monthly plans" against a passage about annual plans: 'plans' found, 'monthly' not). The
 * opening clause carries the sentence's subject and verb, and the sentence score checks it.
 */
function weakestClause(clauses: Claim['clauses'], w: number[], isCovered: boolean[]): { text: string; terms: number[]; score: number } | undefined {
  let weakest: { text: string; terms: number[]; score: number } | undefined;
  for (const c of clauses.slice(1)) {
    let total = 0;
    let matched = 0;
    for (const i of c.terms) {
      total += w[i];
      if (isCovered[i]) matched += w[i];
    }
    if (total === 0) continue;
    const score = matched / total;
    if (score < CLAUSE_FLOOR && (!weakest || score < weakest.score)) weakest = { text: c.text, terms: c.terms, score };
  }
  return weakest;
}

function conflict(code: ReasonCode, explanation: string): SupportResult {
  return { score: 0, code, explanation };
}
