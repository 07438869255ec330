// Readers keep the generation they opened: an open index (an `ask`, a window's index worker)
// holds a lease, `readers/<pid>-<token>.json`, naming the files of its generation, and a writer
// removing the files of older generations keeps every file a live lease names. A reader pins
// its generation before it reads anything (`pinManifest`: lease, then read the manifest again;
// a newer one means pinning that instead), so it never reads a file that a writer removes, and
// never a mix of two generations. A lease is touched every HEARTBEAT_MS; one whose process is
// gone (same host) or whose heartbeat stopped (a terminated worker, a crash elsewhere) is stale:
// writers ignore it and remove it.

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { MANIFEST_FILE } from './indexFiles';
import { isStale } from './indexLock';

export const READERS_FOLDER = 'readers';
const HEARTBEAT_MS = 60_000;
const STALE_MS = 10 * 60_000;
/** How many times a reader follows newer manifests before it reads the one it has (a writer committing nonstop). */
const PIN_ATTEMPTS = 20;

interface LeaseRecord {
  pid: number;
  host: string;
  generation: number;
  files: string[];
}

export class ReaderLease {
  private released = false;
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    private readonly file: string,
    private record: LeaseRecord,
  ) {
    this.heartbeat = setInterval(() => {
      const now = new Date();
      utimes(this.file, now, now).catch(() => undefined);
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** A new lease on `files`, or undefined when the folder cannot be written (then nobody can remove files there either). */
  static async take(dir: string, generation: number, files: Iterable<string>): Promise<ReaderLease | undefined> {
    const folder = path.join(dir, READERS_FOLDER);
    const file = path.join(folder, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
    const record: LeaseRecord = { pid: process.pid, host: os.hostname(), generation, files: [...files] };
    try {
      await mkdir(folder, { recursive: true });
      await writeRecord(file, record);
    } catch {
      return undefined;
    }
    return new ReaderLease(file, record);
  }

  get generation(): number {
    return this.record.generation;
  }

  /** The lease now covers `files` (another generation) instead. */
  async move(generation: number, files: Iterable<string>): Promise<void> {
    if (this.released) return;
    this.record = { ...this.record, generation, files: [...files] };
    await writeRecord(this.file, this.record).catch(() => undefined);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    await rm(this.file, { force: true }).catch(() => undefined);
  }
}

async function writeRecord(file: string, record: LeaseRecord): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, JSON.stringify(record));
  await rename(tmp, file);
}

/**
 * Pins the generation a reader is about to read: reads the manifest, leases the files it names,
 * and reads the manifest again; until both reads agree, the lease follows the newer manifest.
 * Returns the manifest's text (undefined: no manifest) and the lease (undefined: none could be taken).
 */
export async function pinManifest(
  dir: string,
  filesOf: (manifestText: string | undefined) => { generation: number; files: Set<string> },
  lease: ReaderLease | undefined,
): Promise<{ text: string | undefined; lease: ReaderLease | undefined }> {
  const read = () => readFile(path.join(dir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  let text = await read();
  for (let attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
    const { generation, files } = filesOf(text);
    if (lease) await lease.move(generation, files);
    else lease = await ReaderLease.take(dir, generation, files);
    if (!lease) return { text, lease };
    const again = await read();
    if (again === text) return { text, lease };
    text = again;
  }
  return { text, lease };
}

/** Every file a live lease names; stale leases (and their leftover temporary files) are removed. */
export async function leasedFiles(dir: string): Promise<Set<string>> {
  const folder = path.join(dir, READERS_FOLDER);
  const out = new Set<string>();
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return out;
  }
  for (const name of names) {
    const file = path.join(folder, name);
    try {
      const info = await stat(file);
      if (name.endsWith('.tmp')) {
        if (Date.now() - info.mtimeMs > STALE_MS) await rm(file, { force: true });
        continue;
      }
      const record = parseRecord(await readFile(file, 'utf8'));
      if (!record || isStale(record, info.mtimeMs, STALE_MS)) {
        // Stale, or damaged (leases are renamed into place whole) and past the age a live one reaches.
        if (record || Date.now() - info.mtimeMs > STALE_MS) await rm(file, { force: true });
        continue;
      }
      for (const f of record.files) out.add(f);
    } catch {
      // released meanwhile
    }
  }
  return out;
}

function parseRecord(text: string): LeaseRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<LeaseRecord>;
    if (typeof record.pid !== 'number' || typeof record.host !== 'string' || !Array.isArray(record.files)) {
      return undefined;
    }
    return {
      pid: record.pid,
      host: record.host,
      generation: Number(record.generation),
      files: record.files.filter((f): f is string => typeof f === 'string'),
    };
  } catch {
    return undefined;
  }
}
