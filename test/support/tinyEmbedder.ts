// The tiny generated embedding model (tinyModels.ts: random weights, for timing and for code paths
// no real model reaches, never for quality) as every test and test process gets it: its folder,
// the settings that load it (offline, fp32, named "tiny"), and the real transformers.js embedder.

import { loadEmbedder, type EmbeddingSettings } from '../../src/core/retrieval/embedder';
import type { Embedder } from '../../src/core/types';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from './tinyModels';

/** The model's folder under `.test-cache/models`, written once; widths other than 64 have their own. */
export function tinyEmbeddingModelDir(dimensions?: number): Promise<string> {
  return makeTinyEmbeddingModel(defaultModelCacheDir(), dimensions);
}

/** The settings that load the model in `modelDir` as the tests do (the index worker takes these too). */
export function tinyEmbeddingSettings(modelDir: string): EmbeddingSettings {
  return { modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' };
}

/** The embedder over the model in `modelDir` (by default the 64-dimension one). */
export async function loadTinyEmbedder(modelDir?: string): Promise<Embedder> {
  return loadEmbedder(tinyEmbeddingSettings(modelDir ?? (await tinyEmbeddingModelDir())));
}
