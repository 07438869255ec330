// Negation polarity: the sentence and the place of the passage that backs it must agree on what
// is affirmed and what is denied. A negation may be written as a cue ("not", "can't", "without")
// or carried by a word ("prohibited", "unable", "forfeited"), and "not allowed" says what
// "prohibited" says. Strict on purpose: a dropped negation turns a policy upside down.

import { caselessIndexOf } from '../text/caseless';
import { matchesOf } from '../text/matches';
import { TOKEN, stem, type Term } from '../text/terms';
import type { SupportUnit } from './supportWindow';
import { NEGATION_SCOPE } from './passageScan';
import { FORBIDDING_WORDS, NEGATIVE_WORDS } from './lexicon';
import type { ContrastCue } from './contrast';
import { DATE_STEMS } from './anchors';
import { phraseAround, phraseBreaks, placeOfPhrase } from './phrasePlace';

export interface PolarityClaim {
  terms: Term[];
  stems: string[];
  negations: number[];
  /** Stems of the words inside the sentence's quoted titles ("Use or Lose"). */
  titled?: ReadonlySet<string>;
  /** Token positions after which a clause ends (":", ";", a dash): a cue negates nothing past one. */
  breaks?: readonly number[];
  /** Stems of the proper names of the sentence ("Savatage"). */
  named?: ReadonlySet<string>;
  /** Its contrasts ("VDI — not Citrix"): the "not" excludes, it does not negate (contrast.ts). */
  contrasts?: readonly ContrastCue[];
  /** Stems a contrast of the sentence excludes: not claimed, so not read as affirmed. */
  excluded?: ReadonlySet<string>;
  /** The sentence's text, for the phrase around a word (phrasePlace.ts). */
  text?: string;
}

// Our own copy of the token pattern (matchAll starts from a shared regex's lastIndex).
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

/** Token positions after which the text breaks into another clause ("aren't automatic: they need…"). */
export function clauseBreaks(text: string): number[] {
  const breaks: number[] = [];
  let position = -1;
  let last = 0;
  for (const m of matchesOf(WORDS, text)) {
    if (position >= 0 && /[:;—–()]/u.test(text.slice(last, m.index))) breaks.push(position);
    position++;
    last = (m.index ?? 0) + m[0].length;
  }
  return breaks;
}

/**
 * Where a unit's words are, for the one reading no cue marks: "without approval" says what "don't
 * require approval" / "without the need to file" says. Only for a sentence whose every cue is
 * "without": "must not attend" forbids, and "not required to attend" does not.
 */
export interface NegationPlace {
  withoutOnly: boolean;
  /** Every unit of the passage holding a word of the sentence (the window is a few of them). */
  units?: readonly SupportUnit[];
  textOf: (unit: SupportUnit) => string;
  /** Whether the unit is a list item under a lead-in that negates or forbids ("prohibited from:"). */
  negatingLead?: (unit: SupportUnit) => boolean;
}

// A negated need: "don't require", "no need to", "not necessary", "without the need to"; and a need
// whose subject is a negative determiner's phrase ("No further action in Concur is needed").
const NOT_NEEDED =
  /(?:\b(?:not|no|without|never)|n['’]t)\s+(?:\w+\s+){0,2}?(?:need|needs|needed|require|requires|required|necessary)\b|\b(?:no|nothing)\s+(?:[\w-]+\s+){0,5}?(?:is|are|was|were|will\s+be)\s+(?:needed|required|necessary)\b/i;

// Stems of the words of need ("need", "require", "necessary"): a negation of one is about its object.
const NEED_WORDS = new Set(['need', 'requir', 'necessari', 'mandatori', 'oblig']);

// A whole word: no letter or number right before it or right after it (asked at a place, `u` as the word's own pattern was).
const NO_WORD_BEFORE = /(?<![\p{L}\p{N}])/uy;
const NO_WORD_AFTER = /(?![\p{L}\p{N}])/uy;
// A negated predicate after the word, in its clause.
const NEGATED_PREDICATE =
  /^[^.,;:!?]{0,60}?\b(?:is|are|was|were|do|does|did|will|can|may|shall|should|must|could|would)(?:\s+not\b|n['’]t\b)/u;

/**
 * The word as the subject of a negated predicate in the text: "Nationality and ethnicity are not
 * used" negates "nationality" (the cue follows it in the same clause).
 */
function negatedAfter(text: string, word: string): boolean {
  const at = wholeWordAt(text.toLowerCase(), word);
  if (at < 0) return false;
  return NEGATED_PREDICATE.test(text.slice(at).toLowerCase());
}

/**
 * Where the word first stands whole in the text, or -1: what searching the text with the pattern
 * `(?<![\p{L}\p{N}])word(?![\p{L}\p{N}])` (flag `u`) gives, without making that pattern for each word.
 */
function wholeWordAt(text: string, word: string): number {
  for (let at = text.indexOf(word); at >= 0;) {
    // A `u` pattern never starts between the two halves of a surrogate pair.
    const inPair = at > 0 && isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1));
    NO_WORD_BEFORE.lastIndex = at;
    NO_WORD_AFTER.lastIndex = at + word.length;
    if (!inPair && NO_WORD_BEFORE.test(text) && NO_WORD_AFTER.test(text)) return at;
    const next = text.indexOf(word, at + 1);
    // (An empty word is found at the end again.)
    if (next <= at) break;
    at = next;
  }
  return -1;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

// A new predicate of the same sentence starts after these: "declined the offer and joined Globex"
// does not decline joining.
const NEW_PREDICATE = new Set(['and', 'but', 'while', 'whereas', 'yet']);

/**
 * Whether a negative word of the unit rejects the word (given by its stem), for the contrast check
 * (the words "not Citrix" excludes must not stand affirmed): any negative word other than the word
 * itself, except one that only sits in another predicate coordinated with the word's in the same
 * sentence ("Whitfield declined the offer and joined Globex" does not deny joining; "Parking is
 * reimbursed and Wi-Fi is free" does not deny reimbursing). A word the unit holds only through another form (the lexicon's "pay" for "paid")
 * is not placed, and the negative word stands.
 */
function negativeWordGoverns(unit: SupportUnit, head: string, place: NegationPlace | undefined): boolean {
  const others = [...unit.negativeWords].filter((w) => w !== head);
  if (others.length === 0) return false;
  if (!place) return true;
  const text = place.textOf(unit);
  const tokens: { stem: string; word: string; start: number; end: number }[] = [];
  for (const m of matchesOf(WORDS, text)) {
    const word = m[0].toLowerCase();
    tokens.push({ stem: stem(word), word, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  const negatives = new Set(others);
  const heads = tokens.flatMap((t, i) => (t.stem === head ? [i] : []));
  const negativeAt = tokens.flatMap((t, i) => (negatives.has(t.stem) ? [i] : []));
  if (heads.length === 0 || negativeAt.length === 0) return true;
  // Another predicate of the same sentence: a coordinating word between them and no punctuation.
  const coordinated = (a: number, b: number): boolean => {
    const [from, to] = a < b ? [a, b] : [b, a];
    if (/[.,;:!?—–()\n]/u.test(text.slice(tokens[from].end, tokens[to].start))) return false;
    for (let k = from + 1; k < to; k++) if (NEW_PREDICATE.has(tokens[k].word)) return true;
    return false;
  };
  return heads.some((h) => negativeAt.some((n) => !coordinated(n, h)));
}

// "Not" or "never" right before a word, a "be" or an adverb between: asked where the word stands.
const NOT_BEFORE: readonly RegExp[] = [
  new RegExp(
    `(?<=(?:\\b(?:not|never)|n['’]t)\\s+(?:(?:be|been|being|strictly|necessarily|expressly|explicitly)\\s+)?)`,
    'iuy',
  ),
];

/** Whether a word opening with `stemmed` is negated right before it ("is not prohibited", "isn't banned"). */
function notBefore(text: string, stemmed: string): boolean {
  return endsShape(text, stemmed, NOT_BEFORE);
}

// A word the passage negates by the shape of its clause, beyond the first word after a cue:
// a negative determiner negates its noun phrase ("with no visible activity"), and as the subject
// of its clause the clause's predicate too ("No individual hired under this authority can
// serve…" negates "serve"; "if no govt. contract discounted fares are available" negates
// "discounted"); "not" before a preposition negates the phrase it opens ("not between staff and
// the receiving agency"); "un-" negates its word ("unavailable"); a negated permission negates what
// it permits ("doesn't let you report"); a negated verb negates its object ("do not use your travel card");
// "rather than" / "instead of" reject what they name ("close boards rather than deleting them").
const CLAUSE_WORD = String.raw`[\p{L}\p{N}.'’/-]+`;
const CLAUSE_START = String.raw`(?:^\s*|[.,;:!?—–(\n]\s*|(?<![\p{L}\p{N}])(?:and|but|or|if|when|where|whether|that|so|because|since|while|unless|then)\s+)`;

// Each shape ends with the word: its stem and any letters after it (which always match, as many as
// there are). So a shape matches the text exactly where the stem stands and the rest of the shape
// ends right before it: the rest is one look-behind pattern for every stem, asked at each place of
// the stem (`caselessIndexOf`, as the `iu` flags find it). Made once: a pattern per stem would be
// compiled for every new word, milliseconds each with `\p{L}` and the `iu` flags.
export const CLAUSE_SHAPES_BEFORE: readonly string[] = [
  String.raw`${CLAUSE_START}(?:no|neither)\s+(?:${CLAUSE_WORD}\s+){0,7}?`,
  String.raw`(?<![\p{L}\p{N}])(?:no|neither)\s+(?:${CLAUSE_WORD}\s+){0,2}?`,
  String.raw`(?<![\p{L}\p{N}])not\s+(?:between|for|to|from|with|by|in|on|at|of|through|via|under|as|within)\s+(?:${CLAUSE_WORD}\s+){0,5}?`,
  String.raw`(?<![\p{L}\p{N}])(?:un-?|non-)`,
  // A negated verb negates its object: "Do not use your travel card" denies the travel card.
  String.raw`(?:(?<![\p{L}\p{N}])(?:not|never)|n['’]t)\s+\p{L}+\s+(?:(?:the|a|an|your|their|our|its|his|her|any|this|that|these|those)\s+)?(?:(?!(?:to|for|with|from|in|on|at|of|by|as|into|about)\b)\p{L}[\p{L}-]*\s+)?`,
  // A negated permission passes to what it permits: "Cofense doesn't let you report the email".
  String.raw`(?:(?<![\p{L}\p{N}])(?:not|never|cannot)|n['’]t)\s+(?:let|lets|allow|allows|permit|permits|enable|enables)\s+(?:${CLAUSE_WORD}\s+){0,2}?(?:to\s+)?`,
  // A negated verb negates the role it gives its object: "don't add them as members" denies "members".
  String.raw`(?:(?<![\p{L}\p{N}])(?:not|never)|n['’]t)\s+\p{L}+\s+(?:them|it|him|her|you|us|people|users)\s+as\s+(?:(?:a|an|the)\s+)?`,
  // A negated will passes to what is willed: "does not wish to pursue FedRAMP" denies pursuing.
  String.raw`(?:(?<![\p{L}\p{N}])(?:not|never)|n['’]t)\s+(?:wish|wishes|want|wants|intend|intends|plan|plans|choose|chooses|agree|agrees|mean|means)\s+to\s+(?:\p{L}+ly\s+)?`,
  // "Or" under a negation goes on negating (as "nor"): "acquire no rights to use, or interest in, the
  // logo" denies the interest too. Within the clause; the word right after "or" (an article between).
  String.raw`(?:(?<![\p{L}\p{N}])(?:no|not|never)|n['’]t)\s+[^.;:!?\n]{0,60}?(?<![\p{L}\p{N}])or\s+(?:(?:a|an|the|any)\s+)?`,
  // A contrast rejects what it names: "Close boards rather than deleting them" denies deleting.
  String.raw`(?<![\p{L}\p{N}])(?:rather\s+than|instead\s+of)\s+(?:${CLAUSE_WORD}\s+){0,2}?`,
];
const CLAUSE_SHAPES: readonly RegExp[] = CLAUSE_SHAPES_BEFORE.map((before) => new RegExp(`(?<=${before})`, 'iuy'));

/** Index of the "un-" shape in `CLAUSE_SHAPES_BEFORE`. */
const UN_SHAPE = 3;
const UN_ONLY: readonly RegExp[] = [CLAUSE_SHAPES[UN_SHAPE]];

/** Whether the text negates the word (given by its stem) through its clause's shape (see above). */
export function negatedInClause(text: string, stem: string): boolean {
  return endsShape(text, stem, CLAUSE_SHAPES);
}

/** The word written with "un-" before it ("unavailable"). */
function unPrefixed(text: string, stem: string): boolean {
  return endsShape(text, stem, UN_ONLY);
}

/** Whether one of `before` (sticky look-behinds) ends where the stem stands, at some place of it. */
function endsShape(text: string, stem: string, before: readonly RegExp[]): boolean {
  for (let at = caselessIndexOf(text, stem); at >= 0; at = caselessIndexOf(text, stem, at + 1)) {
    for (const shape of before) {
      shape.lastIndex = at;
      if (shape.test(text)) return true;
    }
  }
  return false;
}

// Verbs that only carry their object ("use invite", "make a request"): a negation of one is about the object.
const LIGHT_VERBS = new Set(['use'].map((w) => stem(w)));

/** A value's stem ("30", "191900"): a negation whose head is a value is a bound ("no more than 30 days"). */
const VALUE_STEM = /^\d/;

/** Whether the cue at `n` only bounds a value: its first term within the scope is a value ("no more than 30"). */
function boundCue(claim: PolarityClaim, n: number, index: Map<string, number>): boolean {
  const head = claim.terms.find((t) => t.position > n);
  return (
    head !== undefined && head.position <= n + NEGATION_SCOPE + 1 && index.has(head.stem) && VALUE_STEM.test(head.stem)
  );
}

/** The stems the sentence negates: the first content word within the scope after each cue. */
export function negatedStems(terms: Term[], negations: number[]): Set<string> {
  const negated = new Set<string>();
  for (const n of negations) {
    const head = terms.find((t) => t.position > n);
    if (head && head.position <= n + NEGATION_SCOPE) negated.add(head.stem);
  }
  return negated;
}

/** A conflict in words a reader can act on, or undefined when the polarities agree. */
export function polarityConflict(
  claim: PolarityClaim,
  chosen: readonly SupportUnit[],
  covered: readonly boolean[],
  viaAntonym: readonly boolean[],
  weights?: readonly number[],
  place?: NegationPlace,
): string | undefined {
  const w = (i: number): number => weights?.[i] ?? 1;
  if (chosen.length === 0) return undefined;
  if (claim.contrasts?.length) {
    return (
      contrastConflict(claim, claim.contrasts, chosen, covered, viaAntonym, w, place) ??
      polarityConflict(
        {
          ...claim,
          contrasts: undefined,
          negations: claim.negations.filter((n) => !claim.contrasts?.some((c) => c.cue === n)),
          excluded: new Set(
            claim.terms
              .filter((t) => claim.contrasts?.some((c) => t.position > c.cue && t.position <= c.end))
              .map((t) => t.stem),
          ),
        },
        chosen,
        covered,
        viaAntonym,
        weights,
        place,
      )
    );
  }
  const claimNegated = negatedStems(claim.terms, claim.negations);
  const claimNegativeWords = claim.stems.filter((s) => NEGATIVE_WORDS.has(s));
  const wordOf = (i: number): string => claim.terms.find((t) => t.stem === claim.stems[i])?.word ?? claim.stems[i];

  if (claim.negations.length > 0) {
    const index = new Map(claim.stems.map((s, i) => [s, i] as const));
    // Each negated word the passage holds must be negated there too (a cue, a negative word, or its antonym).
    // The word each cue negates, or, when the passage lacks it, the next words after the cue that it holds ("don't need a GSA IT review": "review").
    const heads: number[] = [];
    const cueOf = new Map<number, number>();
    const scoped: number[] = [];
    const objects: { term: number; phrase: number[] }[] = [];
    for (const n of claim.negations) {
      const end = claim.breaks?.find((b) => b >= n) ?? Infinity;
      const after = claim.terms
        .filter((t) => t.position > n && t.position <= end)
        .slice(0, 4)
        .map((t) => index.get(t.stem))
        .filter((i): i is number => i !== undefined);
      scoped.push(...after);
      const at = after.findIndex((i) => covered[i] && w(i) > 0);
      // A name reached past words the passage lacks is what the negated predicate is about, not what
      // it denies: "did not want to leave Savatage" does not deny Savatage ("continued playing for Savatage").
      // So is a date: "Don't confuse it with November 14" does not deny November 14.
      const reached = at > 0 ? claim.stems[after[at]] : '';
      const pastName = at > 0 && (claim.named?.has(reached) === true || DATE_STEMS.has(reached));
      let head = at >= 0 && !pastName ? after[at] : undefined;
      // A negated light verb denies its object: "Don't use invite" denies the invite, not using.
      if (head !== undefined && LIGHT_VERBS.has(claim.stems[head])) {
        // Its object right after it, a word at most between ("don't use the website"), not a phrase ("use by the end").
        const next = after[at + 1];
        const at2 = (k: number): number =>
          claim.terms.find((t) => t.position > n && t.stem === claim.stems[k])?.position ?? 0;
        if (next !== undefined && covered[next] && w(next) > 0 && at2(next) - at2(head) <= 2) head = next;
      }
      // "No more than 30 days", "can't go above $191,900": a bound on a value, which the value
      // checks read (its bound must agree with the passage's); nothing is negated.
      if (head !== undefined && VALUE_STEM.test(claim.stems[head])) continue;
      if (head !== undefined && !heads.includes(head)) {
        heads.push(head);
        cueOf.set(head, n);
      }
      // "Don't need a review": what is not needed is the review, and the passage must say that of it.
      if (head !== undefined && NEED_WORDS.has(claim.stems[head]) && place) {
        const object = after.slice(at + 1).find((i) => covered[i] && w(i) > 0);
        if (object !== undefined) objects.push({ term: object, phrase: after.slice(at + 1) });
      }
    }
    if (heads.length === 0) {
      if (claim.negations.every((n) => boundCue(claim, n, index))) return undefined;
      const negative = (u: SupportUnit): boolean => u.hasNegation || u.negativeWords.size > 0;
      // A negation of the window stands for the sentence's unless it denies a word the sentence affirms:
      // "Public Trust is … not a clearance level" does not back "holding a clearance doesn't come with
      // extra pay" (while "Business class is not reimbursed" backs "… is not covered").
      const deniesAffirmed = (u: SupportUnit): boolean =>
        claim.stems.some((s, i) => u.negated[i] === 1 && !claimNegated.has(s) && !scoped.includes(i));
      // Or a place outside the window that holds a word the cue negates, negated ("renewals are not automatic").
      const any =
        chosen.some((u) => negative(u) && !deniesAffirmed(u)) ||
        (place?.units?.some((u) => negative(u) && scoped.some((i) => u.has[i])) ?? false) ||
        // "that don't go through AcqDiv" where the passage says "Non-AcqDiv".
        (place !== undefined &&
          scoped.some((i) => chosen.some((u) => u.has[i] && unPrefixed(place.textOf(u), claim.stems[i]))));
      return any ? undefined : 'the sentence negates what the passage states';
    }
    for (const h of heads) {
      if (viaAntonym[h]) continue;
      // Negated there: the word itself, or a word of its own negation in the same sentence ("unable to determine").
      const ok = chosen.some(
        (u) =>
          u.has[h] &&
          (u.negated[h] ||
            negativeWordGoverns(u, claim.stems[h], place) ||
            (place?.withoutOnly === true && NOT_NEEDED.test(place.textOf(u))) ||
            (u.hasNegation && place !== undefined && negatedAfter(place.textOf(u), wordOf(h))) ||
            (place !== undefined && negatedInClause(place.textOf(u), claim.stems[h])) ||
            place?.negatingLead?.(u) === true),
      );
      // "Isn't available" where the passage says "unavailable", in a unit that holds no "available".
      const unWord =
        !ok &&
        place !== undefined &&
        [...chosen, ...(place.units ?? [])].some((u) => unPrefixed(place.textOf(u), claim.stems[h]));
      if (
        !ok &&
        !unWord &&
        !statedElsewhere(claim, h, cueOf.get(h) ?? 0, chosen, w, place, (u) => u.negated[h] === 1)
      ) {
        return `the sentence negates '${wordOf(h)}'; the passage does not`;
      }
    }
    for (const { term: o, phrase } of objects) {
      if (viaAntonym[o]) continue;
      const ok = chosen.some(
        (u) => u.has[o] && (u.negated[o] || u.negativeWords.size > 0 || NOT_NEEDED.test(place?.textOf(u) ?? '')),
      );
      if (!ok) return `the sentence says '${phrase.map(wordOf).join(' ')}' is not needed; the passage does not`;
    }
    return undefined;
  }

  // An affirmed sentence: a word the passage denies wherever it holds it (a word of a quoted title names, it does not affirm).
  const unclaimed = (s: string): boolean =>
    claimNegated.has(s) || claim.titled?.has(s) === true || claim.excluded?.has(s) === true;
  for (let i = 0; i < claim.stems.length; i++) {
    if (!covered[i] || viaAntonym[i] || unclaimed(claim.stems[i])) continue;
    const holding = chosen.filter((u) => u.has[i]);
    if (holding.length === 0 || !holding.every((u) => u.negated[i])) continue;
    const at = claim.terms.find((t) => t.stem === claim.stems[i])?.position ?? 0;
    if (!statedElsewhere(claim, i, at, holding, w, place, (u) => u.has[i] === 1 && u.negated[i] === 0)) {
      return `the passage negates '${wordOf(i)}'`;
    }
  }
  // A word whose opposite the passage affirms, while the passage never says the word itself.
  for (let i = 0; i < claim.stems.length; i++) {
    if ((covered[i] && !viaAntonym[i]) || claim.excluded?.has(claim.stems[i])) continue;
    const unit = chosen.find((u) => (u.antonym[i] & 1) !== 0);
    if (unit) {
      return `the passage says '${unit.antonymWords.get(i) ?? 'the opposite'}' where the sentence says '${wordOf(i)}'`;
    }
  }
  // A place that forbids what the sentence affirms ("selling usernames is prohibited").
  if (claimNegativeWords.length === 0 && !claim.excluded?.size) {
    const main = chosen[0];
    // "Not prohibited" permits (litotes): a forbidding word under a negation forbids nothing.
    const forbidding = [...main.negativeWords].find(
      (w) => FORBIDDING_WORDS.has(w) && !(place && notBefore(place.textOf(main), w)),
    );
    if (forbidding) return `the passage forbids it ('${forbidding}…'); the sentence affirms it`;
  }
  return undefined;
}

/**
 * Whether another place of the passage says of term `i` what the sentence says (`says`) and holds
 * more of the phrase around token `at` than the window's units that say otherwise (`opposite`).
 */
function statedElsewhere(
  claim: PolarityClaim,
  i: number,
  at: number,
  opposite: readonly SupportUnit[],
  w: (i: number) => number,
  place: NegationPlace | undefined,
  says: (unit: SupportUnit) => boolean,
): boolean {
  if (!place?.units || claim.text === undefined) return false;
  const index = new Map(claim.stems.map((s, k) => [s, k] as const));
  const phrase = phraseAround(claim.terms, index, phraseBreaks(claim.text), at, i);
  const stems = phrase.filter((k) => w(k) > 0).map((k) => claim.stems[k]);
  const found = placeOfPhrase(
    place.units,
    opposite,
    claim.stems[i],
    stems,
    place.textOf,
    (u) => u.has[i] === 1 && says(u),
  );
  return found !== undefined;
}

/**
 * Terms the passage meets through their opposite under a negation: "not allowed" is met by
 * "prohibited", and "prohibited" by "not allowed".
 */
export function metByAntonym(
  claim: PolarityClaim,
  units: readonly SupportUnit[],
  direct: readonly boolean[],
): boolean[] {
  const claimNegated = negatedStems(claim.terms, claim.negations);
  return claim.stems.map((s, i) => {
    if (direct[i]) return false;
    const negatedHere = claimNegated.has(s);
    return units.some((u) => (negatedHere ? (u.antonym[i] & 1) !== 0 : (u.antonym[i] & 2) !== 0));
  });
}

// What rejects the word after it in the passage's clause: a negation, a contrast, a concession
// ("the answer is VDI, even though you might think Citrix would be correct").
const REJECTING = String.raw`(?:(?<![\p{L}\p{N}])(?:not|never|no|instead\s+of|rather\s+than|even\s+though|although|though|unlike)|n['’]t)(?![\p{L}\p{N}])`;
// The stem then any letters, as with the clause shapes: what comes before it, asked where the stem stands.
const REJECTED: readonly RegExp[] = [new RegExp(`(?<=${REJECTING}[^.;:!?\\n]{0,80}?)(?<![\\p{L}\\p{N}])`, 'iuy')];

/** Whether the text rejects the word (by its stem) in its clause: a rejecting word before it, no clause end between. */
function rejectedInClause(text: string, stemmed: string): boolean {
  return endsShape(text, stemmed, REJECTED);
}

/**
 * A contrast the passage does not back: the words it excludes ("not Citrix") are in the window and
 * stand there affirmed (not negated, not after a contrast or concession in their clause). Excluded
 * words the window does not hold are not claimed, so nothing is asked of them.
 */
function contrastConflict(
  claim: PolarityClaim,
  contrasts: readonly ContrastCue[],
  chosen: readonly SupportUnit[],
  covered: readonly boolean[],
  viaAntonym: readonly boolean[],
  w: (i: number) => number,
  place: NegationPlace | undefined,
): string | undefined {
  const index = new Map(claim.stems.map((s, i) => [s, i] as const));
  const wordOf = (i: number): string => claim.terms.find((t) => t.stem === claim.stems[i])?.word ?? claim.stems[i];
  for (const c of contrasts) {
    const excluded = claim.terms
      .filter((t) => t.position > c.cue && t.position <= c.end)
      .map((t) => index.get(t.stem))
      .filter((i): i is number => i !== undefined && covered[i] && w(i) > 0);
    for (const i of excluded) {
      if (viaAntonym[i]) continue;
      const rejected = chosen.every(
        (u) =>
          !u.has[i] ||
          u.negated[i] ||
          negativeWordGoverns(u, claim.stems[i], place) ||
          (place !== undefined &&
            ((u.hasNegation && negatedAfter(place.textOf(u), wordOf(i))) ||
              negatedInClause(place.textOf(u), claim.stems[i]) ||
              rejectedInClause(place.textOf(u), claim.stems[i]))),
      );
      if (!rejected) return `the sentence excludes '${wordOf(i)}'; the passage affirms it`;
    }
  }
  return undefined;
}
