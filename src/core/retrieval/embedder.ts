// Dense embeddings with transformers.js (@huggingface/transformers 4.x): loads a sentence
// embedding model from a local folder or (once, when allowed and reachable) from the hub into a
// cache folder, and never hangs on a closed network: a short probe decides first.
// Throughput (bench:embed): each text is tokenised once and embedded in a batch of texts with
// similar token counts (a batch is padded to its longest text; a long text goes alone),
// truncated to the length the model was trained on, with one ONNX thread per core, on the
// native runtime or, where it has none, on WebAssembly (onnxRuntime.ts).

import * as os from 'node:os';
import * as path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Embedder } from '../types';
import { hubEndpoint, loadModelWith } from '../modelLoading';
import { batchEnd, meanPool, padBatch, rowLength, type TokenRow } from './embeddingBatches';
import {
  type EmbeddingBackend,
  type OnnxRuntimeChoice,
  OnnxRuntimeUnavailable,
  importTransformers,
  sessionOptions,
} from '../onnxRuntime';

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
  /** Which ONNX runtime: native where it loads, else WebAssembly (`auto`, the default), or forced. */
  backend?: EmbeddingBackend;
  /** Throughput knobs; the defaults are the measured best (benchmarks compare others). */
  tuning?: Partial<EmbeddingTuning>;
}

export interface EmbeddingTuning {
  /** Texts per model call, at most. */
  batchSize: number;
  /** Padded tokens per model call, at most (texts × the longest of them); a longer text goes alone. */
  batchTokens: number;
  /** Batch texts of similar length together (the output keeps the input order). */
  sortByLength: boolean;
  /** Tokens per text at most (null: what the model was trained on, see `trainedLength`). */
  maxTokens: number | null;
  /** ONNX intra-op threads (null: one per available core; 0: left to onnxruntime); native runtime only. */
  threads: number | null;
  /** Let idle ONNX threads spin-wait for work (onnxruntime's default); native runtime only. */
  spinning: boolean;
}

/**
 * Measured with `npm run bench:embed` (MiniLM-shaped q8 model, 18F handbook passages, 2 cores
 * shared, load 16–22; docs/measurements.md): sorted batches of 8 beat 4, 16 and 32 (64 is twice
 * as slow: padding and cache); two threads that do not spin-wait took 48–59 ms per passage where
 * two spinning threads (onnxruntime's default) took 99–148 ms and one thread 56–192 ms.
 * The configuration was { batchSize: 16, sortByLength: false, maxTokens: 512, threads: 0, spinning: true }
 * (and no limit on padded tokens per call).
 */
export const DEFAULT_EMBEDDING_TUNING: EmbeddingTuning = {
  batchSize: 8,
  // The real model, k8s-community's longest passages (256 tokens), interleaved rounds at load
  // 8–11 (docs/measurements.md, 2026-12-01 18:07): one text per call took less time than 2, 4
  // or 8 in every round (wall and CPU); wide batches outgrow the caches (attention is width²).
  batchTokens: 256,
  sortByLength: true,
  maxTokens: null,
  threads: null,
  spinning: false,
};

/** No BERT-style model has position embeddings beyond this. */
const POSITION_LIMIT = 512;

/** Why no embedding model could be loaded: said once, then retrieval is lexical only. */
export class EmbedderUnavailable extends Error {}

interface TensorLike {
  dims: number[];
  data: Float32Array | BigInt64Array;
}

interface Extractor {
  tokenizer: {
    (
      texts: string[],
      options: { padding: boolean; truncation: boolean; max_length?: number },
    ): Record<string, TensorLike>;
    model_max_length?: number;
    sep_token_id?: number;
    pad_token_id?: number;
  };
  model: (inputs: Record<string, TensorLike>) => Promise<{ last_hidden_state: TensorLike }>;
}

export async function loadEmbedder(
  settings: EmbeddingSettings,
): Promise<Embedder & { runtime: OnnxRuntimeChoice; maxTokens: number }> {
  let loaded: Awaited<ReturnType<typeof importTransformers>>;
  try {
    loaded = await importTransformers(settings.backend ?? 'auto');
  } catch (error) {
    if (error instanceof OnnxRuntimeUnavailable) throw new EmbedderUnavailable(error.message);
    throw error;
  }
  const {
    transformers: { pipeline, Tensor },
    runtime,
  } = loaded;
  const tuning: EmbeddingTuning = { ...DEFAULT_EMBEDDING_TUNING, ...settings.tuning };
  const hub = settings.hubEndpoint ?? hubEndpoint();
  // Per-call options (absolute folder, cache_dir, local_files_only) rather than global paths.
  const load = (model: string, remote: boolean): Promise<Extractor> =>
    loadModelWith(
      { allowLocalModels: true, allowRemoteModels: remote, remoteHost: hub },
      async () =>
        (await pipeline('feature-extraction', model, {
          dtype: settings.dtype ?? 'q8',
          local_files_only: !remote,
          ...sessionOptions(runtime, tuning.threads ?? Math.max(1, os.availableParallelism()), tuning.spinning),
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
  let folder: string | undefined;
  const local = settings.localModelPath ?? (isPathLike(settings.modelId) ? settings.modelId : undefined);
  if (local) {
    folder = path.resolve(local);
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
      folder = cached;
      try {
        extractor = await load(cached, false);
      } catch (error) {
        throw new EmbedderUnavailable(
          `embedding model ${settings.modelId} in ${cached} could not be loaded: ${(error as Error).message}`,
        );
      }
    } else {
      if (!settings.allowRemote) {
        throw new EmbedderUnavailable(`embedding model ${settings.modelId} is not downloaded and downloads are off`);
      }
      await probeHub(hub, settings.modelId, settings.probeTimeoutMs ?? 4000);
      try {
        extractor = await load(settings.modelId, true);
      } catch (error) {
        throw new EmbedderUnavailable(
          `embedding model ${settings.modelId} could not be downloaded: ${(error as Error).message}`,
        );
      }
      if (cached) {
        folder = cached;
        await fetchSentenceConfig(hub, settings.modelId, cached);
      }
    }
  }

  const maxTokens = tuning.maxTokens ?? trainedLength(folder, extractor.tokenizer.model_max_length);
  const sepId = extractor.tokenizer.sep_token_id;
  const padId = extractor.tokenizer.pad_token_id ?? 0;

  /** One text's tokens, truncated to maxTokens and ending with [SEP] like the training data. */
  const tokenise = (text: string): TokenRow => {
    const row = extractor.tokenizer([text], {
      padding: false,
      truncation: true,
      max_length: maxTokens,
    }) as unknown as TokenRow;
    // transformers.js cuts a long text after its first `maxTokens` tokens, dropping the closing
    // [SEP]; the sentence-transformers tokenizer keeps it (the model never saw a text without it).
    if (sepId !== undefined && rowLength(row) === maxTokens) row.input_ids.data[maxTokens - 1] = BigInt(sepId);
    return row;
  };

  /** One model call over tokenised texts (padded to the longest), mean pooling, unit length. */
  const embedRows = async (rows: TokenRow[]): Promise<Float32Array[]> => {
    const { width, inputs } = padBatch(rows, padId);
    const tensors = Object.fromEntries(
      Object.entries(inputs).map(([name, t]) => [name, new Tensor('int64', t.data, t.dims)]),
    );
    const { last_hidden_state } = await extractor.model(tensors as unknown as Record<string, TensorLike>);
    const dims = last_hidden_state.dims[2];
    const pooled = meanPool(
      last_hidden_state.data as Float32Array,
      inputs.attention_mask.data,
      rows.length,
      width,
      dims,
    );
    const data = (
      new Tensor('float32', pooled, [rows.length, dims]) as unknown as { normalize(p: number, dim: number): TensorLike }
    ).normalize(2, -1).data as Float32Array;
    return rows.map((_, j) => data.slice(j * dims, (j + 1) * dims));
  };

  const dimensions = (await embedRows([tokenise('probe')]))[0].length;

  return {
    modelId: embeddingModelId(settings),
    dimensions,
    runtime,
    maxTokens,
    async embed(texts, signal) {
      // Each text tokenised once; similar token counts together: a batch costs as much as its
      // longest text times its size (the output keeps the input order).
      const rows = texts.map(tokenise);
      const order = texts.map((_, i) => i);
      if (tuning.sortByLength) order.sort((a, b) => rowLength(rows[a]) - rowLength(rows[b]));
      const lengths = order.map((k) => rowLength(rows[k]));
      const vectors = new Array<Float32Array>(texts.length);
      for (let i = 0; i < order.length;) {
        signal?.throwIfAborted();
        const end = batchEnd(lengths, i, tuning.batchSize, tuning.batchTokens);
        const slots = order.slice(i, end);
        const out = await embedRows(slots.map((k) => rows[k]));
        slots.forEach((k, j) => (vectors[k] = out[j]));
        i = end;
      }
      return vectors;
    },
  };
}

/** The id an embedder loaded with these settings reports (and an index records), known without loading it. */
export function embeddingModelId(settings: Pick<EmbeddingSettings, 'modelId' | 'localModelPath'>): string {
  return settings.localModelPath ? `local:${path.resolve(settings.localModelPath)}` : settings.modelId;
}

/**
 * Tokens per text: what the model was trained on. Sentence-transformers models say it in
 * sentence_bert_config.json (all-MiniLM-L6-v2: 256, though its tokenizer allows 512): beyond it
 * the model saw no text in training, so the extra tokens cost time (attention grows with the
 * square of the length) and move the vector in ways nobody measured. Without that file, the
 * tokenizer's model_max_length; never more than BERT's 512 positions.
 */
export function trainedLength(folder: string | undefined, tokenizerMax: number | undefined): number {
  const cap = (n: number | undefined) =>
    n !== undefined && Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), POSITION_LIMIT) : undefined;
  if (folder) {
    try {
      const config = JSON.parse(readFileSync(path.join(folder, 'sentence_bert_config.json'), 'utf8')) as {
        max_seq_length?: unknown;
      };
      const trained = cap(typeof config.max_seq_length === 'number' ? config.max_seq_length : undefined);
      if (trained) return trained;
    } catch {
      // No file or not JSON: the tokenizer's limit below.
    }
  }
  return cap(tokenizerMax) ?? POSITION_LIMIT;
}

/** sentence_bert_config.json is not a file transformers.js downloads: fetched beside the model, if the hub has it. */
async function fetchSentenceConfig(host: string, modelId: string, folder: string): Promise<void> {
  try {
    const response = await fetch(`${host}/${modelId}/resolve/main/sentence_bert_config.json`, {
      signal: AbortSignal.timeout(4000),
    });
    if (!response.ok) return;
    const text = await response.text();
    JSON.parse(text);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'sentence_bert_config.json'), text);
  } catch {
    // Optional: without it the tokenizer's limit applies.
  }
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
    throw new EmbedderUnavailable(
      `embedding model ${modelId} could not be downloaded (${(error as Error).message || 'network unreachable'})`,
    );
  }
}
