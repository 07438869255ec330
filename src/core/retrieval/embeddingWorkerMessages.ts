// The messages between an embedder and its embedding workers (embeddingWorker.ts): a worker is
// started with a model file, says `ready` (or `failed`, with why), then answers every `embed`
// (a padded token batch) with exactly one `embedded` (its unit-length vectors, in row order) or
// `error`. Both sides check what they receive: a malformed message is an error, not a silent drop.

/** What a worker is started with (structured-clone data). */
export interface EmbeddingWorkerData {
  /** The ONNX file of the model (the q8 or fp32 file of the embedder's model folder). */
  modelFile: string;
  /** ONNX intra-op threads of the worker's session. */
  threads: number;
  spinning: boolean;
}

export type ToEmbeddingWorker = {
  type: 'embed';
  id: number;
  /** Rows × width tokens per input (input_ids, attention_mask, token_type_ids), right-padded. */
  rows: number;
  width: number;
  inputs: Record<string, BigInt64Array>;
};

export type FromEmbeddingWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'embedded'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

export function isToEmbeddingWorker(m: unknown): m is ToEmbeddingWorker {
  if (!isRecord(m) || m.type !== 'embed' || !isCount(m.id) || !isCount(m.rows) || !isCount(m.width)) return false;
  const { inputs, rows, width } = m;
  return (
    isRecord(inputs) &&
    inputs.input_ids instanceof BigInt64Array &&
    inputs.attention_mask instanceof BigInt64Array &&
    Object.values(inputs).every((t) => t instanceof BigInt64Array && t.length === rows * width)
  );
}

export function isFromEmbeddingWorker(m: unknown): m is FromEmbeddingWorker {
  if (!isRecord(m)) return false;
  switch (m.type) {
    case 'ready':
      return true;
    case 'failed':
      return typeof m.message === 'string';
    case 'embedded':
      return isCount(m.id) && Array.isArray(m.vectors) && m.vectors.every((v) => v instanceof Float32Array);
    case 'error':
      return isCount(m.id) && typeof m.message === 'string';
    default:
      return false;
  }
}
