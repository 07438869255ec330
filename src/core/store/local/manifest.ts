// The manifest of a local index folder (`manifest.json`): the files of the committed generation
// with their lengths, and opening it: what is missing, corrupt or outdated is found here and
// dropped, each with a notice saying why, so the index rebuilds as little as needed.

import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { INDEX_FORMAT_VERSION } from '../../indexing/indexRun';
import type { KnownDocument } from '../../indexing/changeSet';
import type { AnnSnapshotRef, VectorSegmentRef } from '../../retrieval/vectorStore';
import { checkFile, type FileRef } from '../../retrieval/indexFiles';
import { pinManifest, type ReaderLease } from '../../retrieval/readerLeases';
import { checkLexicalHeader } from './lexicalFiles';
import { notice, type Notice } from '../../../domain/notices';

export interface DocumentEntry extends KnownDocument {
  /** Where the passages are: a line of a passage segment. */
  segment: string;
  offset: number;
  length: number;
}

export interface VectorFileRef extends VectorSegmentRef {
  f32Bytes: number;
  idsBytes: number;
}

export interface AnnFileRef extends AnnSnapshotRef {
  usearchBytes: number;
  /** Checked before the native loader reads the file (it aborts the process on a damaged one). */
  usearchSha1: string;
  idsBytes: number;
}

export interface Manifest {
  formatVersion: number;
  docsRoot: string;
  updatedAt: string;
  embeddingModel: string | null;
  dimensions: number | null;
  generation: number;
  documents: FileRef | null;
  passages: FileRef[];
  lexical: FileRef | null;
  /** Passage ids added to / removed from the lexical index since its snapshot was written. */
  lexicalDelta: { add: string[]; remove: string[] };
  vectors: VectorFileRef[];
  /** The vector search graph (absent below its size threshold, or when it must be rebuilt). */
  ann?: AnnFileRef | null;
  /** Term document frequencies (derived data: recomputed from the passages when missing or damaged). */
  terms?: FileRef | null;
}

export function freshManifest(docsRoot: string): Manifest {
  return {
    formatVersion: INDEX_FORMAT_VERSION,
    docsRoot,
    updatedAt: '',
    embeddingModel: null,
    dimensions: null,
    generation: 0,
    documents: null,
    passages: [],
    lexical: null,
    lexicalDelta: { add: [], remove: [] },
    vectors: [],
  };
}

/** What opening an index folder found: the usable manifest, and what must be rebuilt. */
export interface OpenedManifest {
  manifest: Manifest;
  documents: Record<string, DocumentEntry>;
  /** The lexical snapshot to read on first use (its header checked); undefined: none usable. */
  lexicalFile: string | undefined;
  /** The lexical index must be rebuilt from the stored passages. */
  rebuildLexical: boolean;
  /** The files on disk lag behind what the index will hold: its next save writes everything. */
  fullSave: boolean;
  /** Why the index on disk was not used as it was (rebuild reasons). */
  notices: Notice[];
  lease: ReaderLease | undefined;
}

/**
 * Reads the manifest of `dir` for `docsRoot`, pinning the generation it names first (a reader
 * lease), and checks the files it names: a manifest of another format or docs folder, or one
 * that cannot be parsed, is dropped; damaged documents or passages drop the document table (the
 * vectors are kept); a damaged lexical snapshot is rebuilt; a cut-off vector file loses only its
 * vectors; a cut-off search graph means exact search until the next run. Removes nothing.
 */
export async function openManifest(
  dir: string,
  docsRoot: string,
  lease: ReaderLease | undefined,
): Promise<OpenedManifest> {
  const notices: Notice[] = [];
  let manifest = freshManifest(docsRoot);
  let documents: Record<string, DocumentEntry> = {};
  let lexicalFile: string | undefined;
  let rebuildLexical = false;
  let fullSave = false;

  const pinned = await pinManifest(dir, pinnedFiles, lease);
  const manifestText = pinned.text;
  if (manifestText !== undefined) {
    try {
      const parsed = JSON.parse(manifestText) as Manifest;
      if (parsed.formatVersion !== INDEX_FORMAT_VERSION) {
        notices.push(
          notice(
            'index-format-changed',
            `The index was written in format ${String(parsed.formatVersion)}; this version uses ${INDEX_FORMAT_VERSION}: rebuilding it.`,
          ),
        );
      } else if (parsed.docsRoot !== docsRoot) {
        notices.push(notice('index-moved', `The index belonged to ${parsed.docsRoot}: rebuilding it for ${docsRoot}.`));
      } else {
        const damaged = (
          await Promise.all(
            [parsed.documents, ...parsed.passages]
              .filter((r): r is FileRef => r !== null)
              .map((r) => checkFile(dir, r)),
          )
        ).filter(Boolean);
        if (damaged.length) {
          // The vectors are still good (they are keyed by passage content): only the documents are re-read.
          notices.push(
            notice('index-damaged', `The index is damaged (${damaged.join('; ')}): re-reading the documents.`),
          );
          manifest = {
            ...freshManifest(docsRoot),
            generation: parsed.generation,
            embeddingModel: parsed.embeddingModel,
            dimensions: parsed.dimensions,
            vectors: parsed.vectors,
          };
          fullSave = true;
        } else {
          manifest = parsed;
          documents = parsed.documents
            ? (JSON.parse(await readFile(path.join(dir, parsed.documents.name), 'utf8')) as Record<
                string,
                DocumentEntry
              >)
            : {};
          const lexicalDamage = parsed.lexical ? await checkFile(dir, parsed.lexical) : undefined;
          if (lexicalDamage) {
            notices.push(
              notice(
                'lexical-index-damaged',
                `The lexical index is damaged (${lexicalDamage}): rebuilding it from the stored passages.`,
              ),
            );
            rebuildLexical = true;
          } else if (parsed.lexical) {
            try {
              // Only its header now; the rest on first use (see PassageIndex's `lexical`).
              checkLexicalHeader(path.join(dir, parsed.lexical.name), parsed.lexical.bytes);
              lexicalFile = parsed.lexical.name;
            } catch (error) {
              // Its own format check failed (another version of the lexical index): only it is rebuilt.
              notices.push(
                notice(
                  'lexical-index-damaged',
                  `The lexical index was unreadable (${(error as Error).message}): rebuilding it from the stored passages.`,
                ),
              );
              rebuildLexical = true;
            }
          } else {
            rebuildLexical = Object.keys(documents).length > 0;
          }
        }
      }
    } catch (error) {
      notices.push(notice('index-damaged', `The index was unreadable (${(error as Error).message}): rebuilding it.`));
      manifest = freshManifest(docsRoot);
      documents = {};
      lexicalFile = undefined;
      rebuildLexical = false;
    }
  }

  // Vector files: a cut-off or missing one is dropped; its passages are embedded again.
  const goodVectors: VectorFileRef[] = [];
  for (const ref of manifest.vectors) {
    const damage =
      (await checkFile(dir, { name: `${ref.stem}.f32`, bytes: ref.f32Bytes })) ??
      (await checkFile(dir, { name: `${ref.stem}.ids`, bytes: ref.idsBytes }));
    if (damage) {
      notices.push(
        notice(
          'vector-file-damaged',
          `A vector file is damaged (${damage}): its ${ref.rows - ref.dead.length} passages will be embedded again; the others are kept.`,
        ),
      );
      fullSave = true;
    } else {
      goodVectors.push(ref);
    }
  }
  manifest = { ...manifest, vectors: goodVectors };
  // The vector search graph: a cut-off one is dropped (exact search), and rebuilt by the next run.
  if (manifest.ann) {
    const ann = manifest.ann;
    const damage =
      (await checkFile(dir, { name: `${ann.stem}.usearch`, bytes: ann.usearchBytes })) ??
      (await checkFile(dir, { name: `${ann.stem}.ids`, bytes: ann.idsBytes }));
    if (damage) {
      notices.push(
        notice(
          'vector-search-damaged',
          `The vector search index is damaged (${damage}): searching all vectors exactly until the next indexing run rebuilds it.`,
        ),
      );
      manifest = { ...manifest, ann: null };
    }
  }
  return { manifest, documents, lexicalFile, rebuildLexical, fullSave, notices, lease: pinned.lease };
}

/** Live vector rows the manifest lists. */
export function vectorRows(manifest: Manifest): number {
  return manifest.vectors.reduce((n, r) => n + r.rows - r.dead.length, 0);
}

/** The generation a manifest's text commits and the files it names (none for a missing or unreadable one). */
export function pinnedFiles(text: string | undefined): { generation: number; updatedAt: string; files: Set<string> } {
  if (text === undefined) return { generation: -1, updatedAt: '', files: new Set() };
  try {
    const manifest = JSON.parse(text) as Manifest;
    return { generation: manifest.generation, updatedAt: manifest.updatedAt, files: referencedFiles(manifest) };
  } catch {
    return { generation: -1, updatedAt: '', files: new Set() };
  }
}

/** The files a manifest names. */
export function referencedFiles(manifest: Manifest): Set<string> {
  const names = new Set<string>();
  if (manifest.documents) names.add(manifest.documents.name);
  for (const r of manifest.passages ?? []) names.add(r.name);
  if (manifest.lexical) names.add(manifest.lexical.name);
  if (manifest.terms) names.add(manifest.terms.name);
  for (const v of manifest.vectors ?? []) {
    names.add(`${v.stem}.f32`);
    names.add(`${v.stem}.ids`);
  }
  if (manifest.ann) {
    names.add(`${manifest.ann.stem}.usearch`);
    names.add(`${manifest.ann.stem}.ids`);
  }
  return names;
}
