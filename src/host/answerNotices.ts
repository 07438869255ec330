// Which of an answer's notices the chat shows under it. Why retrieval is lexical only is said once,
// in the chat header (with the button that changes it), not under answers; every other notice
// shows under the first answer that carries it (the index was rebuilt, the lexical index was
// damaged…), and not again. Told apart by code, never by words. Pure: unit-tested in plain Node.

import type { Notice, NoticeCode } from '../domain/notices';

/** The notices the chat header says itself (IndexView.message), with its way forward. */
const SAID_IN_HEADER: ReadonlySet<NoticeCode> = new Set<NoticeCode>(['lexical-only']);

/** The notice that says why retrieval is lexical only, for the header; undefined when none does. */
export function lexicalOnlyReason(notices: readonly Notice[]): string | undefined {
  return notices.find((n) => n.code === 'lexical-only')?.text;
}

/**
 * The notices to show under an answer: those the header does not say, and not said under an
 * earlier answer (`shown`, the texts said so far, is updated).
 */
export function noticesToShow(notices: readonly Notice[], shown: Set<string>): Notice[] {
  const show = notices.filter((n) => !SAID_IN_HEADER.has(n.code) && !shown.has(n.text));
  for (const n of show) shown.add(n.text);
  return show;
}
