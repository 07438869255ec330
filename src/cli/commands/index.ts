// `evident index --docs DIR`: builds or updates the index of a docs folder.

import { parseArgs } from 'node:util';
import type { CliCommand } from '../io';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, openEngine, progressPrinter } from '../setup';
import { escapeForTerminal } from '../terminalText';
import { describeRuntime } from '../../core/onnxRuntime';
import type { IndexReport } from '../../core/engine';
import { counted } from '../../domain/wording';

const HELP = `Usage: evident index --docs DIR [--store postgres://…] [options]

Indexes the Markdown files under DIR (incremental: unchanged files are not re-read or re-embedded).
Exits 1 when the index folder could not be written (full disk, read-only), saying what it keeps.
With --store, into a shared team index in PostgreSQL with pgvector (incremental by content hash;
safe when two indexers run at once; meant for the docs repository's CI).

Options:
${ENGINE_FLAGS_HELP}
  --json                   print the report as JSON
  -h, --help               show this help
`;

export const index: CliCommand = async (argv, io) => {
  const { values } = parseArgs({ args: argv, options: { ...ENGINE_FLAGS, json: { type: 'boolean' } }, strict: true });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  const engine = await openEngine(values, io);
  let report;
  try {
    const onWaiting = (holder: { pid: number; host: string } | undefined) =>
      io.stderr(
        `evident: another Evident process${holder ? ` (pid ${holder.pid} on ${holder.host})` : ''} is updating this index: waiting for it to finish (Ctrl+C to stop).\n`,
      );
    report = await engine.index({
      signal: io.signal,
      onProgress: progressPrinter(io),
      modelWhenNeeded: true,
      onWaiting,
    });
  } finally {
    await engine.close();
  }
  // Which ONNX runtime embedded (native, or WebAssembly where native has no binary).
  const runtime = engine.embeddingRuntime;
  if (values.json) {
    io.stdout(`${JSON.stringify(runtime ? { ...report, embeddingRuntime: runtime.kind } : report)}\n`);
  } else if (!report.writeRefused) {
    io.stdout(
      `Indexed ${counted(report.documents, 'document')}, ${counted(report.passages, 'passage')}${engine.shared ? ` into the ${engine.storeLabel}` : ''} (${report.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'}) in ${(report.ms / 1000).toFixed(1)} s: ` +
        `${report.added} added, ${report.updated} updated, ${report.removed} removed, ${report.unchanged} unchanged, ${report.embedded} passages embedded.\n`,
    );
    if (report.retrieval === 'hybrid' && runtime) io.stdout(`  embeddings ran on the ${describeRuntime(runtime)}\n`);
    for (const s of report.skipped) io.stdout(`  skipped ${escapeForTerminal(s.path)}: ${s.reason}\n`);
  }
  if (report.writeRefused) {
    // Not a success: CI must not count a run whose index was not saved.
    io.stderr(`evident: ${unsavedRun(report.writeRefused)}\n`);
    return 1;
  }
  return 0;
};

/** What a run whose writes were refused leaves on disk, in one paragraph. */
export function unsavedRun({ code, kept }: NonNullable<IndexReport['writeRefused']>): string {
  const what = `The index folder cannot be written (${code}): this run's changes were not saved.`;
  if (!kept) {
    return `${what} Nothing was saved: there is no index on disk yet. Free some space (or make the folder writable) and run "evident index" again.`;
  }
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${what} Kept on disk: the index as last saved (${n(kept.documents, 'document')}, ${n(kept.passages, 'passage')}, saved ${kept.savedAt}), which answers until a run can save. Free some space (or make the folder writable) and run "evident index" again.`;
}
