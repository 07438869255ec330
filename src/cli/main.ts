// The `evident` command line: index / ask / verify / eval / metrics / check / mcp over a docs folder, for CI gates and
// scripting. A thin shell over src/core; the contract is docs/cli.md.

import { CliError, type CliCommand, type CliIO } from './io';
import { JsonlError } from '../core/jsonl';

const HELP = `Usage: evident <command> [options]

Commands:
  index    --docs DIR                                   build or update the index
  ask      --docs DIR (--question TEXT | --questions F)  answer with verified citations
  ask      --model google-search | vertex-ai-search …   answer grounded by Google Search or a
                                                        Vertex AI Search data store (no --docs)
  verify   --pairs FILE.jsonl                           verifier verdicts for claim/evidence pairs
  eval     --docs DIR --set FILE.jsonl                  evaluation figures, with CI gates
  metrics  --docs DIR [--since DATE]                    the turn log as tables, with drift alerts
  check    --file F --docs DIR                          check any text against the documents,
                                                        sentence by sentence
  mcp      --docs DIR                                   an MCP server on stdio: search_docs and
                                                        check_answer for other agents

Run "evident <command> --help" for a command's options. Works offline: without GEMINI_API_KEY
the extractive model answers, and without an embedding model retrieval is lexical.
`;

const commands: Record<string, () => Promise<CliCommand>> = {
  index: async () => (await import('./commands')).index,
  ask: async () => (await import('./commands/ask')).ask,
  verify: async () => (await import('./commands/verify')).verify,
  eval: async () => (await import('./commands/eval')).evaluate,
  metrics: async () => (await import('./commands/metrics')).metrics,
  check: async () => (await import('./commands/check')).check,
  mcp: async () => (await import('./commands/mcp')).mcp,
};

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP);
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    io.stderr(`evident: unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await (
      await load()
    )(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`evident ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof JsonlError) {
      io.stderr(`evident ${name}: ${error.message}\n`);
      return 2;
    }
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`evident ${name}: ${(error as Error).message}\nRun "evident ${name} --help" for the options.\n`);
      return 2;
    }
    if ((error as Error).name === 'AbortError') {
      io.stderr(`evident ${name}: cancelled\n`);
      return 130;
    }
    io.stderr(`evident ${name}: ${(error as Error).message}\n`);
    return 1;
  }
}

/** A reader that stops early (`evident ask … | head`) closes the pipe: stop quietly, not with a stack trace. */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream, exit: (code: number) => void): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') exit(0);
    else throw error;
  });
}

if (require.main === module) {
  exitQuietlyOnClosedPipe(process.stdout, (code) => process.exit(code));
  exitQuietlyOnClosedPipe(process.stderr, (code) => process.exit(code));
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  main(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // main() reports what it expects itself; anything else is a bug: its stack, and a failing exit.
      process.stderr.write(
        `evident: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
