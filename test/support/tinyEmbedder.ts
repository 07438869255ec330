// The real transformers.js embedder on the tiny generated model (fp32), as the index and store
// tests load it.

import { loadEmbedder } from '../../src/core/retrieval/embedder';
import type { Embedder } from '../../src/core/types';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from './tinyModels';

export async function loadTinyEmbedder(): Promise<Embedder> {
  const modelDir = await makeTinyEmbeddingModel(defaultModelCacheDir());
  return loadEmbedder({ modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' });
}
