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
