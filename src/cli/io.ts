// What a CLI command gets to talk to the world: output streams and whether stderr is a
// terminal (progress is drawn only there). Commands return their exit code.

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a TTY: only then do commands draw progress. */
  isTTY: boolean;
  /** Current working directory, for resolving relative paths. */
  cwd: string;
  /** Environment (GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL…). */
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/** A usage or input error: printed as `evident: <message>` with exit code 2. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export type CliCommand = (argv: string[], io: CliIO) => Promise<number>;
