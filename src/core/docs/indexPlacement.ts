// The rule that the index never lands inside the documents (the CLI contract; the editor keeps
// its index in workspace storage): paths are compared as the file system sees them (symlinks
// resolved, a not-yet-existing folder through its nearest existing ancestor) and by whole path
// segments, so `docs/..cache` is inside `docs` and a symlink into the docs is caught.

import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The real path of `target` (absolute): symlinks of its existing part resolved, the part that
 * does not exist yet appended as it is.
 */
export function realPathOf(target: string): string {
  const absolute = path.resolve(target);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** True when `child` is `parent` or lies under it, by whole path segments (no resolving). */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  if (rel === '') return true;
  if (path.isAbsolute(rel)) return false;
  return rel.split(path.sep)[0] !== '..';
}

/**
 * The docs folder that would hold the index folder `indexDir`, or undefined when the index lies
 * outside every one of them. Both sides are compared by real path.
 */
export function docsFolderHoldingIndex(indexDir: string, docsRoots: readonly string[]): string | undefined {
  const index = realPathOf(indexDir);
  return docsRoots.find((root) => isWithin(realPathOf(root), index));
}

export class IndexInsideDocsError extends Error {
  constructor(
    readonly indexDir: string,
    readonly docsRoot: string,
  ) {
    super(
      `the index folder ${indexDir} is inside the documents folder ${docsRoot}; the index is never written inside the documents`,
    );
    this.name = 'IndexInsideDocsError';
  }
}

/** Throws IndexInsideDocsError when the index folder would lie inside one of the docs folders. */
export function assertIndexOutsideDocs(indexDir: string, docsRoots: readonly string[]): void {
  const holder = docsFolderHoldingIndex(indexDir, docsRoots);
  if (holder !== undefined) throw new IndexInsideDocsError(indexDir, holder);
}
