// Builders for test workspaces: a temporary folder with named Markdown files, removed after
// the test. Lives under test/: never shipped.

import { mkdtemp, mkdir, rm, writeFile, readdir, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOCK_FILE } from '../../src/core/retrieval/indexLock';
import { READERS_FOLDER } from '../../src/core/retrieval/readerLeases';

export async function tempDir(prefix = 'evident-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function writeDocs(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Every file under `root` with its size and mtime: to prove a folder was not written to. */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else {
        const s = await stat(abs);
        out[path.relative(root, abs)] = `${s.size}:${s.mtimeMs}`;
      }
    }
  };
  await walk(root);
  return out;
}

/**
 * The index's own files under `dir` (as `snapshot`), without the coordination files of processes
 * sharing it (reader leases, the writer lock): "a run that changes nothing writes nothing" is
 * about these.
 */
export async function indexSnapshot(dir: string): Promise<Record<string, string>> {
  const all = await snapshot(dir);
  return Object.fromEntries(Object.entries(all).filter(([name]) => !isCoordinationFile(name)));
}

/** A reader lease or the writer lock (relative to the index folder). */
export function isCoordinationFile(name: string): boolean {
  return (
    name === LOCK_FILE ||
    name === READERS_FOLDER ||
    name.startsWith(`${READERS_FOLDER}/`) ||
    name.startsWith(`${READERS_FOLDER}${path.sep}`)
  );
}

/** The samples workspace shipped with the project (fictional policies we wrote). */
export const SAMPLES_DOCS = path.resolve(__dirname, '../../samples/policies');
export const SAMPLES_EVAL_SET = path.resolve(__dirname, '../../samples/eval-set.jsonl');
/** Real corpora, reached by path (never copied): sharedData.ts, which says how tests without them skip. */
export { SHARED_DATA } from './sharedData';
