// Starts the project's fake Gemini server (test/support/fakeGeminiMain.ts) as a child process
// for the run; the extension reaches it through GOOGLE_GEMINI_BASE_URL on the code-server process.

import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fakeGeminiMain, repoRoot } from './paths';

export interface FakeGeminiOptions {
  /** Replies served first, in order (the fake's script-file format), then `mode` answers. */
  script: unknown[];
  mode: string;
  home: string;
}

export class FakeGeminiProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  static async start(options: FakeGeminiOptions): Promise<FakeGeminiProcess> {
    const scriptFile = join(options.home, 'fake-gemini-script.json');
    await writeFile(scriptFile, JSON.stringify(options.script));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fakeGeminiMain, '--port', '0', '--script', scriptFile, '--mode', options.mode],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`fake Gemini server did not print "listening" within 20 s: ${stderr}`)),
        20_000,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /listening (\S+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`fake Gemini server exited with ${code}: ${stderr}`));
      });
    });
    return new FakeGeminiProcess(child, baseUrl);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.kill('SIGTERM');
    await exited;
  }
}
