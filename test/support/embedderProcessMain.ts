// Child process of embedderProcess.ts: loads the embedder as asked, embeds, prints one JSON line.

import { EmbedderUnavailable, loadEmbedder } from '../../src/core/retrieval/embedder';
import { createEntailmentScorer } from '../../src/core/verifier/entailmentScorer';
import type { EmbedderProcessRequest, EmbedderProcessResult } from './embedderProcess';

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as EmbedderProcessRequest;
  let result: EmbedderProcessResult;
  try {
    const embedder = await loadEmbedder({
      modelId: 'test',
      localModelPath: request.modelDir,
      allowRemote: false,
      dtype: request.dtype,
      backend: request.backend,
    });
    const vectors = await embedder.embed(request.texts);
    const entailment = request.entailment
      ? await createEntailmentScorer({ model: '', localModelPath: request.entailment.modelDir }).score(
          request.entailment.sentence,
          request.entailment.passage,
        )
      : undefined;
    result = {
      runtime: embedder.runtime.kind,
      ...(embedder.runtime.fallbackReason ? { fallbackReason: embedder.runtime.fallbackReason } : {}),
      maxTokens: embedder.maxTokens,
      vectors: vectors.map((v) => Array.from(v)),
      ...(entailment ? { entailmentScore: entailment.score } : {}),
    };
  } catch (error) {
    result = { error: (error as Error).message, unavailable: error instanceof EmbedderUnavailable };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
