// The writer lock of an index folder: one indexing run at a time, across processes (the CLI, the
// extension's index worker, two windows on one folder). `index.lock` is created exclusively and
// holds the writer's pid, host and a token; the writer touches it every HEARTBEAT_MS. A lock is
// stale when its process is gone (same host) or its heartbeat stopped (a crash on another host,
// a terminated worker thread, a reused pid): the next writer takes it over. Before each commit
// the writer checks the lock still holds its token, so a run whose lock was taken over (it was
// thought dead) abandons its save instead of racing the new writer.

import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { isWriteRefused } from './indexFiles';
import type { LockHolder } from '../indexing/indexRun';

export const LOCK_FILE = 'index.lock';
/** How often a holder touches its lock, and how old a heartbeat may be before the lock is stale. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 120_000;
/** How often a waiting writer looks again. */
const POLL_MS = 200;

export type { LockHolder };

/** A lock held by this run. */
export interface HeldLock {
  readonly kind: 'held';
  /** Throws IndexLockLost when another writer took the lock over (this one was thought dead). */
  check(): Promise<void>;
  release(): Promise<void>;
}

export type LockAttempt =
  | HeldLock
  /** Another live writer holds the lock (`holder` undefined while it is still writing the file). */
  | { readonly kind: 'busy'; holder: LockHolder | undefined }
  /** The folder refuses writes (read-only, full): no other writer can commit here either. */
  | { readonly kind: 'unlockable'; code: string };

export class IndexLockLost extends Error {
  readonly code = 'index-lock-lost';
  constructor(dir: string) {
    super(
      `Another Evident process took over the index lock of ${dir} (this run was thought to have stopped): this run's save was abandoned. Run it again.`,
    );
    this.name = 'IndexLockLost';
  }
}

/** True when `pid` is a live process on this host (EPERM: it exists, run by another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock or lease whose holder is gone: its process is dead (same host), or its heartbeat is older than `maxAgeMs`. */
export function isStale(
  holder: { pid: number; host: string } | undefined,
  heartbeatMs: number,
  maxAgeMs: number,
): boolean {
  if (Date.now() - heartbeatMs > maxAgeMs) return true;
  return holder !== undefined && holder.host === os.hostname() && !processAlive(holder.pid);
}

/**
 * Takes the writer lock of `dir`. `wait`: wait for a live holder to finish (telling `onWait` once);
 * else report it busy at once. A stale lock is taken over.
 */
export async function acquireIndexLock(
  dir: string,
  options: { wait: boolean; signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void | Promise<void> },
): Promise<LockAttempt> {
  const file = path.join(dir, LOCK_FILE);
  let told = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const me: LockHolder = {
      pid: process.pid,
      host: os.hostname(),
      token: randomBytes(8).toString('hex'),
      since: new Date().toISOString(),
    };
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(JSON.stringify(me));
      } finally {
        await handle.close();
      }
      return heldLock(dir, file, me.token);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        if (isWriteRefused(error)) return { kind: 'unlockable', code: code ?? 'EIO' };
        throw error;
      }
    }
    const found = await readHolder(file);
    if (found === 'gone') continue;
    if (isStale(found.holder, found.heartbeatMs, STALE_MS)) {
      await takeOver(file);
      continue;
    }
    if (!options.wait) return { kind: 'busy', holder: found.holder };
    if (!told) {
      told = true;
      await options.onWait?.(found.holder);
    }
    await delay(POLL_MS, options.signal);
  }
}

/** The lock file's holder and heartbeat; `holder` undefined while the file is being written. */
async function readHolder(file: string): Promise<{ holder: LockHolder | undefined; heartbeatMs: number } | 'gone'> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return { holder: parseHolder(text), heartbeatMs: info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string') {
      return { pid: value.pid, host: value.host, token: value.token, since: String(value.since ?? '') };
    }
  } catch {
    // half-written (its writer is between open and write), or damaged: judged by its age alone
  }
  return undefined;
}

/**
 * Moves a stale lock aside under a name of our own and removes it. Two writers may both find it
 * stale, and the second could move the lock the first has just taken: what was moved is judged
 * again, and a live lock moved by mistake is put back (unless a new one is there already; its
 * holder then finds it lost at its next check, rather than two writers committing).
 */
async function takeOver(file: string): Promise<void> {
  const aside = `${file}.${randomBytes(6).toString('hex')}.stale`;
  try {
    await rename(file, aside);
  } catch {
    return; // someone else moved it: look again
  }
  try {
    const [text, info] = await Promise.all([readFile(aside, 'utf8'), stat(aside)]);
    if (!isStale(parseHolder(text), info.mtimeMs, STALE_MS)) {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
    }
  } catch {
    // unreadable, or a new lock is in place
  } finally {
    await rm(aside, { force: true }).catch(() => undefined);
  }
}

function heldLock(dir: string, file: string, token: string): HeldLock {
  let released = false;
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    kind: 'held',
    async check() {
      const text = await readFile(file, 'utf8').catch(() => '');
      if (parseHolder(text)?.token !== token) throw new IndexLockLost(dir);
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      // Only our own lock: one taken over meanwhile belongs to its new holder.
      const text = await readFile(file, 'utf8').catch(() => '');
      if (parseHolder(text)?.token === token) await rm(file, { force: true }).catch(() => undefined);
    },
  };
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
