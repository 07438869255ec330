// The abstention rule, defined once: an answer that starts with `NOT_FOUND:` (leading blanks
// allowed) says the documents do not answer, and the rest of the line says what is missing.
// The verifier, the agent loop, the models, the chat view and the editor all read it from here.

export const NOT_FOUND_PREFIX = 'NOT_FOUND:';

/** The prefix with the blanks around it, for removing it from the line shown to a reader. */
export const ABSTENTION_PREFIX = new RegExp(`^\\s*${NOT_FOUND_PREFIX}\\s*`);

/** True when the text is an abstention (starts with `NOT_FOUND:`, leading blanks allowed). */
export function isAbstention(text: string): boolean {
  return ABSTENTION_PREFIX.test(text);
}

/** An abstention saying what is missing: `NOT_FOUND: <missing>`. */
export function notFound(missing: string): string {
  return `${NOT_FOUND_PREFIX} ${missing}`;
}

/** The longest model reason an abstention shows (characters). */
export const MAX_MODEL_REASON_CHARS = 120;

// What a reason may not carry: a link, an address, a phone number, markup, an evidence id.
const UNSAFE_REASON =
  /https?:|www\.|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|gov|edu|co|info|biz|ly|me|app|dev|xyz|example|[a-z]{2})\b\/|@|\+?\d[\d\s().-]{6,}\d|[<>`*_[\]{}|\\]|\bE\d+\b/iu;

/**
 * The model's one-line reason as an abstention may show it: its first sentence only, plain
 * text, at most MAX_MODEL_REASON_CHARS, with no link, address or markup; undefined when it has
 * any of those (then only Evident's own words are shown). A prompt-injected passage can make a
 * model write anything after `NOT_FOUND:`; nothing of it reaches the reader unchecked.
 */
export function modelReason(sentence: string): string | undefined {
  const text = sentence.replace(ABSTENTION_PREFIX, '').replace(/\s+/g, ' ').trim();
  if (!/\p{L}/u.test(text) || UNSAFE_REASON.test(text)) return undefined;
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u.test(text)) return undefined;
  if (text.length <= MAX_MODEL_REASON_CHARS) return /[.!?]$/.test(text) ? text : `${text}.`;
  const cut = text.slice(0, MAX_MODEL_REASON_CHARS - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 40)).replace(/[\s,;:.]+$/, '')}…`;
}
