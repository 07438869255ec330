// A value is bound to the words of its own stretch of the passage. In "Notices will be deemed
// received one (1) business day after delivery, if sent by email, and three (3) business days after
// delivery, if sent via registered mail", one business day is the email's and three the registered
// mail's. "An emailed notice is deemed received three (3) business days after delivery" has every
// word in the passage, its value too, but the words that tell the two values apart ("email") side
// with the other value: it states a fact the passage does not. The same holds for a weekday
// ("weekly email … every Monday" where Monday is the Slack message's day and Tuesday the email's).

import { analyse, stem } from '../text/terms';
import { weekdayPlaces } from './anchors';
import { type PassageUnit, type PreparedPassage, unitValues } from './passageScan';
import type { ValueMention } from './values';

/** A value or a weekday, where it is written in its text. */
export interface Anchor {
  /** What it is ("30", "monday") and of which kind ("day", "$", "weekday"): two anchors of a kind compete. */
  key: string;
  kind: string;
  text: string;
  start: number;
  end: number;
}

/** A stretch of text and the anchors it speaks of. */
export interface AnchorPlace {
  anchors: Anchor[];
  stems: ReadonlySet<string>;
}

/** What the check reads of the sentence: its stems with their weights (0: no claim), and its anchors. */
export interface AnchoredClaim {
  text: string;
  stems: readonly string[];
  weights: readonly number[];
  values: readonly ValueMention[];
  /** Read from the text and its values at the first check, then kept. */
  anchors?: Anchor[];
}

// Where one value's words end and the next one's begin: punctuation between them, a table cell, a line.
const STRETCH_BREAK = /[,;:|—–\n]/gu;
// After a number, its numeral in parentheses (or the closing one) and the unit: "three (3) days", "(3) days".
const DOUBLED = /^\s*(?:\(\s*[\d.,]+\s*\))?\)?\s*(\p{L}{2,})/u;
// Stems that are values or anchors themselves: the words around a value are what bind it.
const VALUE_LIKE = /^\d/;

/**
 * Each anchor's stretch of `text`: two neighbours are split at the last break between them (none:
 * they share one stretch, "from $50 to $70"); the first stretch starts at the text's start, the last
 * ends at its end.
 */
export function stretchesOf(
  text: string,
  anchors: readonly Anchor[],
): { from: number; to: number; anchors: Anchor[] }[] {
  const sorted = [...anchors].sort((a, b) => a.start - b.start);
  const out: { from: number; to: number; anchors: Anchor[] }[] = [];
  let current = { from: 0, to: text.length, anchors: [] as Anchor[] };
  for (const a of sorted) {
    const before = current.anchors[current.anchors.length - 1];
    if (before && a.start > before.end) {
      const gap = text.slice(before.end, a.start);
      let last = -1;
      for (const m of gap.matchAll(STRETCH_BREAK)) last = m.index ?? -1;
      if (last >= 0) {
        current.to = before.end + last;
        out.push(current);
        current = { from: before.end + last + 1, to: text.length, anchors: [] };
      }
    }
    current.anchors.push(a);
  }
  if (current.anchors.length) out.push(current);
  return out;
}

/**
 * The passage side, read once per passage unit and kept with the passage: each stretch of the unit
 * that holds an anchor, with its stems.
 */
export function anchorPlaces(text: string, anchors: readonly Anchor[]): AnchorPlace[] {
  const stretches = stretchesOf(text, anchors);
  if (stretches.length === 0) return [];
  // A table row's first cells name the row, and every value of the row is said of them ("Copilot CLI |
  // 27 October 2025 | 25 February 2026"); in prose the words before the first value are its own clause's
  // ("SFO to Civic Center is $8.65; OAK to Civic Center is $10.05").
  const firstAt = Math.min(...stretches[0].anchors.map((a) => a.start));
  const lead = text.includes('|') ? analyse(text.slice(0, firstAt), { stemming: true }).terms.map((t) => t.stem) : [];
  const places = stretches.map((s) => {
    const stems = new Set(analyse(text.slice(s.from, s.to), { stemming: true }).terms.map((t) => t.stem));
    lead.forEach((t) => stems.add(t));
    return { anchors: s.anchors, stems };
  });
  if (!lead.length) places.forEach((p, i) => gapped(p, places.slice(0, i)));
  return places;
}

/**
 * A clause that repeats an earlier one with its nouns left out ("30 minute meetings become 25 minutes;
 * 60 become 50") says them too: when every word of the place but its values is a word of an earlier
 * place (at least one word: the repeated verb), it takes that place's words. A clause with a word of its
 * own ("…; OAK to Civic Center is $10.05") is not a repetition.
 */
function gapped(place: AnchorPlace, before: readonly AnchorPlace[]): void {
  const words = [...place.stems].filter((s) => !VALUE_LIKE.test(s));
  if (words.length === 0) return;
  for (let i = before.length - 1; i >= 0; i--) {
    if (words.every((w) => before[i].stems.has(w))) {
      before[i].stems.forEach((s) => (place.stems as Set<string>).add(s));
      return;
    }
  }
}

/**
 * Whether some place of the passage holds the sentence's anchor and another of its kind: only then
 * can the anchor be bound to another fact (a cheap test before any place is read).
 */
export function competing(anchors: readonly Anchor[], inPassage: readonly Anchor[]): boolean {
  return anchors.some(
    (a) => inPassage.some((p) => p.key === a.key) && inPassage.some((p) => p.kind === a.kind && p.key !== a.key),
  );
}

/**
 * An anchor of the sentence that the passage gives in one place while the sentence's words around
 * it are those of the place of another anchor of its kind: every word that tells the two places
 * apart and that the sentence uses is the other place's (at least one, and none of its own place's).
 * Returns the explanation, or undefined.
 */
export function anchorOfAnotherPlace(claim: AnchoredClaim, places: readonly AnchorPlace[]): string | undefined {
  const stretches = stretchesOf(claim.text, (claim.anchors ??= anchorsOf(claim.text, claim.values)));
  // The units of its values ("weeks", "hours") are the values' own words, not the words that bind them.
  // and so are the words that write the values themselves ("three", "Wednesday").
  const units = new Set(claim.anchors?.map((a) => a.kind));
  for (const a of claim.anchors ?? []) for (const t of analyse(a.text, { stemming: true }).terms) units.add(t.stem);
  for (const stretch of stretches) {
    const words = analyse(claim.text.slice(stretch.from, stretch.to), { stemming: true }).terms;
    const said = new Set<string>();
    for (const t of words) {
      const i = claim.stems.indexOf(t.stem);
      if (i >= 0 && claim.weights[i] > 0 && !VALUE_LIKE.test(t.stem) && !units.has(t.stem)) said.add(t.stem);
    }
    if (said.size === 0) continue;
    const weightOf = (s: string): number => claim.weights[claim.stems.indexOf(s)] ?? 0;
    for (const a of stretch.anchors) {
      // Its own places: any that gives its number, whatever word follows it ("12 unpaid weeks" gives 12 weeks).
      const own = places.filter((p) => p.anchors.some((x) => x.key === a.key));
      if (own.length === 0) continue;
      const others = new Map<string, { anchor: Anchor; stems: Set<string> }>();
      for (const p of places) {
        if (own.includes(p)) continue;
        for (const x of p.anchors) {
          if (x.kind !== a.kind || x.key === a.key) continue;
          const entry = others.get(x.key) ?? { anchor: x, stems: new Set<string>() };
          p.stems.forEach((s) => entry.stems.add(s));
          others.set(x.key, entry);
        }
      }
      const ownStems = new Set<string>();
      own.forEach((p) => p.stems.forEach((s) => ownStems.add(s)));
      for (const { anchor, stems } of others.values()) {
        const theirs = [...said].filter((s) => stems.has(s) && !ownStems.has(s));
        const mine = [...said].filter((s) => ownStems.has(s) && !stems.has(s));
        if (theirs.length === 0 || mine.some((s) => weightOf(s) > 0)) continue;
        const shown = words.filter((t) => theirs.includes(t.stem)).map((t) => t.word);
        return `'${a.text}' — the passage says ${anchor.text.replace(/\s+/g, ' ')} where it says '${[...new Set(shown)].slice(0, 3).join("', '")}'`;
      }
    }
  }
  return undefined;
}

/** The anchors of a text: its values that have a unit ("30 days", "$125") and its weekdays. */
export function anchorsOf(text: string, values: readonly ValueMention[]): Anchor[] {
  const out: Anchor[] = [];
  for (const v of values) {
    if (v.start === undefined || v.end === undefined) continue;
    // Legal writing doubles a number: "three (3) business days" is 3 business days, both numerals.
    const doubled = v.unit ? undefined : DOUBLED.exec(text.slice(v.end, v.end + 40));
    const kind = v.unit || (doubled ? stem(doubled[1].toLowerCase()) : '');
    const written = doubled
      ? `${v.text} ${doubled[1]}${/^\s+days?\b/i.exec(text.slice(v.end + doubled[0].length))?.[0] ?? ''}`
      : v.text;
    if (kind) out.push({ key: v.key, kind, text: written, start: v.start, end: v.end });
  }
  for (const w of weekdayPlaces(text)) {
    out.push({ key: w.word, kind: 'weekday', text: w.text, start: w.start, end: w.end });
  }
  return out;
}

/** The anchors and places of a passage's units, each unit read once (kept with the passage). */
export class PassageAnchors {
  private readonly anchors = new Map<number, Anchor[]>();
  private readonly places = new Map<number, AnchorPlace[]>();
  constructor(private readonly passage: PreparedPassage) {}

  anchorsIn(unit: { start: number; end: number }): Anchor[] {
    let found = this.anchors.get(unit.start);
    if (!found) {
      const values = unitValues(this.passage, unit as PassageUnit);
      found = anchorsOf(this.passage.text.slice(unit.start, unit.end), values);
      this.anchors.set(unit.start, found);
    }
    return found;
  }

  placesIn(unit: { start: number; end: number }): AnchorPlace[] {
    let found = this.places.get(unit.start);
    if (!found) {
      found = anchorPlaces(this.passage.text.slice(unit.start, unit.end), this.anchorsIn(unit));
      this.places.set(unit.start, found);
    }
    return found;
  }
}

/**
 * The check as the scorer asks it: the sentence's anchors (read once per sentence) against the
 * places of the units that hold a word of the sentence; only when the passage gives the sentence's anchor and another of
 * its kind are the places read.
 */
export function boundElsewhere(
  claim: AnchoredClaim,
  units: readonly { start: number; end: number }[],
  passageOf: () => PassageAnchors,
): string | undefined {
  const anchors = (claim.anchors ??= anchorsOf(claim.text, claim.values));
  if (anchors.length === 0) return undefined;
  const passage = passageOf();
  const held = units.filter((u) => passage.anchorsIn(u).length > 0);
  if (
    !competing(
      anchors,
      held.flatMap((u) => passage.anchorsIn(u)),
    )
  ) {
    return undefined;
  }
  return anchorOfAnotherPlace(
    claim,
    held.flatMap((u) => passage.placesIn(u)),
  );
}
