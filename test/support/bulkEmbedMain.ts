// Child process (tests): embeds texts in bulk with the embedding workers, prints one line, and
// then does nothing: the process must end by itself (idle workers keep no process alive).

import { loadEmbedder } from '../../src/core/retrieval/embedder';

async function main(): Promise<void> {
  const [modelDir, script] = process.argv.slice(2);
  const embedder = await loadEmbedder({
    modelId: 'test',
    localModelPath: modelDir,
    allowRemote: false,
    workerScript: script,
    tuning: { workers: 2 },
  });
  const texts = Array.from(
    { length: 24 },
    (_, i) => `Passage ${i}: ${'travel is approved by a supervisor. '.repeat(i % 5)}`,
  );
  const vectors = await embedder.embed(texts);
  console.log(`embedded ${vectors.length}`);
}

void main();
