// At answer time, each source the evidence came from is read again and hashed: evidence whose
// file no longer has the version that was indexed (an edit the index did not see, or one made
// since) is marked `stale`, so every face of the product can warn that the quoted text may have
// changed. The editor makes the same check by document version when a citation is opened.

import type { Evidence } from '../../domain/types';
import { decodeDocument, type DocSource } from './docSource';
import { documentVersion } from './version';

/** The current version of a source, or undefined when it cannot be read or decoded any more. */
async function currentVersion(docs: DocSource, source: string): Promise<string | undefined> {
  try {
    const decoded = decodeDocument(await docs.readSource(source));
    return decoded.ok ? documentVersion(decoded.text) : undefined;
  } catch {
    return undefined;
  }
}

/** Marks `stale: true` on evidence whose source's version changed (each source read once). */
export async function markStaleEvidence(evidence: Evidence[], docs: DocSource): Promise<void> {
  const versions = new Map<string, Promise<string | undefined>>();
  for (const e of evidence) {
    if (!versions.has(e.source)) versions.set(e.source, currentVersion(docs, e.source));
  }
  for (const e of evidence) {
    if ((await versions.get(e.source)) !== e.version) e.stale = true;
  }
}
