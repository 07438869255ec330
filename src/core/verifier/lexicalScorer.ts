// The lexical support score (first tier): the share of the sentence's content words, weighted
// by how informative they are, that the best window of the passage contains; values must
// match exactly and a negation the other side lacks is a conflict. Deterministic, microseconds.

import type { ReasonCode, SupportResult, SupportScorer } from '../types';
import { analyse, analyseUnits, type Term } from './terms';
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

interface PassageUnit {
  stems: Set<string>;
  /** Stems within a negation's scope ("not eligible" puts "elig" here). */
  negated: Set<string>;
  hasNegation: boolean;
  text: string;
  /** Read only when a sentence states a value (most do not). */
  values?: ValueMention[];
}

// A negation governs the first content word after it, within a few tokens: "may not carry
// over" denies "carry"; a wider scope wrongly denies the objects ("would not start the race").
const NEGATION_SCOPE = 3;
const PASSAGE_CACHE_LIMIT = 256;

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
  // The same passage is scored against several sentences of one answer: analyse it once.
  const passageCache = new Map<string, PassageUnit[]>();

  function analysePassage(text: string): PassageUnit[] {
    const cached = passageCache.get(text);
    if (cached) return cached;
    const units = analyseUnits(text, termOptions).map((a): PassageUnit => ({
      stems: new Set(a.terms.map((t) => t.stem)),
      negated: negatedStems(a.terms, a.negations),
      hasNegation: a.negations.length > 0,
      text: text.slice(a.start, a.end),
    }));
    if (passageCache.size >= PASSAGE_CACHE_LIMIT) passageCache.delete(passageCache.keys().next().value as string);
    passageCache.set(text, units);
    return units;
  }

  function score(sentence: string, passage: string): SupportResult {
    const claim = analyse(sentence, termOptions);
    const weights = new Map<string, number>();
    for (const t of claim.terms) if (!weights.has(t.stem)) weights.set(t.stem, stats.idf(features.stemming ? t.stem : t.word));
    if (weights.size === 0) {
      return { score: 0, code: 'low-support', explanation: 'the sentence has no content words to check against the passage' };
    }
    let total = 0;
    for (const w of weights.values()) total += w;

    const units = analysePassage(passage);
    const stems = [...weights.keys()];
    const w = stems.map((s) => weights.get(s) ?? 0);
    // Which sentence terms each passage unit contains, looked up once; the greedy rounds below
    // then work on plain arrays (this loop is the hot path of the whole verifier).
    const members = units.map((unit) => stems.map((s) => unit.stems.has(s)));
    const isCovered = stems.map(() => false);
    const limit = features.window > 0 ? features.window : units.length;
    const chosen: PassageUnit[] = [];
    while (chosen.length < limit) {
      let best = -1;
      let bestGain = 0;
      for (let u = 0; u < units.length; u++) {
        const has = members[u];
        let gain = 0;
        for (let i = 0; i < stems.length; i++) if (has[i] && !isCovered[i]) gain += w[i];
        if (gain > bestGain) {
          best = u;
          bestGain = gain;
        }
      }
      if (best < 0) break;
      chosen.push(units[best]);
      for (let i = 0; i < stems.length; i++) if (members[best][i]) isCovered[i] = true;
    }
    const covered = new Set(stems.filter((_, i) => isCovered[i]));
    let matched = 0;
    for (const s of covered) matched += weights.get(s) ?? 0;
    const overlap = matched / total;

    if (features.values) {
      const claimed = extractValues(sentence);
      const check: ValueCheck = claimed.length ? checkValues(claimed, chosen.flatMap((u) => (u.values ??= extractValues(u.text)))) : { kind: 'ok' };
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
        const denied = [...covered].filter(
          (s) => !claimNegated.has(s) && chosen.every((u) => !u.stems.has(s) || u.negated.has(s)),
        );
        if (denied.length > 0) {
          const words = claim.terms.filter((t) => denied.includes(t.stem)).map((t) => t.word);
          return conflict('negation-mismatch', `the passage negates '${[...new Set(words)].join(' ')}'`);
        }
      }
    }

    if (overlap >= 1) return { score: 1, code: 'supported' };
    const missing = new Set([...weights.keys()].filter((s) => !covered.has(s)));
    const phrases = missingPhrases(claim.terms, missing, 3);
    return { score: overlap, code: 'low-support', explanation: `the cited passage does not mention ${phrases}` };
  }

  return { tier: 'lexical', score };
}

function conflict(code: ReasonCode, explanation: string): SupportResult {
  return { score: 0, code, explanation };
}
