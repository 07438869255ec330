// Exact vector search time of the vector store at a given size (random unit vectors, seeded):
// the dense part of a hybrid query, without the model. Usage: tsx bench/scale/vectorScan.ts [N] [DIMS]
import { VectorStore } from '../../src/core/retrieval/vectorStore';

const n = Number(process.argv[2] ?? 50_000);
const dims = Number(process.argv[3] ?? 384);
let state = 12345;
const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296 - 0.5;
const unit = () => {
  const v = Float32Array.from({ length: dims }, random);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const store = new VectorStore(dims);
for (let i = 0; i < n; i += 5000) {
  store.add(Array.from({ length: Math.min(5000, n - i) }, (_, j) => ({ id: `p${i + j}`, vector: unit() })));
}
// Wall time, and CPU time (which a loaded, shared machine inflates far less).
const times: number[] = [];
const cpu: number[] = [];
for (let q = 0; q < 60; q++) {
  const v = unit();
  const t = performance.now();
  const c = process.cpuUsage();
  store.query(v, 30);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
console.log(
  `${n} vectors × ${dims}: exact top-30 wall p50 ${times[30].toFixed(1)} ms, p95 ${times[57].toFixed(1)} ms; CPU p50 ${cpu[30].toFixed(1)} ms, p95 ${cpu[57].toFixed(1)} ms (60 queries)`,
);
