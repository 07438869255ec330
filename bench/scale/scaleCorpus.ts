// The corpora of the scale benchmark, materialised in a cache folder outside the repository
// (never in it): each shared corpus copied as it is (so the benchmark may edit a file), and a
// ~50k-passage corpus generated reproducibly from them: copy 0 is the source itself, copies
// 1..n-1 replace a seeded share of each file's words with other words of the same file, so every
// copy is new text with a realistic vocabulary. Same seed, same bytes.

import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

/** Bump when the generated text changes, so stale caches are not reused. */
const GENERATOR_VERSION = 1;
const WORD = /[A-Za-z]{4,}/g;

export function scaleCacheRoot(): string {
  return process.env.EVIDENT_SCALE_CACHE ?? path.join(os.tmpdir(), 'evident-scale-cache');
}

/** A plain copy of `source` (done once). */
export async function copiedCorpus(source: string, name: string): Promise<string> {
  const out = path.join(scaleCacheRoot(), `${name}-copy-v${GENERATOR_VERSION}`);
  return once(out, async (tmp) => {
    await cp(source, tmp, { recursive: true });
  });
}

/** `copies` copies of every source, perturbed with `rate` of their words replaced (done once). */
export async function generatedCorpus(sources: string[], copies: number, seed = 0x5ca1e, rate = 0.15): Promise<string> {
  const out = path.join(scaleCacheRoot(), `generated-${copies}x-${seed.toString(16)}-v${GENERATOR_VERSION}`);
  return once(out, async (tmp) => {
    for (const source of sources) {
      const files = await markdownFiles(source);
      for (let copy = 0; copy < copies; copy++) {
        for (const rel of files) {
          const text = await readFile(path.join(source, rel), 'utf8');
          const target = path.join(tmp, `copy-${copy}`, path.basename(source), rel);
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, copy === 0 ? text : perturb(text, rng(hash(`${seed}:${copy}:${rel}`)), rate));
        }
      }
    }
  });
}

function perturb(text: string, random: () => number, rate: number): string {
  const words = text.match(WORD) ?? [];
  if (!words.length) return text;
  return text.replace(WORD, (word) => (random() < rate ? words[Math.floor(random() * words.length)] : word));
}

async function markdownFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) await walk(abs);
      else if (/\.(md|markdown|mdx)$/i.test(e.name)) out.push(path.relative(root, abs));
    }
  };
  await walk(root);
  return out;
}

async function once(out: string, build: (tmp: string) => Promise<void>): Promise<string> {
  if (existsSync(path.join(out, '.complete'))) return out;
  const tmp = `${out}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await build(tmp);
  await writeFile(path.join(tmp, '.complete'), '');
  await rm(out, { recursive: true, force: true });
  await rename(tmp, out);
  return out;
}

function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function rng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
