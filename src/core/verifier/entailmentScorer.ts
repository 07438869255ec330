// The entailment tier: a local cross-encoder NLI classifier run with transformers.js reads
// (passage, sentence) as (premise, hypothesis) and the support score is the probability of
// its entailment label. Loaded lazily on the first escalated sentence; a model that cannot be
// loaded fails fast, once, with a message that says what to do.

import { loadModelWith } from '../modelLoading';
import { importTransformers, sessionOptions } from '../onnxRuntime';
import { availableParallelism } from 'node:os';
import type { SupportResult, SupportScorer } from '../types';

/** A small public MNLI cross-encoder with ONNX weights (downloaded once on a user's machine). */
export const DEFAULT_ENTAILMENT_MODEL = 'Xenova/nli-deberta-v3-xsmall';

export interface EntailmentScorerOptions {
  /** Hub model id (default DEFAULT_ENTAILMENT_MODEL); ignored when `localModelPath` is set. */
  model: string;
  /** A folder holding the model (config.json, tokenizer files, onnx/model.onnx): for air-gapped use. */
  localModelPath?: string;
  /** Where downloaded models are kept (the extension's global storage). */
  cacheDir?: string;
  /** False: never download; a model missing from the cache fails at once. */
  allowRemote?: boolean;
}

// The parts of a transformers.js text-classification pipeline used here: a cross-encoder
// needs the (premise, hypothesis) pair encoding that the pipeline's own call does not offer.
interface PairClassifier {
  tokenizer: (
    text: string,
    options: { text_pair: string; padding: boolean; truncation: boolean },
  ) => Record<string, unknown>;
  model: ((inputs: Record<string, unknown>) => Promise<{ logits: { data: ArrayLike<number> } }>) & {
    config: { id2label?: Record<string, string> };
  };
}

interface LoadedModel {
  classifier: PairClassifier;
  entailmentIndex: number;
}

function softmax(logits: ArrayLike<number>): number[] {
  const values = Array.from(logits);
  const max = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** The index of the entailment label: "entailment", "ENTAILMENT" (never "NOT_ENTAILMENT"). */
export function entailmentLabelIndex(id2label: Record<string, string> | undefined): number {
  const entries = Object.entries(id2label ?? {});
  const found = entries.find(([, label]) => /^entail/i.test(label));
  if (!found) {
    throw new Error(`the model has no entailment label (labels: ${entries.map(([, l]) => l).join(', ') || 'none'})`);
  }
  return Number(found[0]);
}

export function createEntailmentScorer(options: EntailmentScorerOptions): SupportScorer {
  const modelId = options.localModelPath ?? (options.model || DEFAULT_ENTAILMENT_MODEL);
  const offline = options.allowRemote === false || options.localModelPath !== undefined;
  let loading: Promise<LoadedModel> | undefined;

  async function load(): Promise<LoadedModel> {
    let classifier: PairClassifier;
    try {
      // The runtime the embedder chose (native, or WebAssembly where native has no binary).
      const {
        transformers: { pipeline },
        runtime,
      } = await importTransformers();
      classifier = await loadModelWith(
        { allowLocalModels: true, allowRemoteModels: !offline },
        async () =>
          (await pipeline('text-classification', modelId, {
            dtype: 'fp32',
            local_files_only: offline,
            ...sessionOptions(runtime, Math.max(1, availableParallelism())),
            ...(options.cacheDir ? { cache_dir: options.cacheDir } : {}),
          })) as unknown as PairClassifier,
      );
    } catch (error) {
      const hint = offline
        ? 'it must already be on this machine: set a local model folder that holds config.json, the tokenizer and onnx/model.onnx'
        : 'check the network, or set a local model folder for offline use';
      throw new Error(
        `entailment model "${modelId}" could not be loaded${offline ? ' offline' : ''} (${(error as Error).message}); ${hint}`,
      );
    }
    return { classifier, entailmentIndex: entailmentLabelIndex(classifier.model.config.id2label) };
  }

  async function score(sentence: string, passage: string, signal?: AbortSignal): Promise<SupportResult> {
    signal?.throwIfAborted();
    // Loaded once; a failure is kept, so every later sentence fails fast with the same message.
    loading ??= load();
    const { classifier, entailmentIndex } = await loading;
    const inputs = classifier.tokenizer(passage, { text_pair: sentence, padding: true, truncation: true });
    const { logits } = await classifier.model(inputs);
    const probability = softmax(logits.data)[entailmentIndex];
    return probability >= 0.5
      ? { score: probability, code: 'supported' }
      : {
          score: probability,
          code: 'low-support',
          explanation: `the entailment model gives ${(probability * 100).toFixed(0)}% that the passage supports it`,
        };
  }

  return { tier: 'entailment', score };
}
