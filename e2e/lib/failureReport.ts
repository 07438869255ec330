// What a failed check prints: its screenshot path, the tail of the extension host log (and the
// Evident output channel), and the page's recent errors, appended to the failure so mocha's
// summary carries it.

import { tail } from './codeServer';
import { session } from './session';

const LOG_LINES = 40;

export async function describeFailure(checkTitle: string): Promise<string> {
  const s = session();
  const parts: string[] = [];
  if (s.current) {
    try {
      const shot = await s.current.screenshot(checkTitle, 'failed');
      parts.push(`screenshot: ${shot}`);
    } catch (error) {
      parts.push(`screenshot failed: ${(error as Error).message}`);
    }
    // In-host results are already in the failure message.
    const errors = s.current.consoleLines
      .filter((l) => /\[(error|pageerror)\]|evident/i.test(l) && !l.includes('evident-inhost'))
      .slice(-15);
    if (errors.length > 0) parts.push(`workbench console (errors and Evident lines):\n${indent(errors.join('\n'))}`);
  }
  const logs = await s.server.extensionHostLogs();
  for (const log of logs) {
    const text = await tail(log, LOG_LINES);
    if (text.trim()) parts.push(`${log} (last ${LOG_LINES} lines):\n${indent(text)}`);
  }
  if (logs.length === 0) parts.push(`no extension host log yet; server log: ${s.server.logFile}`);
  return parts.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    | ${l}`)
    .join('\n');
}
