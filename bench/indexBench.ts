// Benchmark: time to index a corpus from scratch, time of an unchanged re-run, and the median
// query time (retrieval only, and a whole extractive turn with verification), lexical and hybrid.
// Hybrid runs on the tiny generated embedding model (no real weights can be downloaded here):
// its embedding cost is far below a real MiniLM's, so read the hybrid figures as the cost of
// everything but the model. Usage: npm run bench:index [-- --docs DIR] [-- --queries N]

import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { Engine, folderDocSource, createExtractiveModel } from '../src/core/engine';
import { loadEmbedder } from '../src/core/retrieval/embedder';
import { HybridRetriever } from '../src/core/retrieval/hybridRetriever';
import { PassageIndex } from '../src/core/store/local/passageIndex';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../test/support/tinyModels';
import { removeDir, tempDir } from '../test/support/workspace';

const QUESTIONS = [
  'How much annual leave do I accrue per pay period?',
  'What do I need to do before booking travel?',
  'How do I request a laptop?',
  'What is the policy on working remotely from another state?',
  'Who approves overtime?',
  'How do I report a security incident?',
  'What is the per diem for meals on travel?',
  'How many hours of sick leave can I carry over?',
  'How do I get access to Slack?',
  'What are the rules for accepting gifts?',
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const { values } = parseArgs({ options: { docs: { type: 'string' }, queries: { type: 'string' } } });
  const docs = path.resolve(values.docs ?? path.join(__dirname, '../../shared/data/corpora/18f-handbook'));
  const rounds = Number(values.queries ?? 3);
  const modelDir = await makeTinyEmbeddingModel(defaultModelCacheDir());
  const embedder = await loadEmbedder({ modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' });

  console.log(`Corpus: ${docs}`);
  console.log(`Machine: ${process.platform} ${process.arch}, Node ${process.version}, 2 cores expected\n`);
  console.log(
    '| retrieval | index from scratch | re-run, unchanged | documents | passages | median retrieval query | median extractive turn (retrieve + answer + verify) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const mode of ['lexical', 'hybrid (tiny model)'] as const) {
    const indexDir = await tempDir('evident-bench-');
    const useEmbedder = mode === 'lexical' ? undefined : embedder;
    const index = await PassageIndex.open(indexDir, docs);
    let t = performance.now();
    const report = await index.update(folderDocSource(docs), { embedder: useEmbedder });
    const fromScratch = performance.now() - t;
    t = performance.now();
    await index.update(folderDocSource(docs), { embedder: useEmbedder });
    const rerun = performance.now() - t;

    const retriever = new HybridRetriever(index, useEmbedder);
    const queryTimes: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of QUESTIONS) {
        const s = performance.now();
        await retriever.search(q, 6);
        queryTimes.push(performance.now() - s);
      }
    }
    const engine = await Engine.open({
      docs: folderDocSource(docs),
      indexDir,
      embedding: useEmbedder ? { modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' } : false,
    });
    await engine.index();
    const model = createExtractiveModel({ termStats: () => engine.termStats() });
    const turnTimes: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of QUESTIONS) {
        const s = performance.now();
        await engine.ask(q, { model });
        turnTimes.push(performance.now() - s);
      }
    }
    console.log(
      `| ${mode} | ${(fromScratch / 1000).toFixed(2)} s | ${(rerun / 1000).toFixed(2)} s | ${report.documents} | ${report.passages} | ${median(queryTimes).toFixed(1)} ms | ${median(turnTimes).toFixed(1)} ms |`,
    );
    await removeDir(indexDir);
  }
  console.log(`\n(${QUESTIONS.length * rounds} queries per mode; skipped files are listed by \`evident index\`.)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
