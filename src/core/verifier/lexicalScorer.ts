// The lexical support score (first tier): the share of the sentence's content words, weighted
// by how informative they are, that the best window of the passage contains; values must
// match exactly and a negation the other side lacks is a conflict. Deterministic, microseconds.

import type { ReasonCode } from '../../domain/types';
import type { PassageContext, SupportResult, SupportScorer } from '../types';
import { LruCache, unitValues } from './passageScan';
import { PassageCache, type ReadyPassage } from './passageCache';
import { analyse, type AnalysedText } from '../text/terms';
import { type TermStats, uniformTermStats } from '../text/termStats';
import { checkValues, extractValues, type ValueCheck, type ValueMention } from './values';
import { clausesOf, weakestClause, type ClauseTerms } from './clauseSupport';
import { extractNames, missingNames, type NameMention } from './names';
import {
  bestPlace,
  planReading,
  readUnits,
  type ReadingPlan,
  type SupportUnit,
  windowBesideHeadings,
} from './supportWindow';
import { contextKey } from './headingContext';
import { missingPhrases } from './missingPhrases';
import { valueOfAnotherFact, valueOfAnotherName, valueOfNothingSaid } from './valueBinding';
import { boundConflict } from './valueBounds';
import { type Anchor, boundElsewhere, PassageAnchors } from './valuePlaces';
import { listCounts } from './listCounts';
import { obligationNotGiven } from './modality';
import { holdsWords, runTogether, titledStems, wordPairs, type WordPair } from './wordForms';
import { contrastCues, type ContrastCue } from './contrast';
import { clauseBreaks, metByAntonym, negatedStems, polarityConflict } from './polarity';
import { isSoftWord, metByAlternative } from './lexicon';
import { underNegatingLead } from './leadIns';
import { bothWhereEither } from './coordination';
import { hedgeWhereAlways } from './frequency';
import { quantified } from './quantified';
import { withoutAppliedCases } from './appliedBounds';
import { isCommonWord } from './commonWords';
import { findSwap } from './swaps';
import { spelledAcronyms } from './spelledAcronyms';
import { respelled, respellings, type Respelling } from './spellings';
import {
  boundAt,
  checkDateWords,
  dateWords,
  identifiers,
  looseText,
  missingIdentifier,
  quotedTitles,
  quantifierConflict,
  quantifiedNounConflict,
  mentionsQuantifier,
  exceptionRuledOut,
  unbackedClaimAdverb,
  widenedScope,
  type Bound,
  type DateWord,
} from './anchors';

/** Each idea of the lexical tier can be switched off (for the ablation in docs/verifier.md). */
export interface LexicalFeatures {
  /** Weight terms by inverse document frequency (needs termStats). */
  idf: boolean;
  /** Match Porter stems instead of exact words. */
  stemming: boolean;
  /** Numbers, amounts and dates must be present with the same value (and the same bound: "more than 5"). */
  values: boolean;
  /** A negation on one side only is a conflict. */
  negation: boolean;
  /** Score against the best `window` passage sentences (chosen greedily); 0 = the whole passage. */
  window: number;
  /** Each clause of a compound sentence must be backed on its own (the score is the weakest clause's). */
  clauses: boolean;
  /** Proper names must appear in the passage (like values). */
  names: boolean;
  /** Weekdays, months and quantifiers ("always" against "generally") are anchors, matched strictly. */
  anchors: boolean;
  /** The lexicon: a word may be met by an alternative ("sent" / "transmitted"), negation by its antonym. */
  lexicon: boolean;
  /** A rare word of the sentence (under DISTINCTIVE_SHARE of the passages) that the passage lacks sinks it (needs termStats). */
  distinctive: boolean;
  /** One place of the passage (a unit and the next) must back each clause (COHESION_FLOOR of its weight). */
  cohesion: boolean;
  /** A word put in the place of one the passage negates ("Business class is allowed" / "…is not reimbursed") sinks the sentence (swaps.ts). */
  swaps: boolean;
  /** …and a word in a noun's place ("Monthly plans" / "Annual plans"); off: synonyms read the same (swaps.ts). */
  swapNouns: boolean;
  /** The share of passages under which a word is distinctive (DISTINCTIVE_SHARE; other values for the dev sweeps). */
  distinctiveShare: number;
  /** The share of a clause one place must hold (COHESION_FLOOR; other values for the dev sweeps). */
  cohesionFloor: number;
}

/**
 * A word of the sentence found in fewer than this share of the passages is distinctive: it
 * carries the claim ("cryptowallet", "overtime rate"), and a passage without it does not back the
 * sentence, whatever else matches. Chosen on the dev answers (docs/verifier.md).
 */
export const DISTINCTIVE_SHARE = 0.001;
/** A name in at least this share of the passages is the documents' own subject ("GitHub" in GitHub's policies: "we"). */
export const SUBJECT_SHARE = 0.05;
/** Share of a clause's weight that one place of the passage must hold. */
export const COHESION_FLOOR = 0.5;

export const DEFAULT_LEXICAL_FEATURES: LexicalFeatures = {
  idf: true,
  stemming: true,
  values: true,
  negation: true,
  window: 4,
  clauses: true,
  names: true,
  anchors: true,
  lexicon: true,
  distinctive: true,
  cohesion: false,
  swaps: true,
  swapNouns: false,
  distinctiveShare: DISTINCTIVE_SHARE,
  cohesionFloor: COHESION_FLOOR,
};

export interface LexicalScorerOptions {
  termStats?: TermStats;
  features?: Partial<LexicalFeatures>;
  /** Passages ready for checks, shared with whoever prepares them as they enter a turn; absent = a cache of its own. */
  passages?: PassageCache;
}

// Sentences analysed per scorer: one sentence is scored against each passage it cites and their union.
const SENTENCE_CACHE_LIMIT = 64;
// Results kept per passage (of the sentences last checked against it).
const RESULTS_PER_PASSAGE = 16;

/** A sentence as the score reads it, the same against every passage. */
interface Claim {
  analysed: AnalysedText;
  /** Distinct stems (words with stemming off), in order, and their weights (0 for soft words). */
  stems: string[];
  weights: number[];
  /** Share of the passages holding each stem (1 when unknown). */
  shares: number[];
  total: number;
  /** Values stated in the sentence (read only when that feature is on), with the bound each carries. */
  values: ValueMention[];
  bounds: (Bound | undefined)[];
  /** Weekdays and months. */
  dates: DateWord[];
  /** Domains, addresses, paths, channels ("gsa.zoomgov.com", "#tweet-this"). */
  ids: string[];
  /** Clauses of a compound sentence with the indices (into `stems`) of their terms; empty for a simple sentence. */
  clauses: ClauseTerms[];
  /** Proper names of the sentence (read only when that feature is on). */
  names: NameMention[];
  /** Where its clauses end, for the scope of a negation (read when a negation is checked). */
  breaks?: number[];
  contrasts?: ContrastCue[];
  /** Stems of the words of its quoted titles (read when a negation is checked). */
  titled?: Set<string>;
  /** Stems of its names, for the scope of its negations (computed once). */
  nameStems?: Set<string>;
  /** Its only negation cue is "without" (read when a negation is checked). */
  withoutOnly?: boolean;
  /** Its emphatic universal ("at all"), or null (read when quantifiers are checked). */
  emphatic?: string | null;
  /** It says "always" / "every…" / "both … and", or hedges a frequency (read when quantifiers are checked). */
  universal?: boolean;
  /** It quantifies a noun ("most", "any"…) or says "without exception" (read when quantifiers are checked). */
  scoped?: boolean;
  /** Its words that have another spelling (read when a word is missing). */
  spellings?: Respelling[];
  /** Its pairs of adjacent words (read when a word is missing, for words the passage runs together). */
  pairs?: WordPair[];
  /** What to look for in a passage: its stems and the lexicon's (read at its first check). */
  plan?: ReadingPlan;
  /** Each value's own phrase (read when its values are checked against another fact). */
  phrases?: { terms: number[]; text: string }[];
  /** Its values with a unit and its weekdays, where they are (read when they are checked against the passage's places). */
  anchors?: Anchor[];
  /** Each stem's index in `stems` (read when a word is missing, for words the passage runs together). */
  at?: Map<string, number>;
  text: string;
}

/** A result as the caller gets it: its own copy, so that a change made to it cannot reach the kept one. */
function copyOf(result: SupportResult): SupportResult {
  return result.missing
    ? { ...result, missing: { ...result.missing, words: [...result.missing.words] } }
    : { ...result };
}

// A sentence whose only negation is "without" ("used without approval"), see NegationPlace.
const WITHOUT_CUE = /\bwithout\b/i;
const OTHER_CUES = /\b(?:not|no|never|none|nor|neither|nobody|nothing|cannot|unless)\b|n['’]t\b/i;
const ACRONYM = /^\p{Lu}[\p{Lu}\d]+$/u;
const FIRST_PERSON_PLURAL = /\b(?:we|our|ours|us)\b/;
// A numeral's token, or an ordinal's suffix (the tokens read "19th" as "19" and "th").
const DIGIT_FIRST = /^(?:\d|(?:st|nd|rd|th)$)/;

export function createLexicalScorer(options: LexicalScorerOptions = {}): SupportScorer {
  const features: LexicalFeatures = { ...DEFAULT_LEXICAL_FEATURES, ...options.features };
  const statsKnown = features.idf && options.termStats !== undefined;
  const stats = statsKnown ? (options.termStats as TermStats) : uniformTermStats;
  const known = options.termStats;
  const termOptions = { stemming: features.stemming };
  const passages = options.passages ?? new PassageCache();
  // The result of each sentence checked against a passage (they depend on this scorer's weights and features).
  const results = new WeakMap<ReadyPassage, LruCache<string, SupportResult>>();
  const sentences = new LruCache<string, Claim>(SENTENCE_CACHE_LIMIT);
  // ln((N+1)/(df+1)) + 1 = idf, so (df+1)/(N+1) = e^(1-idf): the share of passages holding a stem.
  const shareOf = (s: string): number => (known ? Math.exp(1 - known.idf(s)) : 1);
  // 1/(N+1): the share of a stem no passage holds (no stem has a control character).
  const unseenShare = shareOf('\u0001');

  function claimOf(sentence: string): Claim {
    let claim = sentences.get(sentence);
    if (!claim) {
      const analysed = analyse(sentence, termOptions);
      const weights = new Map<string, number>();
      for (const t of analysed.terms) {
        if (weights.has(t.stem)) continue;
        weights.set(
          t.stem,
          features.lexicon && isSoftWord(t.stem) ? 0 : stats.idf(features.stemming ? t.stem : t.word),
        );
      }
      let total = 0;
      for (const w of weights.values()) total += w;
      const values = features.values ? extractValues(sentence) : [];
      const bounds = features.anchors
        ? values.map((v) => boundAt(sentence, v.start ?? 0, v.end ?? 0))
        : values.map(() => undefined);
      const stems = [...weights.keys()];
      const clauses = features.clauses ? clausesOf(sentence, stems, termOptions) : [];
      const names = features.names ? extractNames(sentence) : [];
      const dates = features.anchors ? dateWords(sentence) : [];
      const ids = features.anchors ? [...identifiers(sentence), ...quotedTitles(sentence)] : [];
      claim = {
        analysed,
        stems,
        weights: [...weights.values()],
        shares: stems.map(shareOf),
        total,
        values,
        bounds,
        dates,
        ids,
        clauses,
        names,
        text: sentence,
      };
      sentences.set(sentence, claim);
    }
    return claim;
  }

  const passageOf = (text: string): ReadyPassage => passages.ready(text);

  // What the last scoreOnce read: the sentence and which of its stems the window holds.
  let last: { claim: Claim; covered: readonly boolean[] } | undefined;

  // A sentence checked against a passage again (a sentence citing it twice, a turn re-verified) gets
  // the result kept the first time, as a copy: the check depends on nothing else.
  function score(sentence: string, passage: string, context?: PassageContext): SupportResult {
    const ready = passageOf(passage);
    let kept = results.get(ready);
    if (!kept) results.set(ready, (kept = new LruCache(RESULTS_PER_PASSAGE)));
    const key = context ? `${sentence}\u0000${contextKey(context)}` : sentence;
    let result = kept.get(key);
    if (!result) {
      result = scoreWithOtherSpelling(sentence, passage, context);
      kept.set(key, result);
    }
    return copyOf(result);
  }

  // A word the passage spells the other way ("organised" / "organized") is that word: spellings.ts.
  function scoreWithOtherSpelling(sentence: string, passage: string, context?: PassageContext): SupportResult {
    const first = scoreWithJoinedWords(sentence, passage, context);
    if (first.score >= 1 || first.code !== 'low-support' || !features.stemming) return first;
    const { names } = passageOf(passage);
    const claim = claimOf(sentence);
    const other = respelled(sentence, (claim.spellings ??= respellings(sentence)), (s) => names.stems.has(s));
    const second = other === sentence ? first : scoreWithJoinedWords(other, passage, context);
    return second.score > first.score ? second : first;
  }

  function scoreWithJoinedWords(sentence: string, passage: string, context?: PassageContext): SupportResult {
    const first = scoreOnce(sentence, passage, context);
    if (first.score >= 1 || first.code === 'value-mismatch' || first.code === 'negation-mismatch' || !last) {
      return first;
    }
    // Two words the passage writes as one ("time zone" / "timezone") are that word.
    const { claim, covered } = last;
    const at = (claim.at ??= new Map(claim.stems.map((s, i) => [s, i] as const)));
    const missing = (s: string): boolean => {
      const i = at.get(s);
      return i !== undefined && !covered[i];
    };
    claim.pairs ??= wordPairs(sentence, termOptions.stemming);
    const read = passageOf(passage);
    const seen = (read.joined ??= new Map());
    // The joined words `runTogether` will ask about (a pair with a word missing), looked up together.
    const asked = claim.pairs
      .filter((p) => (missing(p.first) || missing(p.second)) && !seen.has(p.joined))
      .map((p) => p.joined);
    if (asked.length > 0) holdsWords(read.prepared, asked).forEach((held, k) => seen.set(asked[k], held));
    const joined = runTogether(sentence, claim.pairs, (word) => seen.get(word) === true, missing);
    if (joined === sentence) return first;
    const second = scoreOnce(joined, passage, context);
    return second.score > first.score ? second : first;
  }

  function scoreOnce(sentence: string, passage: string, context?: PassageContext): SupportResult {
    last = undefined;
    const claim = claimOf(sentence);
    const { analysed, stems, weights: w, total } = claim;
    if (stems.length === 0 || total === 0) {
      return {
        score: 0,
        code: 'low-support',
        explanation: 'the sentence has no content words to check against the passage',
      };
    }

    const read = passageOf(passage);
    const text = read.prepared;
    const units = readUnits(
      text,
      (claim.plan ??= planReading(stems, {
        stemming: features.stemming,
        lexicon: features.lexicon,
        negated: analysed.negations.length > 0,
      })),
    );
    const direct = stems.map((_, i) => units.some((u) => u.has[i]));
    const viaAntonym = features.lexicon
      ? metByAntonym({ terms: analysed.terms, stems, negations: analysed.negations }, units, direct)
      : stems.map(() => false);
    for (const u of units) {
      for (let i = 0; i < stems.length; i++) {
        if (viaAntonym[i] && u.antonym[i] && !u.has[i]) {
          u.has[i] = 1;
          u.via[i] = 1;
        }
      }
    }
    const window = windowBesideHeadings(units, w, features.window, context);
    const { chosen, covered: isCovered } = window;
    if (window.headingOnly) {
      return conflict('low-support', "only the passage's heading holds these words; its text does not say it");
    }
    const covered = new Set(stems.filter((_, i) => isCovered[i]));
    last = { claim, covered: isCovered };
    let matched = 0;
    for (let i = 0; i < stems.length; i++) if (isCovered[i]) matched += w[i];
    let overlap = matched / total;

    if (features.values && claim.values.length) {
      const found: { v: ValueMention; unit: SupportUnit }[] = [];
      const inWindow: ValueMention[] = [];
      for (const u of chosen) {
        for (const v of unitValues(text, u)) {
          found.push({ v, unit: u });
          inWindow.push(v);
        }
      }
      const asked = withoutAppliedCases(claim.text, claim.values, inWindow);
      const check: ValueCheck = checkValues(asked, [...inWindow, ...(read.lists ??= listCounts(passage))]);
      if (check.kind === 'mismatch') {
        const said = check.found.text.replace(/\s+/g, ' ');
        return conflict('value-mismatch', `'${check.claimed.text}' — the passage says ${said}`);
      }
      if (check.kind === 'missing') {
        return conflict('low-support', `the passage does not mention '${check.claimed.text}'`);
      }
      // Every value is in the window, whatever its form ("2025–26" / "2025-2026", "$1.5 million"
      // / "$1,500,000", "19th" / "nineteenth"): the numerals that wrote them are met.
      for (let i = 0; i < stems.length; i++) {
        if (isCovered[i] || !DIGIT_FIRST.test(stems[i])) continue;
        isCovered[i] = true;
        covered.add(stems[i]);
        matched += w[i];
      }
      overlap = matched / total;
      const bound = features.anchors ? boundConflict(claim, found, text.text) : undefined;
      if (bound) return conflict('value-mismatch', bound);
      const bound2 = features.anchors ? valueOfAnotherFact(claim, units, (u) => unitValues(text, u)) : undefined;
      if (bound2) return conflict('value-mismatch', bound2);
      const named = features.anchors
        ? valueOfAnotherName(claim, claim.names, units, (u) => unitValues(text, u))
        : undefined;
      if (named) return conflict('value-mismatch', named);
      const elsewhere = features.anchors && valueOfNothingSaid(claim, units, (u) => unitValues(text, u), text.text);
      if (elsewhere) return conflict('value-mismatch', elsewhere);
    }

    if (features.anchors && claim.dates.length) {
      const dates = checkDateWords(claim.dates, (read.dates ??= dateWords(passage)));
      if (dates.kind === 'mismatch') {
        return conflict('value-mismatch', `'${dates.claimed.text}' — the passage says ${dates.found.text}`);
      }
      if (dates.kind === 'missing') {
        return conflict('low-support', `the passage does not mention '${dates.claimed.text}'`);
      }
    }

    const placed = features.anchors && boundElsewhere(claim, chosen, () => (read.anchors ??= new PassageAnchors(text)));
    if (placed) return conflict('value-mismatch', placed);

    if (claim.ids.length) {
      const id = missingIdentifier(claim.ids, text.lower, () => (read.plain ??= looseText(passage)));
      if (id) return conflict('low-support', `the cited passage never gives '${id}'`);
    }

    if (features.negation && chosen.length) {
      const polarity = polarityConflict(
        {
          terms: analysed.terms,
          stems,
          negations: analysed.negations,
          breaks: (claim.breaks ??= clauseBreaks(sentence)),
          contrasts: (claim.contrasts ??= contrastCues(sentence)),
          titled: (claim.titled ??= titledStems(sentence, termOptions)),
          named: (claim.nameStems ??= new Set(claim.names.map((n) => n.stem))),
          text: sentence,
        },
        chosen,
        isCovered,
        viaAntonym,
        w,
        {
          withoutOnly: (claim.withoutOnly ??= WITHOUT_CUE.test(sentence) && !OTHER_CUES.test(sentence)),
          units: window.units,
          textOf: (u) => text.text.slice(u.start, u.end),
          negatingLead: (u) => underNegatingLead(text.text, u.start),
        },
      );
      if (polarity) return conflict('negation-mismatch', polarity);
    }

    if (claim.names.length > 0) {
      const known = read.names;
      // A name the lexicon knows another form of ("ID" / "identification"); a capitalised common
      // word ("Legal" team) names something, and its synonyms ("legitimate") do not name it.
      let absent = missingNames(claim.names, known).filter(
        (n) => !((ACRONYM.test(n.text) || !isCommonWord(n.stem)) && metByAlternative(n.stem, known.stems)),
      );
      // An acronym the passage spells out in lower case ("AO" / "authorizing official") is named, and its word met.
      const spelled = absent.length ? spelledAcronyms(absent, text.text) : [];
      for (const n of spelled) {
        const i = stems.indexOf(n.stem);
        if (i >= 0 && !isCovered[i]) [isCovered[i], matched] = [true, matched + w[i]];
        covered.add(n.stem);
      }
      if (spelled.length) [absent, overlap] = [absent.filter((n) => !spelled.includes(n)), matched / total];
      // "We" in GitHub's own policy is GitHub: a name in a large share of the passages is the documents' subject.
      // A capitalised common word ("Legal", "Security") names a team or a product, never the "we".
      if (absent.length && statsKnown && (read.firstPerson ??= FIRST_PERSON_PLURAL.test(text.lower))) {
        absent = absent.filter((n) => shareOf(n.stem) < SUBJECT_SHARE || isCommonWord(n.stem));
      }
      if (absent.length > 0) {
        return conflict('low-support', `the cited passage never names ${absent.map((n) => `'${n.text}'`).join(', ')}`);
      }
    }

    if (features.anchors && chosen.length && quantified(claim)) {
      const windowText = chosen.map((u) => text.text.slice(u.start, u.end)).join('\n');
      const hedge = quantifierConflict(sentence, windowText);
      if (hedge) return conflict('low-support', `the sentence claims more than the passage, which says '${hedge}'`);
      const always = hedgeWhereAlways(sentence, windowText) ?? bothWhereEither(sentence, windowText);
      if (always) return conflict('low-support', always);
      const quantifiedNoun = mentionsQuantifier(sentence) ? quantifiedNounConflict(sentence, windowText) : undefined;
      if (quantifiedNoun) return conflict('low-support', quantifiedNoun);
      const wider = widenedScope(claim.emphatic ?? null, windowText);
      if (wider) return conflict('low-support', `the sentence says '${wider}'; the passage sets no such scope`);
      const ruledOut = exceptionRuledOut(sentence, windowText);
      const why = `the sentence says '${ruledOut}'; the passage does not rule exceptions out`;
      if (ruledOut) return conflict('low-support', why);
    }

    const windowOf = (): string => chosen.map((u) => text.text.slice(u.start, u.end)).join('\n');
    const duty = features.anchors && obligationNotGiven(sentence, windowOf);
    if (duty) return conflict('low-support', duty);
    const adverb = features.anchors
      ? unbackedClaimAdverb(stems, isCovered, negatedStems(analysed.terms, analysed.negations), windowOf)
      : undefined;
    if (adverb !== undefined) {
      const said = analysed.terms.find((t) => t.stem === adverb)?.word ?? adverb;
      return conflict('low-support', `the passage does not say '${said}'`);
    }

    const missing = new Set(stems.filter((s) => !covered.has(s)));
    if (features.distinctive && statsKnown) {
      // In at most one passage, or under the share: a small index still has rare words.
      const under = Math.max(features.distinctiveShare, 2.5 * unseenShare);
      const rare = new Set(
        stems.filter((s, i) => missing.has(s) && w[i] > 0 && claim.shares[i] < under && !isCommonWord(s)),
      );
      if (rare.size > 0) {
        let ifMet = matched;
        stems.forEach((s, i) => rare.has(s) && (ifMet += w[i]));
        const words = [...new Set(analysed.terms.filter((t) => rare.has(t.stem)).map((t) => t.word))];
        // A rule that sinks the sentence sinks it at every threshold (0, as a missing name or value):
        // the threshold is the share of wording a paraphrase must keep, not a bar for the rules.
        return {
          score: 0,
          code: 'low-support',
          explanation: `the cited passage does not mention ${missingPhrases(analysed.terms, rare, 3)}`,
          missing: { words, scoreIfMet: ifMet / total },
        };
      }
    }

    // The weakest clause: a short unbacked clause is not averaged away by a long backed one. Under
    // its floor it sinks the sentence at every threshold, as the distinctive words do.
    const weakest = weakestClause(claim.clauses, w, isCovered);
    if (weakest) {
      const clauseMissing = new Set(weakest.terms.filter((i) => !isCovered[i]).map((i) => stems[i]));
      const phrases = missingPhrases(analysed.terms, clauseMissing, 3);
      return {
        score: 0,
        code: 'low-support',
        explanation: `the clause '${weakest.text}' is not backed: the cited passage does not mention ${phrases}`,
      };
    }

    // A word replaced by another in the passage's own place: swaps.ts.
    // Without the noun place, only a place one side negates: units with a negation (all when the sentence has one).
    const negatedOnly = !features.swapNouns && analysed.negations.length === 0;
    const windowTexts =
      features.swaps && overlap < 1
        ? chosen.filter((u) => !negatedOnly || u.hasNegation).map((u) => text.text.slice(u.start, u.end))
        : [];
    const swap = windowTexts.length
      ? findSwap({
          sentence,
          matched: (s) => covered.has(s),
          units: windowTexts,
          stemming: features.stemming,
          nounPlaces: features.swapNouns,
        })
      : undefined;
    if (swap) return conflict('low-support', swap.explanation);

    if (features.cohesion && overlap >= features.cohesionFloor) {
      const parts = claim.clauses.length ? claim.clauses.map((c) => c.terms) : [stems.map((_, i) => i)];
      for (const terms of parts) {
        const place = bestPlace(chosen, terms, w);
        if (place < features.cohesionFloor) {
          return {
            score: Math.min(overlap, place),
            code: 'low-support',
            explanation: 'no one place of the passage says this: its words are gathered from different sentences',
          };
        }
      }
    }

    if (overlap >= 1) return { score: 1, code: 'supported' };
    const phrases = missingPhrases(analysed.terms, new Set([...missing].filter((s) => w[stems.indexOf(s)] > 0)), 3);
    return {
      score: overlap,
      code: 'low-support',
      explanation: phrases
        ? `the cited passage does not mention ${phrases}`
        : 'the cited passage backs too little of the sentence',
    };
  }

  return { tier: 'lexical', score: (sentence, passage, _signal, context) => score(sentence, passage, context) };
}

function conflict(code: ReasonCode, explanation: string): SupportResult {
  return { score: 0, code, explanation };
}
