// A contrast written in the sentence: "Pick VDI — not Citrix", "a GitHub cookie, not a third-party
// one", "as guests, not as members". The sentence claims what comes before the "not"; what comes after
// it is excluded, and the passage must not affirm it in that place (it may reject it, or not mention it).

import { matchesOf } from '../text/matches';
import { TOKEN } from '../text/terms';

/** A contrast cue: the token position of its "not" and the last token position of what it excludes. */
export interface ContrastCue {
  cue: number;
  end: number;
}

// Our own copy of the token pattern (matchAll starts from a shared regex's lastIndex).
const WORDS = new RegExp(TOKEN.source, TOKEN.flags);

/** What may stand before the "not" of a contrast: a comma or a dash closing the claimed phrase. */
const BEFORE = /[,—–]\s*$/u;
/** What ends the excluded phrase: a clause's punctuation. */
const ENDS = /[,;:.!?—–()]/u;
/** The longest excluded phrase read as one ("not for things like cryptomining or hosting apps"). */
const MAX_PHRASE = 10;

/** The contrast cues of a sentence: a "not" right after a comma or dash, its phrase up to the clause's end. */
export function contrastCues(sentence: string): ContrastCue[] {
  const tokens = [...matchesOf(WORDS, sentence)].map((m) => ({
    word: m[0].toLowerCase(),
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
  const cues: ContrastCue[] = [];
  for (let i = 1; i < tokens.length - 1; i++) {
    if (tokens[i].word !== 'not' || !BEFORE.test(sentence.slice(tokens[i - 1].end, tokens[i].start))) continue;
    if (/^(?:only|just|merely|simply)$/.test(tokens[i + 1].word)) continue;
    let end = i + 1;
    while (end + 1 < tokens.length && !ENDS.test(sentence.slice(tokens[end].end, tokens[end + 1].start))) end++;
    if (end - i <= MAX_PHRASE) cues.push({ cue: i, end });
  }
  return cues;
}
