// A document's version: the hash of its text. Evidence carries it, so an audit (and the editor)
// can tell whether the text that backed an answer is still the text in the file.

import { createHash } from 'node:crypto';

export function documentVersion(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
