import { loadEmbedder } from './src/core/retrieval/embedder';
import { chunkMarkdown } from './src/core/docs/chunker';
import { embeddingText } from './src/core/retrieval/passageIndex';
import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
const C = '/work/shared/data/corpora/18f-handbook';
const files: string[] = [];
const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) { const f = path.join(d, e.name); if (e.isDirectory()) walk(f); else if (/\.md$/.test(e.name)) files.push(f); } };
walk(C);
const all = files.flatMap((f) => chunkMarkdown(path.relative(C, f), readFileSync(f, 'utf8')).passages.map(embeddingText));
const texts = Array.from({ length: 160 }, (_, i) => all[Math.floor(i * all.length / 160)]);
(async () => {
  const dir = '.test-cache/models/evident-minilm-shaped-v1';
  const cfgs = [ { threads: 1, spinning: true }, { threads: 2, spinning: true }, { threads: 2, spinning: false }, { threads: 0, spinning: true } ];
  const es = [];
  for (const c of cfgs) es.push(await loadEmbedder({ modelId: 'm', localModelPath: dir, allowRemote: false, tuning: { ...c, batchSize: 8 } }));
  const res: number[][] = cfgs.map(() => []);
  for (let r = 0; r < 3; r++) for (let i = 0; i < es.length; i++) { const t = performance.now(); await es[i].embed(texts); res[i].push((performance.now() - t) / texts.length); }
  cfgs.forEach((c, i) => console.log(JSON.stringify(c), res[i].map((x) => x.toFixed(1)).join(' '), 'load', os.loadavg()[0].toFixed(1)));
})();
