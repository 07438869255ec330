// The warning every face shows when a cited source changed after it was indexed (evidence
// marked `stale` at answer time): one wording, used by the CLI, the chat view and @evident.

import type { TurnResult } from './types';

/** Sources of stale evidence that kept sentences cite, in order, each once. */
export function staleCitedSources(result: TurnResult): string[] {
  const cited = new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations));
  return [...new Set(result.evidence.filter((e) => e.stale && cited.has(e.id)).map((e) => e.source))];
}

/** The warning for an answer that cites changed sources, or undefined when none changed. */
export function staleSourcesWarning(result: TurnResult): string | undefined {
  const sources = staleCitedSources(result);
  if (sources.length === 0) return undefined;
  const names = sources.map((s) => JSON.stringify(s)).join(', ');
  const lead =
    sources.length === 1
      ? 'A cited file has changed since it was indexed'
      : 'Cited files have changed since they were indexed';
  return `${lead}: ${names}. The answer quotes the indexed text, which may no longer be in the file; reindex and ask again.`;
}
