// Dense embeddings with transformers.js (@huggingface/transformers 4.x): loads a sentence
// embedding model from a local folder or (once, when allowed and reachable) from the hub into a
// cache folder, and never hangs on a closed network: a short probe decides first.

import * as path from 'node:path';
import { existsSync } from 'node:fs';
import type { Embedder } from '../types';
import { hubEndpoint, loadModelWith } from '../modelLoading';

export const DEFAULT_EMBEDDING_MODEL = 'Xenova/all-MiniLM-L6-v2';

export interface EmbeddingSettings {
  /** Hub model id (e.g. Xenova/all-MiniLM-L6-v2) or a path to a local model folder. */
  modelId: string;
  /** A folder holding the model (air-gapped use); wins over `modelId` when set. */
  localModelPath?: string;
  /** Where downloaded models are kept (global storage in the extension, a cache dir in the CLI). */
  cacheDir?: string;
  /** May the model be downloaded? Off means local/cached only. */
  allowRemote: boolean;
  /** `fp32` loads onnx/model.onnx, `q8` onnx/model_quantized.onnx (default: smaller download). */
  dtype?: 'fp32' | 'q8';
  onDownloadProgress?: (p: { file: string; loaded: number; total: number }) => void;
  /** How long to wait for the hub to answer before giving up (ms). */
  probeTimeoutMs?: number;
  /** The model hub or a mirror (default: HF_ENDPOINT, else huggingface.co). */
  hubEndpoint?: string;
}

/** Why no embedding model could be loaded: said once, then retrieval is lexical only. */
export class EmbedderUnavailable extends Error {}

type Extractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>;

const BATCH = 16;

export async function loadEmbedder(settings: EmbeddingSettings): Promise<Embedder> {
  const { pipeline } = await import('@huggingface/transformers');
  const hub = settings.hubEndpoint ?? hubEndpoint();
  // Per-call options (absolute folder, cache_dir, local_files_only) rather than global paths.
  const load = (model: string, remote: boolean): Promise<Extractor> =>
    loadModelWith({ allowLocalModels: true, allowRemoteModels: remote, remoteHost: hub }, async () =>
      (await pipeline('feature-extraction', model, {
        dtype: settings.dtype ?? 'q8',
        local_files_only: !remote,
        ...(settings.cacheDir ? { cache_dir: settings.cacheDir } : {}),
        progress_callback: (p: unknown) => {
          const info = p as { status?: string; file?: string; loaded?: number; total?: number };
          if (info.status === 'progress' && info.file && settings.onDownloadProgress) {
            settings.onDownloadProgress({ file: info.file, loaded: info.loaded ?? 0, total: info.total ?? 0 });
          }
        },
      })) as unknown as Extractor,
    );

  let extractor: Extractor;
  const local = settings.localModelPath ?? (isPathLike(settings.modelId) ? settings.modelId : undefined);
  if (local) {
    const folder = path.resolve(local);
    if (!existsSync(path.join(folder, 'config.json'))) {
      throw new EmbedderUnavailable(`no embedding model at ${folder} (config.json not found)`);
    }
    try {
      extractor = await load(folder, false);
    } catch (error) {
      throw new EmbedderUnavailable(`embedding model at ${folder} could not be loaded: ${(error as Error).message}`);
    }
  } else {
    // A model downloaded earlier is read from its cache folder as a local model. Asking
    // transformers.js for a cache-only load first is not safe: it memoises "file not found"
    // answers, and a later download of the same model would then miss its tokenizer.
    const cached = settings.cacheDir ? path.join(settings.cacheDir, settings.modelId) : undefined;
    const onnxFile = (settings.dtype ?? 'q8') === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
    if (cached && ['config.json', 'tokenizer.json', onnxFile].every((f) => existsSync(path.join(cached, f)))) {
      try {
        extractor = await load(cached, false);
      } catch (error) {
        throw new EmbedderUnavailable(`embedding model ${settings.modelId} in ${cached} could not be loaded: ${(error as Error).message}`);
      }
    } else {
      if (!settings.allowRemote) {
        throw new EmbedderUnavailable(`embedding model ${settings.modelId} is not downloaded and downloads are off`);
      }
      await probeHub(hub, settings.modelId, settings.probeTimeoutMs ?? 4000);
      try {
        extractor = await load(settings.modelId, true);
      } catch (error) {
        throw new EmbedderUnavailable(`embedding model ${settings.modelId} could not be downloaded: ${(error as Error).message}`);
      }
    }
  }

  const probe = await extractor(['probe'], { pooling: 'mean', normalize: true });
  const dimensions = probe.dims[probe.dims.length - 1];

  return {
    modelId: embeddingModelId(settings),
    dimensions,
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        signal?.throwIfAborted();
        const batch = texts.slice(i, i + BATCH);
        const out = await extractor(batch, { pooling: 'mean', normalize: true });
        for (let j = 0; j < batch.length; j++) vectors.push(out.data.slice(j * dimensions, (j + 1) * dimensions));
      }
      return vectors;
    },
  };
}

/** The id an embedder loaded with these settings reports (and an index records), known without loading it. */
export function embeddingModelId(settings: Pick<EmbeddingSettings, 'modelId' | 'localModelPath'>): string {
  return settings.localModelPath ? `local:${path.resolve(settings.localModelPath)}` : settings.modelId;
}

function isPathLike(id: string): boolean {
  return id.startsWith('.') || id.startsWith('/') || /^[A-Za-z]:[\\/]/.test(id) || id.startsWith('~');
}

/** A quick look at the hub, so a closed or slow network means "lexical only", not a hang. */
async function probeHub(host: string, modelId: string, timeoutMs: number): Promise<void> {
  try {
    const response = await fetch(`${host}/${modelId}/resolve/main/config.json`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    if (response.status >= 400) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new EmbedderUnavailable(`embedding model ${modelId} could not be downloaded (${(error as Error).message || 'network unreachable'})`);
  }
}
