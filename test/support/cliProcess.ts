// Runs the `evident` CLI as a real child process (tests only): for what only a process shows,
// such as a reader closing the pipe early. (A run as a user who cannot read a folder:
// unprivilegedRun.ts.)

import { spawn } from 'node:child_process';
import * as path from 'node:path';

const MAIN = path.resolve(__dirname, '../../src/cli/main.ts');

export interface CliProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** With `reportPeakMemory`: the process's peak resident memory (maxRSS), in MB. */
  peakMemoryMb?: number;
}

const PEAK_MEMORY = path.resolve(__dirname, 'reportPeakMemory.cjs');
const PEAK_LINE = /\nevident-test-peak-rss-kb (\d+) cpu-ms \d+\n$/;

export interface CliProcessOptions {
  env?: Record<string, string>;
  /** Close our end of stdout before the CLI writes (as `| head` does once it has enough). */
  closeStdoutAtOnce?: boolean;
  timeoutMs?: number;
  /** Report the child's peak resident memory (a preload prints it on stderr at exit; taken off stderr). */
  reportPeakMemory?: boolean;
}

export function runCliProcess(args: string[], options: CliProcessOptions = {}): Promise<CliProcessRun> {
  return new Promise((resolve, reject) => {
    const preload = options.reportPeakMemory ? ['--require', PEAK_MEMORY] : [];
    const child = spawn(process.execPath, [...preload, '--import', 'tsx', MAIN, ...args], {
      cwd: path.resolve(__dirname, '../..'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        HF_ENDPOINT: 'http://127.0.0.1:9',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    if (options.closeStdoutAtOnce) child.stdout.destroy();
    else child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish within ${options.timeoutMs ?? 60_000} ms; stderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const peak = PEAK_LINE.exec(stderr);
      if (peak) resolve({ code, stdout, stderr: stderr.slice(0, peak.index), peakMemoryMb: Number(peak[1]) / 1024 });
      else resolve({ code, stdout, stderr });
    });
  });
}
