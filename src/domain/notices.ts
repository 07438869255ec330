// Notices: non-fatal things the user should know about an index run or an answer ("the lexical
// index is damaged: rebuilding it"). Each carries a code saying what it is about, so the host and
// the chat decide where it shows by its code, never by its words; its text is what people read
// (and what the CLI prints). The codes are a closed list, defined here once. Pure.

export const NOTICE_CODES = [
  /** No embedding model: retrieval is by words only (the chat header says it, with its fix). */
  'lexical-only',
  /** The index on disk was written by another index format: rebuilt or re-chunked. */
  'index-format-changed',
  /** The local index belonged to another docs folder: rebuilt for this one. */
  'index-moved',
  /** The local index's documents or passages were damaged or unreadable: the documents are read again. */
  'index-damaged',
  /** The lexical index was damaged or unreadable: rebuilt from the stored passages. */
  'lexical-index-damaged',
  /** A vector file was damaged: its passages are embedded again. */
  'vector-file-damaged',
  /** The vector search index was damaged: exact search until the next run rebuilds it. */
  'vector-search-damaged',
  /** The embedding model changed: every passage is embedded again. */
  'embedding-model-changed',
  /** Passages the embedding model gave no usable vector: found by words only. */
  'passages-without-vector',
  /** The shared index's VACUUM (ANALYZE) failed after a run: searches may be slower for a while. */
  'shared-index-maintenance-failed',
  /** Another process is updating the index: answered from the index as last saved. */
  'index-busy',
  /** The index folder cannot be written: changes are kept in memory only. */
  'index-not-writable',
  /** Built-in grounding: the response carried no grounding metadata. */
  'no-grounding-metadata',
  /** Built-in grounding: some grounding supports could not be used. */
  'grounding-supports-unused',
  /** A cited file changed after it was indexed. */
  'cited-file-changed',
  /** Kept in the chat history by an earlier version, which gave notices no code. */
  'earlier-version',
] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

export interface Notice {
  readonly code: NoticeCode;
  /** What the user reads: a whole sentence. */
  readonly text: string;
}

export function notice(code: NoticeCode, text: string): Notice {
  return { code, text };
}

/** A notice as it arrives from another thread or from storage, checked: a known code and a text. */
export function isNotice(v: unknown): v is Notice {
  if (typeof v !== 'object' || v === null) return false;
  const { code, text } = v as { code?: unknown; text?: unknown };
  return typeof text === 'string' && (NOTICE_CODES as readonly unknown[]).includes(code);
}

/**
 * A notice kept by an earlier version (a plain string then) as a notice, so a saved chat history
 * keeps it; anything else is returned as it is (and checked by `isNotice` after).
 */
export function upgradeSavedNotice(v: unknown): unknown {
  return typeof v === 'string' ? notice('earlier-version', v) : v;
}

/** The texts of `notices`, in order (what the CLI prints and its JSON holds). */
export function noticeTexts(notices: readonly Notice[]): string[] {
  return notices.map((n) => n.text);
}

/** `notices` without repeats (the same text said twice is said once), in order. */
export function uniqueNotices(notices: readonly Notice[]): Notice[] {
  const seen = new Set<string>();
  const out: Notice[] = [];
  for (const n of notices) {
    if (seen.has(n.text)) continue;
    seen.add(n.text);
    out.push(n);
  }
  return out;
}

/** Why retrieval is lexical only: the embedding model could not be loaded (`problem` says why). */
export function lexicalOnlyNotice(problem: string): Notice {
  return notice('lexical-only', `No embedding model (${problem}): retrieval is lexical only.`);
}
