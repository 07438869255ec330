// Benchmark: vector search side by side, in one run, on real embeddings of real passages: the
// vectors bench:scale stored for its corpora (18F handbook ~2.3k, kubernetes/community ~11k, the
// generated ~50k corpus; the generated 384-d model of test/support/tinyModels.ts), and as
// queries the dev-set and scale questions embedded by the same model. For each size:
//   * exact Float32Array scan (the store without its graph),
//   * exact int8 scan of quantized copies, the top candidates reranked exactly,
//   * usearch HNSW over f32 and over i8 vectors,
//   * the store's path (usearch i8 graph, candidates reranked exactly from the f32 rows),
//   * hnswlib-node HNSW,
// with build time, query p50/p95 (top 30; wall and CPU), recall@6 and @30 against the exact
// scan, RSS growth while building, bytes on disk, and load (read) / view (memory-mapped) time.
// Usage: EVIDENT_SCALE_CACHE=DIR npm run bench:vectors [-- --rounds 2] [-- --corpora 18f-handbook,k8s-community,generated-4-]
// (run bench:scale first: it builds the indexes whose vectors this reads)

import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { HierarchicalNSW } from 'hnswlib-node';
import { Index, type MetricKind, type ScalarKind } from 'usearch';
import { AnnSnapshot, annLibrary } from '../src/core/retrieval/annIndex';
import { loadEmbedder } from '../src/core/retrieval/embedder';
import { setAnnMinVectors, VectorStore, type VectorSegmentRef } from '../src/core/retrieval/vectorStore';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../test/support/tinyModels';
import { scaleCacheRoot } from './scale/scaleCorpus';
import { SCALE_QUESTIONS } from './scale/scaleQuestions';

const TOP = 30;
const CORPORA = ['18f-handbook', 'k8s-community', 'generated-4-'];
const DEV = path.join(__dirname, '..', 'eval', 'dev');

interface Method {
  name: string;
  buildMs: number;
  rssMb: number;
  diskBytes?: number;
  loadMs?: number;
  viewMs?: number;
  query: (q: Float32Array) => string[];
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const rssMb = (): number => process.memoryUsage().rss / 1048576;

/** The live vectors of a bench:scale index, as one array. */
async function readVectors(
  indexDir: string,
): Promise<{ ids: string[]; data: Float32Array; dims: number; readMs: number }> {
  const t = performance.now();
  const manifest = JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8')) as {
    dimensions: number;
    vectors: VectorSegmentRef[];
  };
  const store = new VectorStore(manifest.dimensions);
  for (const ref of manifest.vectors) {
    const f32 = await readFile(path.join(indexDir, `${ref.stem}.f32`));
    const ids = (await readFile(path.join(indexDir, `${ref.stem}.ids`), 'utf8')).split('\n');
    store.addLoaded(
      ref,
      ref.rows === 0 ? [] : ids,
      new Float32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.byteLength)),
    );
  }
  return { ...store.liveRows(), dims: manifest.dimensions, readMs: performance.now() - t };
}

function quantize(data: Float32Array): Int8Array {
  const out = new Int8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = Math.max(-127, Math.min(127, Math.round(data[i] * 127)));
  return out;
}

function topByScore(n: number, score: (row: number) => number, k: number): number[] {
  const best: number[] = [];
  const bestScore: number[] = [];
  for (let row = 0; row < n; row++) {
    const s = score(row);
    if (best.length === k && s <= bestScore[k - 1]) continue;
    let j = best.length < k ? best.length : k - 1;
    while (j > 0 && bestScore[j - 1] < s) {
      if (j < k) {
        best[j] = best[j - 1];
        bestScore[j] = bestScore[j - 1];
      }
      j--;
    }
    best[j] = row;
    bestScore[j] = s;
  }
  return best;
}

function dotF32(data: Float32Array, row: number, q: Float32Array, dims: number): number {
  let s = 0;
  const o = row * dims;
  for (let d = 0; d < dims; d++) s += data[o + d] * q[d];
  return s;
}

async function methods(ids: string[], data: Float32Array, dims: number, tmp: string): Promise<Method[]> {
  const n = ids.length;
  const out: Method[] = [];
  const keys = BigUint64Array.from(ids, (_, i) => BigInt(i));
  const measure = (name: string, build: () => Omit<Method, 'name' | 'buildMs' | 'rssMb'>): void => {
    const rss = rssMb();
    const t = performance.now();
    const m = build();
    out.push({ name, buildMs: performance.now() - t, rssMb: rssMb() - rss, ...m });
  };

  measure('exact Float32Array scan (today)', () => {
    const store = new VectorStore(dims);
    store.add(ids.map((id, i) => ({ id, vector: data.subarray(i * dims, (i + 1) * dims) })));
    return { diskBytes: n * dims * 4, query: (q) => store.exactQuery(q, TOP).map((h) => h.id) };
  });

  measure('exact int8 scan + exact rerank of the top 60', () => {
    const q8 = quantize(data);
    return {
      diskBytes: n * dims,
      query: (q) => {
        const qi = quantize(q);
        const candidates = topByScore(
          n,
          (row) => {
            let s = 0;
            const o = row * dims;
            for (let d = 0; d < dims; d++) s += q8[o + d] * qi[d];
            return s;
          },
          TOP * 2,
        );
        return candidates
          .map((row) => ({ row, s: dotF32(data, row, q, dims) }))
          .sort((a, b) => b.s - a.s)
          .slice(0, TOP)
          .map((c) => ids[c.row]);
      },
    };
  });

  for (const quantization of ['f32', 'i8'] as const) {
    const config = {
      dimensions: dims,
      metric: 'ip' as MetricKind,
      quantization: quantization as ScalarKind,
      connectivity: 32,
      expansion_add: 128,
      expansion_search: 512,
      multi: false,
    };
    let index = new Index(config);
    measure(`usearch HNSW ${quantization} (connectivity 32, breadth 512)`, () => {
      index = new Index(config);
      index.add(keys, data);
      return { query: (q) => Array.from(index.search(q, TOP, 1).keys, (k) => ids[Number(k)]) };
    });
    const file = path.join(tmp, `usearch-${quantization}.usearch`);
    index.save(file);
    const m = out[out.length - 1];
    m.diskBytes = (await stat(file)).size;
    let t = performance.now();
    new Index(config).load(file);
    m.loadMs = performance.now() - t;
    t = performance.now();
    const viewed = new Index(config);
    viewed.view(file);
    m.viewMs = performance.now() - t;
  }

  const library = annLibrary();
  if (library) {
    // Built outside the timer (the build is async, in batches): timed here instead.
    const rss = rssMb();
    const t = performance.now();
    const snapshot = await AnnSnapshot.build(library, dims, ids, data);
    const buildMs = performance.now() - t;
    measure('Evident store: usearch i8 graph (32, 512) + exact rerank of 2×k', () => {
      const store = new VectorStore(dims);
      store.add(ids.map((id, i) => ({ id, vector: data.subarray(i * dims, (i + 1) * dims) })));
      store.markSaved();
      store.attachAnn(snapshot, { stem: 'bench', rows: n, replaced: [] });
      // The graph at every size (as shipped, below ANN_MIN_VECTORS the store scans exactly).
      return {
        query: (q) => {
          setAnnMinVectors(0);
          try {
            return store.query(q, TOP).map((h) => h.id);
          } finally {
            setAnnMinVectors(undefined);
          }
        },
      };
    });
    Object.assign(out[out.length - 1], { buildMs, rssMb: rssMb() - rss });
  }

  let h = new HierarchicalNSW('ip', dims);
  measure('hnswlib-node HNSW (M 32, ef 512)', () => {
    h = new HierarchicalNSW('ip', dims);
    h.initIndex({ maxElements: n, m: 32, efConstruction: 128 });
    for (let i = 0; i < n; i++) h.addPoint(Array.from(data.subarray(i * dims, (i + 1) * dims)), i);
    h.setEf(512);
    return { query: (q) => h.searchKnn(Array.from(q), TOP).neighbors.map((row) => ids[row]) };
  });
  const hnsw = path.join(tmp, 'hnswlib.bin');
  h.writeIndexSync(hnsw);
  const hm = out[out.length - 1];
  hm.diskBytes = (await stat(hnsw)).size;
  const t = performance.now();
  new HierarchicalNSW('ip', dims).readIndexSync(hnsw);
  hm.loadMs = performance.now() - t;
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rounds: { type: 'string', default: '2' }, corpora: { type: 'string', default: CORPORA.join(',') } },
  });
  const rounds = Number(values.rounds);
  const model = await makeTinyEmbeddingModel(defaultModelCacheDir(), 384);
  const embedder = await loadEmbedder({ modelId: model, allowRemote: false, dtype: 'fp32' });
  const questions = [
    ...SCALE_QUESTIONS,
    ...['18f-handbook.jsonl', 'site-policy.jsonl'].flatMap((f) =>
      readFileSync(path.join(DEV, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { question: string }).question),
    ),
  ];
  const queries = await embedder.embed(questions);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'evident-vector-bench-'));
  console.log(
    `Vector search, ${new Date().toISOString()}, ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, Node ${process.version}`,
  );
  console.log(
    `Vectors: bench:scale's stored passage vectors in ${scaleCacheRoot()} (generated 384-d model); ${queries.length} queries (dev-set and scale questions, same model); top ${TOP}, ${rounds} rounds, one thread\n`,
  );
  console.log(
    '| vectors | method | build | query p50 / p95 (wall) | CPU p50 | recall@6 / @30 vs exact | RSS growth | on disk | load / view |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  try {
    for (const corpus of (values.corpora ?? '').split(',')) {
      const dir = path.join(scaleCacheRoot(), 'indexes', corpus);
      if (!existsSync(path.join(dir, 'manifest.json'))) {
        console.log(
          `| ${corpus} | not built: run bench:scale with EVIDENT_SCALE_CACHE=${scaleCacheRoot()} first | | | | | | | |`,
        );
        continue;
      }
      const { ids, data, dims, readMs } = await readVectors(dir);
      const truth = new VectorStore(dims);
      truth.add(ids.map((id, i) => ({ id, vector: data.subarray(i * dims, (i + 1) * dims) })));
      const exact = queries.map((q) => truth.exactQuery(q, TOP).map((h) => h.id));
      for (const m of await methods(ids, data, dims, tmp)) {
        for (const q of queries.slice(0, 5)) m.query(q);
        const wall: number[] = [];
        const cpu: number[] = [];
        let r6 = 0;
        let r30 = 0;
        for (let r = 0; r < rounds; r++) {
          queries.forEach((q, i) => {
            const c = process.cpuUsage();
            const t = performance.now();
            const got = m.query(q);
            wall.push(performance.now() - t);
            const used = process.cpuUsage(c);
            cpu.push((used.user + used.system) / 1000);
            if (r === 0) {
              const want6 = new Set(exact[i].slice(0, 6));
              const want30 = new Set(exact[i]);
              r6 += got.slice(0, 6).filter((id) => want6.has(id)).length / Math.min(6, want6.size);
              r30 += got.slice(0, TOP).filter((id) => want30.has(id)).length / Math.min(TOP, want30.size);
            }
          });
        }
        const mb = (b?: number) => (b === undefined ? '—' : `${(b / 1048576).toFixed(1)} MB`);
        const ms = (x?: number) => (x === undefined ? '—' : `${x.toFixed(x < 10 ? 2 : 0)} ms`);
        const load = m.name.startsWith('exact Float32')
          ? `${ms(readMs)} (read the .f32 segments)`
          : `${ms(m.loadMs)} / ${ms(m.viewMs)}`;
        console.log(
          `| ${ids.length} × ${dims} | ${m.name} | ${ms(m.buildMs)} | ${ms(percentile(wall, 50))} / ${ms(percentile(wall, 95))} | ${ms(percentile(cpu, 50))} | ${(r6 / queries.length).toFixed(3)} / ${(r30 / queries.length).toFixed(3)} | ${m.rssMb.toFixed(0)} MB | ${mb(m.diskBytes)} | ${load} |`,
        );
      }
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  console.log(
    `\nload after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
