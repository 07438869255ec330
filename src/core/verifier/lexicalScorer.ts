// The lexical support score (first tier): the share of the sentence's content words, weighted
// by how informative they are, that the best window of the passage contains; values must
// match exactly and a negation the other side lacks is a conflict. Deterministic, microseconds.

import type { ReasonCode } from '../../domain/types';
import type { SupportResult, SupportScorer } from '../types';
import { LruCache, NEGATION_SCOPE, type PassageUnit, type PreparedPassage, preparePassage, readPassage, unitValues } from './passageScan';
import { analyse, type AnalysedText, type Term } from './terms';
import { type TermStats, uniformTermStats } from './termStats';
import { checkValues, extractValues, type ValueCheck, type ValueMention } from './values';

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
}

export const DEFAULT_LEXICAL_FEATURES: LexicalFeatures = { idf: true, stemming: true, values: true, negation: true, window: 4 };

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

  function claimOf(sentence: string): Claim {
    let claim = sentences.get(sentence);
    if (!claim) {
      const analysed = analyse(sentence, termOptions);
      const weights = new Map<string, number>();
      for (const t of analysed.terms) if (!weights.has(t.stem)) weights.set(t.stem, stats.idf(features.stemming ? t.stem : t.word));
      let total = 0;
      for (const w of weights.values()) total += w;
      const values = features.values ? extractValues(sentence) : [];
      claim = { analysed, stems: [...weights.keys()], weights: [...weights.values()], total, values };
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

  function score(sentence: string, passage: string): SupportResult {
    const { analysed: claim, stems, weights: w, total, values: claimed } = claimOf(sentence);
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

    if (overlap >= 1) return { score: 1, code: 'supported' };
    const missing = new Set(stems.filter((s) => !covered.has(s)));
    const phrases = missingPhrases(claim.terms, missing, 3);
    return { score: overlap, code: 'low-support', explanation: `the cited passage does not mention ${phrases}` };
  }

  return { tier: 'lexical', score };
}

function conflict(code: ReasonCode, explanation: string): SupportResult {
  return { score: 0, code, explanation };
}
