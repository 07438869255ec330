// Runs the in-host mocha suite inside the real extension host: code-server 4.100.3 takes
// extensionDevelopmentPath/extensionTestsPath from the workbench URL payload, and the test
// runner's exit code arrives through window.codeAutomationExit, caught with exposeFunction.

import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { InHostResult } from '../../test/e2e/suite/index';
import { extensionDir, inHostOutDir } from './paths';
import type { Session } from './session';
import { NAME_SHIM, Workbench } from './workbench';

export interface InHostRun {
  exitCode: number;
  results: InHostResult[];
  /** Lines the in-host reporter printed (forwarded from the extension host to the page console). */
  consoleLines: string[];
  workbench: Workbench;
}

export async function runInHostSuite(s: Session, timeoutMs: number): Promise<InHostRun> {
  const entry = join(inHostOutDir, 'index.js');
  if (!existsSync(entry)) throw new Error(`the in-host suite is not bundled (${entry} missing)`);
  await rm(s.inHostReport, { force: true });
  const page = await s.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const workbench = new Workbench(page);
  s.current = workbench;
  await page.addInitScript({ content: NAME_SHIM });
  let exit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (exit = resolve));
  await page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
  const url = s.server.workbenchUrl(s.workspaces.inHost, [
    ['extensionDevelopmentPath', s.server.remoteUri(extensionDir)],
    ['extensionTestsPath', s.server.remoteUri(join(inHostOutDir, 'index'))],
  ]);
  await page.goto(url);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<number>((_, reject) => {
    timer = setTimeout(() => {
      void readResults(s.inHostReport).then((results) => {
        const listed = results.map((r) => `  ${r.state}: ${r.title}${r.error ? `\n${r.error}` : ''}`).join('\n');
        reject(
          new Error(
            `the in-host suite did not finish within ${timeoutMs / 1000} s; so far:\n${listed || '  (no test started)'}`,
          ),
        );
      });
    }, timeoutMs);
  });
  try {
    const exitCode = await Promise.race([exited, timedOut]);
    const consoleLines = workbench.consoleLines.filter((l) => l.includes('[evident-inhost]'));
    return { exitCode, results: await readResults(s.inHostReport), consoleLines, workbench };
  } finally {
    clearTimeout(timer);
  }
}

async function readResults(file: string): Promise<InHostResult[]> {
  return existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as InHostResult[]) : [];
}
