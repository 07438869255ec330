// What the chat says when the index holds no passage: which files were skipped and why (a file
// over the size limit, an unreadable or binary one), or that no Markdown file matched at all,
// and what to do. One wording for the empty state and for a question asked then. Pure.

import { counted } from './wording';

export interface SkippedFiles {
  files: readonly { path: string; reason: string }[];
  /** All the files skipped (`files` may list only the first ones). */
  total: number;
}

const SHOWN = 3;

/** "big.md (too large (5.0 MB; the limit is 2 MB)), notes.md (binary)" and "and 4 more". */
export function describeSkipped(skipped: SkippedFiles): string {
  const named = skipped.files.slice(0, SHOWN).map((f) => `${f.path} (${f.reason})`);
  const more = skipped.total - named.length;
  return `${named.join(', ')}${more > 0 ? `, and ${more} more (see the log)` : ''}`;
}

/** Skipped files while others are indexed: said once in the header. */
export function skippedNotice(skipped: SkippedFiles): string {
  return `${counted(skipped.total, 'file was', 'files were')} not indexed: ${describeSkipped(skipped)}.`;
}

/** Nothing is indexed: why, and the way forward. */
export function emptyIndexMessage(skipped: SkippedFiles | undefined): string {
  if (skipped && skipped.total > 0) {
    return (
      `No passages are indexed: every Markdown file found was skipped — ${describeSkipped(skipped)}. ` +
      'Split a file that is too large into smaller ones, or change the include and exclude settings to index other files.'
    );
  }
  return 'No Markdown files were found in this workspace: add .md files, or change the include and exclude settings to index other files.';
}
