// Where a cited passage opens, and which cited lines may be highlighted: the rule that keeps a
// citation from pointing at lines that no longer hold its passage. Pure (no `vscode`), so the
// rule is tested on its own; sourceHighlight.ts applies it.

import type { Evidence } from '../domain/types';

/**
 * * `lines`: the workspace file holds the cited version: open it at the passage's lines, highlighted.
 * * `passage`: a shared index's passage whose file is missing here or holds another version: show
 *   the passage's text read-only, with its version (the workspace's lines would be wrong).
 * * `stale-lines`: a local index's file changed since the answer: open it at the recorded lines
 *   without a highlight, with a warning that they may no longer hold the passage.
 * * `missing`: a local index's file is gone or outside the workspace.
 */
export type CitationTarget = 'lines' | 'passage' | 'stale-lines' | 'missing';

/** `fileVersion`: the version of the workspace file's current text, undefined when there is none. */
export function citationTarget(
  evidence: Pick<Evidence, 'version'>,
  store: 'local' | 'shared',
  fileVersion: string | undefined,
): CitationTarget {
  if (fileVersion === evidence.version) return 'lines';
  if (store === 'shared') return 'passage';
  return fileVersion === undefined ? 'missing' : 'stale-lines';
}

/** The cited passages whose lines may be highlighted in a document whose text is at `version`. */
export function highlightable<E extends Pick<Evidence, 'version'>>(evidence: readonly E[], version: string): E[] {
  return evidence.filter((e) => e.version === version);
}
