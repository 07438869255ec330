// Writing a new generation of a local index folder, one way for every save: the generation's
// files are written (each atomically), then the manifest naming them is renamed into place (the
// commit), after checking the writer lock still holds. Anything failing before the commit removes
// the files written, so the previous generation stays whole. After a commit, this process's
// reader lease moves to the new generation and files no reader holds any more are swept.

import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { MANIFEST_FILE, removeStrayFiles, writeFileAtomic, type FileRef } from '../../retrieval/indexFiles';
import type { HeldLock } from '../../retrieval/indexLock';
import { leasedFiles, type ReaderLease } from '../../retrieval/readerLeases';
import { referencedFiles, type Manifest } from './manifest';

/** Writes one file of the generation being written. */
export type WriteFile = (name: string, content: string | Uint8Array | Iterable<string>) => Promise<FileRef>;

export interface GenerationWriter {
  write: WriteFile;
  /** Records a file written by other means (the search graph's native writer), so a rollback removes it too. */
  written(name: string): void;
}

/**
 * Commits a generation: `build` writes its files through the writer and returns the manifest
 * naming them; the manifest is written once `lock` (if any) still holds. Fails as a whole: on any
 * error the files written go and the error is thrown.
 */
export async function commitGeneration(
  dir: string,
  lock: HeldLock | undefined,
  build: (writer: GenerationWriter) => Promise<Manifest>,
): Promise<Manifest> {
  const written: string[] = [];
  const writer: GenerationWriter = {
    write: async (name, content) => {
      written.push(name);
      return writeFileAtomic(dir, name, content);
    },
    written: (name) => written.push(name),
  };
  try {
    const manifest = await build(writer);
    await lock?.check();
    await writeFileAtomic(dir, MANIFEST_FILE, JSON.stringify(manifest));
    return manifest;
  } catch (error) {
    // Nothing was committed: this run's files go, the previous generation stays whole.
    for (const name of written) await rm(path.join(dir, name), { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Files of crashed runs and of generations no reader holds any more (under the writer lock). */
export async function removeLeftovers(dir: string, manifest: Manifest): Promise<void> {
  const keep = referencedFiles(manifest);
  for (const name of await leasedFiles(dir)) keep.add(name);
  await removeStrayFiles(dir, keep, { legacy: manifest.updatedAt !== '' });
}

/** After a commit: this index's pin moves to the new generation, then older files no reader holds go. */
export async function afterCommit(dir: string, lease: ReaderLease | undefined, manifest: Manifest): Promise<void> {
  await lease?.move(manifest.generation, referencedFiles(manifest));
  await removeLeftovers(dir, manifest);
}
