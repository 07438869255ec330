// The conservative exemption: an uncited sentence may stay only when it claims nothing, i.e.
// a greeting, a hedge about the answer itself or a meta sentence ("Here is what I found:").
// Every exemption is an unchecked sentence, so the rule is an allow-list of words: any other
// content word, any digit, any negation or a long sentence makes it factual.

import { analyse } from '../text/terms';

// Words that talk about the conversation or the search, never about a policy.
const META_WORDS = new Set(
  (
    'hello hi hey thanks thank welcome sure certainly glad happy hope helps help helpful let know ' +
    'question questions anything else further feel free ask please ' +
    'here following found find summary summarise summarize answer answers below ' +
    'based according documents document passages passage sources source provided retrieved search searched ' +
    'information details relevant say says said sorry loss condolences '
  )
    .trim()
    .split(/\s+/),
);

const MAX_WORDS = 14;

// A reply that is only an answer particle: "Yes.", "No.", "Not really.", "Possibly.", "Generally,
// yes.", "Not by default." The sentences
// after it carry the claim and are checked; the particle alone states no fact of the documents.
const PARTICLE_ONLY =
  /^\s*(?:\*\*)?(?:(?:generally|usually|mostly|typically|normally|often|in\s+general|probably|likely|maybe|possibly),?\s+(?=(?:yes|no|not)\b))?(?:yes|no|nope|yep|yeah|correct|right|exactly|indeed|possibly|maybe|sometimes|generally|usually|not\s+by\s+default|not\s+(?:usually|normally|generally|typically|automatically)|(?:maybe|probably|likely|possibly|usually|generally|typically|normally|mostly|often)\s+not|not\s+really|not\s+quite|not\s+exactly|not\s+necessarily|not\s+always|partly|partially|sort\s+of|in\s+short|short\s+answer|it\s+depends|unfortunately(?:,?\s+(?:no|not))?|yes\s+and\s+no|good\s+question)(?:\*\*)?\s*[.!:,—–-]?(?:\*\*)?\s*$/i;

// A particle and an elliptical reply: the question's verb or a hedge, without its words ("Yes, it
// could.", "No, you don't.", "Yes, possibly."). It says what the particle says, nothing more.
const ELLIPTICAL_REPLY =
  /^\s*(?:\*\*)?(?:yes|no)\s*[,—–-]\s*(?:(?:it|they|you|we|he|she|that|this|there)\s+(?:(?:can|could|may|might|will|would|should|must|do|does|did|is|are|was|were|has|have|had)(?:\s+not|n['’]t)?|can['’]t|won['’]t)|(?:possibly|probably|likely|maybe|perhaps|sometimes|usually|generally|often|typically)(?:\s+not)?)(?:\*\*)?\s*[.!]?(?:\*\*)?\s*$/i;

export function isNonFactual(sentence: string): boolean {
  if (PARTICLE_ONLY.test(sentence) || ELLIPTICAL_REPLY.test(sentence)) return true;
  if (/\d/.test(sentence)) return false;
  const analysed = analyse(sentence, { stemming: false });
  if (analysed.length === 0 || analysed.length > MAX_WORDS) return false;
  if (analysed.negations.length > 0) return false;
  return analysed.terms.every((t) => META_WORDS.has(t.word));
}

const LIST_OR_ROW = /^[ \t]*(?:>[ \t]?)*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|\|)/;

/**
 * A lead-in: an uncited line ending with ":" right before a list or table whose items cite
 * evidence ("According to GitHub's cost reimbursement schedule:"). It claims nothing the items do
 * not; with a digit or a negation it is a claim of its own and is not exempt.
 */
export function isLeadIn(
  text: string,
  spans: readonly { text: string; start: number; end: number }[],
  index: number,
): boolean {
  const span = spans[index];
  if (!/:[*_\s]*$/.test(span.text) || /\d/.test(span.text)) return false;
  const analysed = analyse(span.text, { stemming: false });
  if (analysed.negations.length > 0 || analysed.length > 25) return false;
  // The next line that has text starts a list item or a table row.
  const after = text.slice(span.end, span.end + 400).replace(/^[ \t]*\n(?:[ \t]*\n)*/, '');
  if (!LIST_OR_ROW.test(after)) return false;
  const next = spans[index + 1];
  return (
    next !== undefined &&
    /\[E[1-9]\d*/.test(
      spans
        .slice(index + 1, index + 6)
        .map((s) => s.text)
        .join(' '),
    )
  );
}

/** The header row of a Markdown table (the next line is its |---| separator), uncited and without digits. */
export function isTableHeader(text: string, span: { text: string; end: number }): boolean {
  if (!span.text.trimStart().startsWith('|') || /\d/.test(span.text)) return false;
  const lineEnd = text.indexOf('\n', span.end);
  if (lineEnd < 0) return false;
  const next = text.slice(lineEnd + 1, lineEnd + 200).split('\n')[0];
  return /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(next);
}

const ITEM = /^([ \t]*)(?:>[ \t]?)*(?:[-*+]|\d{1,9}[.)])[ \t]+\S/;
const ROW = /^[ \t]*\|/;
const SEPARATOR_ROW = /^[ \t]*\|?[ \t]*:?-{3,}/;

/**
 * How many items the list or table right after a line ending with ":" has (a table's header row
 * aside), or undefined when none follows: a lead-in's "three licenses:" is counted by its list.
 */
export function itemsAfter(text: string, span: { text: string; end: number }): number | undefined {
  if (!/:[*_\s]*$/.test(span.text)) return undefined;
  const lines = text
    .slice(span.end)
    .replace(/^[ \t]*\n(?:[ \t]*\n)*/, '')
    .split('\n');
  if (ROW.test(lines[0] ?? '')) {
    let rows = 0;
    for (const line of lines) {
      if (!ROW.test(line)) break;
      if (!SEPARATOR_ROW.test(line)) rows++;
    }
    return SEPARATOR_ROW.test(lines[1] ?? '') ? rows - 1 : rows;
  }
  const first = ITEM.exec(lines[0] ?? '');
  if (!first) return undefined;
  const indent = first[1].length;
  let items = 0;
  for (const line of lines) {
    if (!line.trim()) break;
    const item = ITEM.exec(line);
    if (item && item[1].length === indent) items++;
    else if (!item && !/^[ \t]+\S/.test(line)) break;
  }
  return items;
}
