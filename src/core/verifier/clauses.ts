// The clauses of a compound sentence, each a claim of its own: "Annual plans may be refunded
// within 90 days, and so may monthly plans" states two things, and the support score of the
// whole (a ratio of words) would average a short false clause away. A clause starts at a
// coordinating word that joins two statements: ", and / , but / , or / ; …", "and also",
// "and so", "as well as", "including", and " and " before a verb ("… approved by a manager and
// filed within 30 days"), and a short tail after the last comma ("…, guaranteed"). Plain lists
// of nouns ("annual, sick and family leave") are not split: they are one claim about one thing.

import { matchesOf } from '../text/matches';

export interface Clause {
  /** The clause as written, from its joining word on ("and so may monthly plans"). */
  text: string;
  start: number;
  end: number;
}

// Words that open a predicate: modals and auxiliaries ("… and may be…", "… and is…").
const VERB_OPENERS =
  'may|might|must|can|cannot|could|should|shall|will|would|is|are|was|were|has|have|had|does|do|did|needs?|requires?|gets?|includes?|covers?|applies|apply|expires?|ends?|starts?|begins?';

// Words that end a sentence without adding a claim ("…, respectively", "…, though").
const DISCOURSE_TAIL =
  '(?:respectively|though|too|however|instead|either|anyway|also|etc|then|so|yet|please|if\\s+any|as\\s+well|for\\s+example|for\\s+instance|of\\s+course|in\\s+general|in\\s+short)';

// Each pattern finds the start of a new clause (the joining word stays with the clause it opens).
const CLAUSE_START = new RegExp(
  [
    // ", and …", ", but …", ", or …", ", yet …", ", while …", ", plus …", "; …"
    String.raw`[,;]\s+(?=(?:and|but|or|yet|while|whereas|although|though|plus|so)\s+\S)`,
    String.raw`;\s+(?=\S)`,
    // "… and also …", "… and so may …", "… as well as …", "… including …"
    String.raw`\s+(?=and\s+(?:also|so|then|likewise)\b)`,
    String.raw`\s+(?=as\s+well\s+as\b)`,
    String.raw`,?\s+(?=including\b)`,
    // A second predicate: "… and may be …", "… but must …", "… and filed …"
    String.raw`\s+(?=(?:and|but|or)\s+(?:not\s+|never\s+|also\s+)?(?:${VERB_OPENERS})\b)`,
    String.raw`\s+(?=(?:and|but)\s+\p{Ll}+ed\s+(?:by|within|in|on|at|before|after|to|for|from|with|as|under|up|out|off|once)\b)`,
    // A short tail after the last comma ("…, guaranteed", "…, compounded", "…, at no charge"):
    // a claim appended to a finished statement, not wording of it (discourse words excepted).
    String.raw`,\s+(?=(?!${DISCOURSE_TAIL}\b)\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,2}\s*[.!?]?\s*$)`,
  ].join('|'),
  'giu',
);

// A subject or predicate opening what follows a conjunction: "…, and he was…", "…, and was re-signed".
const CLAUSE_OPENER = new RegExp(
  String.raw`^(?:(?:not|never|also|then)\s+)?(?:${VERB_OPENERS}|i|you|he|she|it|we|they|there|this|that|these|those|his|her|its|their|our)\b|^(?:so|also|then|likewise|thus|therefore|hence|still)\b|^\p{Ll}+ed\s+\S`,
  'iu',
);

/**
 * ", and"/", or" closing an enumeration ("Hersman, Rotich, Okolloh, and Kobia"; "culturally,
 * historically, or aesthetically significant") joins list items, not statements: the item
 * before it is short (three words at most, after a comma of the same stretch) and what follows
 * the conjunction does not open a clause of its own (a subject or a verb).
 */
function closesEnumeration(sentence: string, from: number, comma: number, after: string): boolean {
  if (!/^(?:and|or)\s/i.test(after)) return false;
  const stretch = sentence.slice(from, comma);
  const lastComma = stretch.lastIndexOf(',');
  if (lastComma < 0) return false;
  const item = stretch
    .slice(lastComma + 1)
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (item.length === 0 || item.length > 3) return false;
  return !CLAUSE_OPENER.test(after.replace(/^(?:and|or)\s+/i, ''));
}

// What opens a parenthesis between commas ("…, which lets browsers check…, lasts two weeks"):
// the tail after it is the sentence's own predicate, not an appended claim.
const PARENTHESIS_OPENER =
  /^\s*(?:which|who|whom|whose|that|where|when|or|and|like|such\s+as|e\.g\.|i\.e\.|including|if|unless)\b/i;
const TAIL = /^\p{L}[\p{L}'’-]*(?:\s+\p{L}[\p{L}'’-]*){0,2}\s*[.!?]?\s*$/u;

/** A short tail that closes a parenthesis, so it is the predicate the parenthesis interrupted. */
function closesParenthesis(sentence: string, comma: number, after: string): boolean {
  if (!TAIL.test(after)) return false;
  const before = sentence.slice(0, comma);
  const previous = before.lastIndexOf(',');
  return previous >= 0 && PARENTHESIS_OPENER.test(before.slice(previous + 1));
}

/** The clauses of a sentence (one when it is not compound); blank pieces are left out. */
export function splitClauses(sentence: string): Clause[] {
  const clauses: Clause[] = [];
  let start = 0;
  const push = (end: number): void => {
    const raw = sentence.slice(start, end);
    const s = start + (raw.length - raw.trimStart().length);
    const e = start + raw.trimEnd().replace(/[,;]$/, '').length;
    if (e > s) clauses.push({ text: sentence.slice(s, e), start: s, end: e });
  };
  for (const m of matchesOf(CLAUSE_START, sentence)) {
    const at = (m.index ?? 0) + m[0].length;
    if (at <= start) continue;
    if (m[0].startsWith(',') && closesEnumeration(sentence, start, m.index ?? 0, sentence.slice(at))) continue;
    if (m[0].startsWith(',') && closesParenthesis(sentence, m.index ?? 0, sentence.slice(at))) continue;
    push(m.index ?? 0);
    start = at;
  }
  push(sentence.length);
  return clauses;
}
