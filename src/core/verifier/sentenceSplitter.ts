// Markdown-aware sentence splitting for model answers. Each list item, heading, table row and
// paragraph is a block; inside a block, sentences end at . ! ? (whatever the case of the next
// word) unless the dot belongs to an abbreviation ("e.g.", "U.S.", "Dr."), an ellipsis, a
// decimal (2.5) or a version (1.2.3). Citations right
// after the end ("… 90 days. [E2]") belong to the sentence before them. Every letter or
// digit of the answer outside list and heading markers lands in exactly one sentence, so
// nothing can slip past the verifier unsplit.

export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

// Line markers that are structure, not content: blockquote, heading, list bullet or number.
const LINE_MARKER = /^[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+)?/;
const STARTS_BLOCK = /^[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,9}[.)][ \t]|\||```|~~~)/;
const HAS_CONTENT = /[\p{L}\p{N}]/u;
// Made once: the bundler builds a `\p{…}` literal written in a function on every call.
const LETTER_OR_STOP = /[\p{L}.]/u;
const STOPPED_LETTERS = /^(?:\p{L}\.)+\p{L}$/u;
const LETTERS_WITH_STOPS = /^(?:\p{L}\.)+$/u;
const ONE_CAPITAL = /^\p{Lu}$/u;
const SMALL_LETTER = /\p{Ll}/u;
const CAPITAL = /\p{Lu}/u;

const ABBREVIATIONS = new Set(
  (
    'mr mrs ms dr prof sr jr st vs etc approx appt dept est fig figs inc ltd co corp no nos vol vols ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun ' +
    'al cf ca min max avg govt gen col lt sgt rev hon art sec para pp ed eds'
  ).split(' '),
);

const CITATION_AFTER = /^(?:\s*\[E[1-9]\d*(?:\s*,\s*E[1-9]\d*)*\](?!\())+[.!?]?/;

interface Block {
  start: number;
  end: number;
}

/** Blocks: runs of paragraph lines, or single list items, headings and table rows. */
function blocks(markdown: string): Block[] {
  const result: Block[] = [];
  let current: Block | undefined;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const lineStart = offset;
    offset += line.length + 1;
    const marker = LINE_MARKER.exec(line)?.[0] ?? '';
    const content = line.slice(marker.length);
    if (!HAS_CONTENT.test(content)) {
      current = undefined;
      continue;
    }
    const contentStart = lineStart + marker.length + (content.length - content.trimStart().length);
    const contentEnd = lineStart + line.trimEnd().length;
    const isTableRow = /^\s*\|/.test(content);
    if (current && !STARTS_BLOCK.test(line) && marker.trim() === '' && !isTableRow) {
      current.end = contentEnd;
    } else {
      current = { start: contentStart, end: contentEnd };
      result.push(current);
      if (isTableRow || /^#/.test(marker.trimStart().replace(/^(?:>[ \t]?)*/, ''))) current = undefined;
    }
  }
  return result;
}

/** True when the dot at `dot` ends an abbreviation or an initial rather than a sentence. */
function isAbbreviation(text: string, blockStart: number, dot: number): boolean {
  let i = dot;
  while (i > blockStart && dot - i < 12 && LETTER_OR_STOP.test(text[i - 1])) i--;
  const word = text.slice(i, dot);
  if (!word) return false;
  if (STOPPED_LETTERS.test(word)) return true; // e.g, i.e, U.S, a.m
  if (ONE_CAPITAL.test(word)) return true; // an initial: "J. Smith"
  return ABBREVIATIONS.has(word.toLowerCase());
}

// Words that open a sentence, never a name after "U.S.".
const SENTENCE_OPENER =
  /^(?:For|The|If|In|To|You|We|It|This|That|These|Those|There|A|An|As|When|Where|However|Also|Each|All|Any|Our|Your|Their|Most|But|And|So|Then|After|Before|Once|Since|While|Because|Otherwise|Instead|Only|Some|Such|With|Without|Under|Outside|Inside|Within|No|Yes|Note|Please|Requests?|GitHub)\b/;

/** The run of letters and stops ending at `end` ("U.S." before a space). */
function lettersWithStops(text: string, blockStart: number, end: number): string {
  let i = end;
  while (i > blockStart && end - i < 12 && LETTER_OR_STOP.test(text[i - 1])) i--;
  return text.slice(i, end);
}

function splitBlock(text: string, block: Block, out: SentenceSpan[]): void {
  let sentenceStart = block.start;
  const push = (end: number): void => {
    const raw = text.slice(sentenceStart, end);
    const lead = raw.length - raw.trimStart().length;
    const s = sentenceStart + lead;
    const e = sentenceStart + raw.trimEnd().length;
    if (e > s && HAS_CONTENT.test(text.slice(s, e))) out.push({ text: text.slice(s, e), start: s, end: e });
  };
  let i = block.start;
  while (i < block.end) {
    const ch = text[i];
    if (ch !== '.' && ch !== '!' && ch !== '?') {
      i++;
      continue;
    }
    // A dot inside a token (2.5, 1.2.3, example.com, e.g) is not an end.
    if (ch === '.' && i + 1 < block.end && HAS_CONTENT.test(text[i + 1])) {
      i++;
      continue;
    }
    let end = i + 1;
    // Closing punctuation, quotes and emphasis stay with the sentence: `"… ends."**`.
    while (end < block.end && /[.!?"'”’)*_]/.test(text[end])) end++;
    const citations = CITATION_AFTER.exec(text.slice(end, block.end));
    const citedAfter = citations !== null;
    if (citations) end += citations[0].length;
    const rest = text.slice(end, block.end);
    if (rest.trim() === '') {
      i = block.end;
      break;
    }
    if (!/^\s/.test(rest)) {
      i = end;
      continue;
    }
    const next = rest.trimStart()[0];
    const lowerNext = SMALL_LETTER.test(next);
    const abbreviation = ch === '.' && isAbbreviation(text, block.start, i);
    // "etc." ends a sentence when a capital follows; other abbreviations never do, unless
    // a citation closes the sentence ("… in the U.S. [E1] Next").
    const etc = abbreviation && /etc$/i.test(text.slice(Math.max(block.start, i - 3), i));
    // A lower-case start after a full stop is a new sentence ("… 30 days. monthly plans are…"):
    // merging it would let an unchecked claim ride on the sentence before. Only an ellipsis
    // ("the plan... and then") continues the sentence.
    const ellipsis = lowerNext && /\.\.$/.test(text.slice(i, end).replace(/[^.]/g, ''));
    // "U.S.", "a.m." (letters with stops) end a sentence when a new one plainly starts: "… outside
    // the U.S. For law enforcement …", not "the U.S. Copyright Office".
    const stopsEnd =
      abbreviation &&
      LETTERS_WITH_STOPS.test(lettersWithStops(text, block.start, i + 1)) &&
      SENTENCE_OPENER.test(rest.trimStart());
    if (!citedAfter && !stopsEnd && (ellipsis || (abbreviation && !(etc && CAPITAL.test(next))))) {
      i = end;
      continue;
    }
    push(end);
    sentenceStart = end;
    i = end;
  }
  push(block.end);
}

export function splitSentences(markdown: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  for (const block of blocks(markdown)) splitBlock(markdown, block, out);
  return out;
}
