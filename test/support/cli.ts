// Runs the `evident` CLI in-process with captured output (tests only).

import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = {},
  extra: Partial<CliIO> = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    cwd: process.cwd(),
    // A closed local port stands in for the unreachable model hub: deterministic offline runs.
    env: { HOME: process.env.HOME, HF_ENDPOINT: 'http://127.0.0.1:9', ...env },
    ...extra,
  });
  return { code, stdout, stderr };
}
