// A bounded JSON Lines log that several processes may append to at once (the extension and the
// CLI share an index folder's logs). Each append takes a lock file (created with O_EXCL), rotates
// when the file would pass its size limit (`metrics.jsonl` → `metrics.jsonl.1` → … → `.N`, the
// oldest dropped), appends one line in one write, and releases the lock. A lock older than
// STALE_LOCK_MS (a writer that died) is broken; when the lock cannot be had in time the line is
// still appended, without rotating: a record is never lost for the sake of the bound.

import { appendFile, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import * as path from 'node:path';

export interface LogLimits {
  /** Rotate before a file would pass this many bytes. */
  maxBytes: number;
  /** How many rotated files to keep beside the live one. */
  keep: number;
}

/** 5 MiB × (1 live + 3 rotated): about 80,000 metrics records (~250 B) or 16,000 audit records (~1.2 KB). */
export const DEFAULT_LOG_LIMITS: LogLimits = { maxBytes: 5 * 1024 * 1024, keep: 3 };

const LOCK_WAIT_MS = 3000;
const STALE_LOCK_MS = 10_000;

export async function appendBounded(file: string, line: string, limits: LogLimits = DEFAULT_LOG_LIMITS): Promise<void> {
  const text = line.endsWith('\n') ? line : `${line}\n`;
  await mkdir(path.dirname(file), { recursive: true });
  const release = await acquireLock(`${file}.lock`);
  try {
    if (release && (await sizeOf(file)) + Buffer.byteLength(text) > limits.maxBytes) await rotate(file, limits.keep);
    await appendFile(file, text);
  } finally {
    await release?.();
  }
}

/** More rotated files than any setting keeps: where reading stops at the latest. */
const MAX_ROTATED_FILES = 1000;

/**
 * The log's text, oldest first: `file.N` … `file.1`, `file` (rotation keeps the numbers
 * contiguous, so reading stops at the first missing one). With `tailBytes`, only about the last
 * that many bytes, starting at a whole line (for a quick look at recent turns).
 */
export async function readLogText(file: string, tailBytes = Infinity): Promise<string> {
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; i <= MAX_ROTATED_FILES && bytes < tailBytes; i++) {
    let text: string;
    try {
      text = await readFile(i === 0 ? file : `${file}.${i}`, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (i === 0) continue;
      break;
    }
    parts.unshift(text.endsWith('\n') || !text ? text : `${text}\n`);
    bytes += text.length;
  }
  const all = parts.join('');
  if (all.length <= tailBytes) return all;
  return all.slice(all.indexOf('\n', all.length - tailBytes) + 1);
}

async function rotate(file: string, keep: number): Promise<void> {
  if (keep <= 0) {
    await unlink(file).catch(ignoreMissing);
    return;
  }
  await unlink(`${file}.${keep}`).catch(ignoreMissing);
  for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(ignoreMissing);
  await rename(file, `${file}.1`).catch(ignoreMissing);
}

/** Returns a release function, or undefined when the lock could not be had in time. */
async function acquireLock(lock: string): Promise<(() => Promise<void>) | undefined> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid} ${new Date().toISOString()}\n`);
      await handle.close();
      return () => unlink(lock).catch(ignoreMissing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const held = await stat(lock).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) {
      await unlink(lock).catch(ignoreMissing);
      continue;
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(5 + attempt * 5, 50) * (0.5 + Math.random())));
  }
}

async function sizeOf(file: string): Promise<number> {
  return (await stat(file).catch(() => undefined))?.size ?? 0;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}
