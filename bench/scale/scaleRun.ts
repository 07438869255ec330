// One corpus of the scale benchmark, in its own process (so its peak RSS is its own):
//   build  — first hybrid index, peak RSS, query p50/p95 (hybrid and lexical), unchanged re-index,
//            one file edited, and the references (plain MiniSearch, brute-force typed-array scan)
//   open   — a cold process: open the index and answer one retrieval query
// Prints one JSON line. Usage: tsx bench/scale/scaleRun.ts build|open --docs D --index-dir I --model M

import { appendFile, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { folderDocSource } from '../../src/core/docs/docSource';
import { loadEmbedder } from '../../src/core/retrieval/embedder';
import { HybridRetriever } from '../../src/core/retrieval/hybridRetriever';
import { PassageIndex } from '../../src/core/store/local/passageIndex';
import { setAnnMinVectors } from '../../src/core/retrieval/vectorStore';
import { SCALE_QUESTIONS } from './scaleQuestions';

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const rssMb = (): number => process.memoryUsage().rss / 1048576;
const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;

async function timeQueries(run: (q: string) => unknown, rounds: number): Promise<{ p50: number; p95: number }> {
  for (const q of SCALE_QUESTIONS.slice(0, 3)) await run(q); // warm-up
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of SCALE_QUESTIONS) {
      const t = performance.now();
      await run(q);
      times.push(performance.now() - t);
    }
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      docs: { type: 'string' },
      'index-dir': { type: 'string' },
      model: { type: 'string' },
      dtype: { type: 'string' },
      rounds: { type: 'string' },
      'edit-file': { type: 'string' },
    },
  });
  const docs = path.resolve(values.docs ?? '');
  const indexDir = path.resolve(values['index-dir'] ?? '');
  const rounds = Number(values.rounds ?? 3);
  const source = folderDocSource(docs);

  const rssStart = rssMb();
  // The model path as its id, as the CLI gives it: the CLI then reuses this index's vectors.
  const embedder = await loadEmbedder({
    modelId: path.resolve(values.model ?? ''),
    allowRemote: false,
    dtype: values.dtype === 'q8' ? 'q8' : 'fp32',
  });
  await embedder.embed(['warm up the model']);
  const rssModel = rssMb();

  if (positionals[0] === 'open') {
    let t = performance.now();
    const index = await PassageIndex.open(indexDir, docs);
    const openMs = performance.now() - t;
    t = performance.now();
    const hits = await new HybridRetriever(index, embedder).search(SCALE_QUESTIONS[0], 6);
    const firstQueryMs = performance.now() - t;
    console.log(
      JSON.stringify({ openMs, firstQueryMs, hits: hits.length, passages: index.passageCount, peakRssMb: peakRssMb() }),
    );
    return;
  }

  // Build from scratch.
  let t = performance.now();
  const index = await PassageIndex.open(indexDir, docs);
  const built = await index.update(source, { embedder });
  const buildMs = performance.now() - t;
  const buildPeakRssMb = peakRssMb();

  const hybrid = new HybridRetriever(index, embedder);
  const lexical = new HybridRetriever(index, undefined);
  const hybridQ = await timeQueries((q) => hybrid.search(q, 6), rounds);
  // The same index, its vectors scanned exactly (the search before the ANN graph), same run.
  setAnnMinVectors(Infinity);
  const hybridExactQ = await timeQueries((q) => hybrid.search(q, 6), rounds);
  const exactTop6 = await Promise.all(
    SCALE_QUESTIONS.map(async (q) => (await hybrid.search(q, 6)).map((h) => h.passage.id)),
  );
  setAnnMinVectors(undefined);
  // How many of the six passages an answer is built from are the same with the graph as without.
  let same = 0;
  for (const [i, q] of SCALE_QUESTIONS.entries()) {
    same += (await hybrid.search(q, 6)).filter((h) => exactTop6[i].includes(h.passage.id)).length / 6;
  }
  const hybridTop6Agreement = same / SCALE_QUESTIONS.length;
  const lexicalQ = await timeQueries((q) => lexical.search(q, 6), rounds);
  const embedQ = await timeQueries((q) => embedder.embed([q]), rounds);

  // Re-index: nothing changed, then one file edited (a line appended, then the file restored).
  t = performance.now();
  await index.update(source, { embedder });
  const unchangedMs = performance.now() - t;
  const editFile = path.join(docs, values['edit-file'] ?? (await source.list())[0].path);
  const original = await readFile(editFile);
  await appendFile(editFile, '\nA sentence added by the scale benchmark about quarterly travel approvals.\n');
  t = performance.now();
  const edited = await index.update(source, { embedder });
  const editMs = performance.now() - t;
  await writeFile(editFile, original);
  await index.update(source, { embedder });

  // References on the same passages: plain MiniSearch (default options) and a brute-force scan
  // of a contiguous Float32Array holding one vector per passage.
  const passages = index.allPassages();
  t = performance.now();
  const mini = new MiniSearch<{ id: string; text: string; heading: string }>({ fields: ['text', 'heading'] });
  mini.addAll(passages.map((p) => ({ id: p.id, text: p.text, heading: p.heading })));
  const miniBuildMs = performance.now() - t;
  const miniQ = await timeQueries((q) => mini.search(q).slice(0, 30), rounds);
  const dims = embedder.dimensions;
  const matrix = new Float32Array(passages.length * dims);
  const texts = passages.slice(0, 256).map((p) => p.text);
  const sample = await embedder.embed(texts);
  for (let i = 0; i < passages.length; i++) matrix.set(sample[i % sample.length], i * dims);
  const bruteQ = await timeQueries(async (q) => {
    const [v] = await embedder.embed([q]);
    return bruteForceTop(matrix, dims, v, 30);
  }, rounds);

  console.log(
    JSON.stringify({
      documents: built.documents,
      passages: built.passages,
      buildMs,
      rssStartMb: rssStart,
      rssModelMb: rssModel,
      buildPeakRssMb,
      hybrid: hybridQ,
      hybridExact: hybridExactQ,
      hybridTop6Agreement,
      lexical: lexicalQ,
      queryEmbedding: embedQ,
      unchangedMs,
      editMs,
      editEmbedded: edited.embedded,
      miniSearch: { buildMs: miniBuildMs, ...miniQ },
      bruteForce: bruteQ,
    }),
  );
}

function bruteForceTop(matrix: Float32Array, dims: number, q: Float32Array, k: number): number[] {
  const n = matrix.length / dims;
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * dims;
    for (let d = 0; d < dims; d++) s += matrix[o + d] * q[d];
    scores[i] = s;
  }
  // Top k by insertion into a short sorted list (k is small).
  const best: number[] = [];
  for (let i = 0; i < n; i++) {
    if (best.length === k && scores[i] <= scores[best[k - 1]]) continue;
    let j = best.length < k ? best.length : k - 1;
    while (j > 0 && scores[best[j - 1]] < scores[i]) {
      if (j < k) best[j] = best[j - 1];
      j--;
    }
    best[j] = i;
  }
  return best;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
