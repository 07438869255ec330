// Runs test/support/fillRun.ts as a child process until it has committed some vector chunks and
// paused mid-embedding, then kills it with SIGKILL (tests only): an index run killed as a crash
// or a window reload would kill it.

import { spawn } from 'node:child_process';
import * as path from 'node:path';

const RUNNER = path.resolve(__dirname, 'fillRun.ts');

/** Runs fillRun.ts until it prints "paused", then kills it with SIGKILL; returns its output. */
export function runUntilPausedThenKill(
  docs: string,
  indexDir: string,
  modelDir: string,
  commitEvery: number,
  pauseAt: number,
  modelId?: string,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        RUNNER,
        docs,
        indexDir,
        modelDir,
        String(commitEvery),
        String(pauseAt),
        ...(modelId ? [modelId] : []),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines: string[] = [];
    let stderr = '';
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the run did not pause; stdout: ${lines.join(' | ')}; stderr: ${stderr}`));
    }, 90_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (line === 'paused') child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && lines.includes('paused')) resolve(lines);
      else {
        reject(
          new Error(
            `the run ended without being killed (code ${code}, signal ${signal}); stdout: ${lines.join(' | ')}; stderr: ${stderr}`,
          ),
        );
      }
    });
  });
}
