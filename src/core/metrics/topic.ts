// A turn's topic: the area of the documents an answer leaned on. The area of a passage is the
// top folder of its source ("hr/leave.md" → "hr"); for a document at the root, the first element
// of its heading path ("Refunds > Annual plans" → "Refunds"), else the file name without its
// extension. A turn's topic is the most frequent area among the passages its kept sentences cite
// (ties: the first cited), or, for an abstention (nothing cited), among the retrieved ones.
// A folder that holds every document of the index (e.g. all under "policies/") tells nothing:
// the caller passes it as `commonFolder` and areas are taken below it.

import type { TurnResult } from '../../domain/types';

export function areaOf(source: string, heading = ''): string {
  const parts = source.split('/').filter(Boolean);
  if (parts.length > 1) return parts[0];
  const firstHeading = heading.split(' > ')[0]?.trim();
  if (firstHeading) return firstHeading;
  return (parts[0] ?? source).replace(/\.(md|markdown|mdx)$/i, '') || 'unknown';
}

export function topicOf(result: Pick<TurnResult, 'sentences' | 'evidence'>, commonFolder = ''): string | null {
  const cited = result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations);
  const byId = new Map(result.evidence.map((e) => [e.id, e]));
  const leanedOn = cited.length ? cited.map((id) => byId.get(id)).filter((e) => e !== undefined) : result.evidence;
  const below = (source: string) =>
    commonFolder && source.startsWith(commonFolder) ? source.slice(commonFolder.length) : source;
  return mostFrequent(leanedOn.map((e) => areaOf(below(e.source), e.heading)));
}

/** The folder (with its trailing "/") that holds every source, or "" when there is none. */
export function commonFolderOf(sources: Iterable<string>): string {
  let prefix: string[] | undefined;
  for (const source of sources) {
    const folders = source.split('/').slice(0, -1);
    if (!prefix) prefix = folders;
    else {
      let i = 0;
      while (i < prefix.length && i < folders.length && prefix[i] === folders[i]) i++;
      prefix = prefix.slice(0, i);
    }
    if (!prefix.length) return '';
  }
  return prefix?.length ? `${prefix.join('/')}/` : '';
}

/** The most frequent value; ties go to the one seen first. */
function mostFrequent(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  for (const [v, n] of counts) if (best === null || n > (counts.get(best) ?? 0)) best = v;
  return best;
}
