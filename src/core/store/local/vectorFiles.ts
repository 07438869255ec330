// The vectors of a local index folder: vector segments (`vectors-<gen>-<n>.f32/.ids`, see
// vectorStore.ts) and the vector search graph (`ann-<gen>.usearch/.ids`, see annIndex.ts), read
// into a vector store on first use and written as a save plans them.

import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { AnnSnapshot, annLibrary } from '../../retrieval/annIndex';
import { VectorStore } from '../../retrieval/vectorStore';
import type { GenerationWriter } from './generation';
import type { Manifest, VectorFileRef } from './manifest';

/**
 * The vector store of `manifest`'s segments (undefined for an index without vectors). The search
 * graph's ids are read now and its graph at the first query; a graph that cannot be attached is
 * reported to `annUnusable` (the search is then exact).
 */
export async function loadVectorFiles(
  dir: string,
  manifest: Manifest,
  annUnusable: (error: Error) => void,
): Promise<VectorStore | undefined> {
  const { dimensions, vectors: refs } = manifest;
  if (!dimensions || !manifest.embeddingModel) return undefined;
  const store = new VectorStore(dimensions);
  for (const ref of refs) {
    const f32 = await readFile(path.join(dir, `${ref.stem}.f32`));
    const ids = (await readFile(path.join(dir, `${ref.stem}.ids`), 'utf8')).split('\n');
    // A view when the bytes are 4-byte aligned (a whole-file read is), else one copy.
    const data =
      f32.byteOffset % 4 === 0
        ? new Float32Array(f32.buffer, f32.byteOffset, f32.byteLength / 4)
        : new Float32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.byteLength));
    store.addLoaded(ref, ref.rows === 0 ? [] : ids, data);
  }
  const ann = manifest.ann;
  const library = ann ? annLibrary() : undefined;
  if (ann && library) {
    // Its ids now (an indexing run needs only them); its graph at the first query.
    try {
      const ids = (await readFile(path.join(dir, `${ann.stem}.ids`), 'utf8')).split('\n');
      const file = path.join(dir, `${ann.stem}.usearch`);
      store.attachAnnFile(ann, ids, () => AnnSnapshot.load(library, file, dimensions, ids, ann.usearchSha1));
    } catch (error) {
      annUnusable(error as Error);
    }
  }
  return store;
}

/**
 * Writes the vector segments a save in generation `gen` needs (new ones, or one compacted) and
 * the search graph; returns their refs. Without a loaded store (nothing changed there) the
 * manifest's segments stay as they are.
 */
export async function writeVectorSegments(
  dir: string,
  gen: number,
  manifest: Manifest,
  vectors: VectorStore | undefined,
  writer: GenerationWriter,
  deferGraph = false,
): Promise<{ vectors: VectorFileRef[]; ann: Manifest['ann'] | null }> {
  let vectorRefs: VectorFileRef[] = manifest.vectors;
  let annRef = manifest.ann ?? null;
  if (vectors) {
    let n = 0;
    const plan = await vectors.planSave(() => `vectors-${gen}-${n++}`, `ann-${gen}`, { deferGraph });
    const bytes = new Map<string, { f32: number; ids: number }>();
    for (const seg of plan.write) {
      const f32 = await writer.write(
        `${seg.stem}.f32`,
        new Uint8Array(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength),
      );
      const ids = await writer.write(`${seg.stem}.ids`, seg.ids.join('\n'));
      bytes.set(seg.stem, { f32: f32.bytes, ids: ids.bytes });
    }
    const previous = new Map(manifest.vectors.map((r) => [r.stem, r]));
    vectorRefs = plan.refs.map((r) => {
      const b = bytes.get(r.stem) ?? {
        f32: previous.get(r.stem)?.f32Bytes ?? 0,
        ids: previous.get(r.stem)?.idsBytes ?? 0,
      };
      return { ...r, f32Bytes: b.f32, idsBytes: b.ids };
    });
    // The vector search graph: a new one, the one on disk (with the ids replaced since), or none.
    if (plan.ann.kind === 'write') {
      const name = `${plan.ann.ref.stem}.usearch`;
      writer.written(name);
      const graph = await plan.ann.snapshot.save(dir, name);
      const ids = await writer.write(`${plan.ann.ref.stem}.ids`, plan.ann.snapshot.ids.join('\n'));
      annRef = { ...plan.ann.ref, usearchBytes: graph.bytes, usearchSha1: graph.sha1, idsBytes: ids.bytes };
    } else {
      annRef = plan.ann.kind === 'keep' && annRef?.stem === plan.ann.ref.stem ? { ...annRef, ...plan.ann.ref } : null;
    }
  }
  return { vectors: vectorRefs, ann: annRef };
}
