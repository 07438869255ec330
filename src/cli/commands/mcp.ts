// `evident mcp --docs DIR`: an MCP server on stdio for other agents (Claude Code, Cursor, VS Code's
// MCP support…): search_docs and check_answer over the docs index, opened once and kept current
// (src/cli/mcp). Standard output carries the protocol only: every log line goes to stderr.

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { format, parseArgs } from 'node:util';
import { DEFAULT_TOP_K } from '../../core/engine';
import { MCP_TOOL_NAMES } from '../../core/tools';
import type { CliCommand } from '../io';
import { FreshIndex } from '../mcp/freshIndex';
import { startStdioServer } from '../mcp/server';
import { ENGINE_FLAGS, ENGINE_FLAGS_HELP, openEngine, topKFlag } from '../setup';
import { escapeForTerminal } from '../terminalText';

const HELP = `Usage: evident mcp --docs DIR [--index-dir DIR] [--store postgres://…] [options]

An MCP server on standard input and output (register it in your agent as the command
"evident mcp --docs DIR"). Its tools, both read-only:
  ${MCP_TOOL_NAMES.search} {query, k?}          passages of the documents under evidence ids E1, E2…
  ${MCP_TOOL_NAMES.check} {answer, question?}  each sentence kept, dropped or exempt, with the reason
                                      and the passage that backs it
The index is opened once and checked for changed files before a call (at most once a second);
a shared index (--store) is searched as its indexer keeps it. Logs go to standard error.

Options:
${ENGINE_FLAGS_HELP}
  -h, --help               show this help
`;

export const mcp: CliCommand = async (argv, io) => {
  const { values } = parseArgs({ args: argv, options: { ...ENGINE_FLAGS }, strict: true });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  const log = (message: string) => io.stderr(`evident mcp: ${escapeForTerminal(message)}\n`);
  // Standard output is the protocol's: a library that logs with console.log must not corrupt it.
  console.log = console.info = console.debug = (...args: unknown[]) => io.stderr(`${format(...args)}\n`);
  const engine = await openEngine(values, io);
  const index = new FreshIndex(engine, { shared: engine.shared, log });
  let stop = () => {};
  process.stdin.once('end', () => stop());
  io.signal?.addEventListener('abort', () => stop(), { once: true });
  try {
    const server = await startStdioServer({
      index,
      topK: topKFlag(values['top-k']) ?? DEFAULT_TOP_K,
      version: packageVersion(),
      log,
    });
    const closed = new Promise<void>((resolve) => (server.onclose = resolve));
    stop = () => void server.close();
    if (io.signal?.aborted || process.stdin.readableEnded) stop();
    log(
      `serving ${MCP_TOOL_NAMES.search} and ${MCP_TOOL_NAMES.check} on stdio, from the ${engine.storeLabel}${values.docs ? ` of ${path.resolve(io.cwd, values.docs)}` : ''}.`,
    );
    // Index at start, so the first call finds it ready (a failure is said here and again to the call that needs it).
    void index.current().catch(() => undefined);
    await closed;
    await index.settled();
    return 0;
  } finally {
    await engine.close();
  }
};

/** The version of the installed package (dist/cli.js sits in dist/ beside package.json's folder). */
function packageVersion(): string {
  try {
    return (
      (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version?: string }).version ??
      '0.0.0'
    );
  } catch {
    return '0.0.0';
  }
}
