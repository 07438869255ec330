// What a running index is doing, in words, for the progress notification (host) and the chat
// view (webview): file counts only where there are files to go through.

export type IndexPhase = 'scanning' | 'reading' | 'embedding' | 'saving';

export function describeIndexProgress(p: { phase: IndexPhase; done?: number; total?: number }): string {
  const counted = p.total !== undefined && p.total > 0 ? ` ${p.done ?? 0}/${p.total}` : '';
  switch (p.phase) {
    case 'scanning':
      return 'Looking for Markdown files…';
    case 'reading':
      return counted ? `Reading files${counted}` : 'Reading files…';
    case 'embedding':
      return counted ? `Embedding passages${counted}` : 'Embedding passages…';
    case 'saving':
      return 'Saving the index…';
  }
}

/**
 * The share of an index run done, 0..100, never going back. Reading is most of a lexical run;
 * with an embedding model, embedding takes the larger share, and comes after the lexical part is
 * saved (vectors are committed as they go, without a saving phase of their own). Scanning and
 * saving are quick.
 */
export function indexPercent(p: { phase: IndexPhase; done: number; total: number }, embeds: boolean): number {
  const within = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  const readingShare = embeds ? 45 : 95;
  const savingShare = 5;
  switch (p.phase) {
    case 'scanning':
      return 0;
    case 'reading':
      return Math.floor(within * readingShare);
    case 'saving':
      return Math.floor(readingShare + within * savingShare);
    case 'embedding':
      // Never 100 before the run ends.
      return Math.min(99, Math.floor(readingShare + savingShare + within * (100 - readingShare - savingShare)));
  }
}
