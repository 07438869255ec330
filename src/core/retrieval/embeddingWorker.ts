// An embedding worker: a node:worker_threads thread that owns one ONNX session of the embedding
// model (native onnxruntime) and turns padded token batches into unit-length sentence vectors
// (mean pooling over the mask, L2 normalisation: embeddingBatches.ts, as the in-thread embedder
// does). Several run side by side (embeddingWorkers.ts), each with its own core: whole model
// calls in parallel, instead of one call split over the cores at each of its ~150 operators
// (which wait for each other at every one). Built as its own bundle (dist/embeddingWorker.js).

import { parentPort, workerData } from 'node:worker_threads';
import type { InferenceSession as Session } from 'onnxruntime-node';
import { sessionOptions } from '../onnxRuntime';
import { meanPool, normalizeRows } from './embeddingBatches';
import {
  isToEmbeddingWorker,
  type EmbeddingWorkerData,
  type FromEmbeddingWorker,
  type ToEmbeddingWorker,
} from './embeddingWorkerMessages';

async function serve(port: NonNullable<typeof parentPort>, data: EmbeddingWorkerData): Promise<void> {
  const post = (message: FromEmbeddingWorker) => port.postMessage(message);
  let session: Session;
  let Tensor: typeof import('onnxruntime-node').Tensor;
  try {
    const ort = await import('onnxruntime-node');
    Tensor = ort.Tensor;
    session = await ort.InferenceSession.create(
      data.modelFile,
      sessionOptions({ kind: 'native' }, data.threads, data.spinning).session_options,
    );
  } catch (error) {
    post({ type: 'failed', message: (error as Error).message });
    return;
  }
  const embed = async (m: ToEmbeddingWorker): Promise<Float32Array[]> => {
    const feeds = Object.fromEntries(
      session.inputNames.map((name) => {
        const values = m.inputs[name];
        if (!values) throw new Error(`the batch has no ${name}`);
        return [name, new Tensor('int64', values, [m.rows, m.width])];
      }),
    );
    const hidden = (await session.run(feeds)).last_hidden_state;
    if (!hidden) throw new Error('the model has no last_hidden_state output');
    const dims = hidden.dims[2];
    const pooled = meanPool(hidden.data as Float32Array, m.inputs.attention_mask, m.rows, m.width, dims);
    return normalizeRows(pooled, m.rows, dims);
  };
  port.on('message', (message: unknown) => {
    if (!isToEmbeddingWorker(message)) {
      const id = (message as { id?: unknown } | null)?.id;
      post({ type: 'error', id: typeof id === 'number' ? id : -1, message: 'malformed embed message' });
      return;
    }
    embed(message).then(
      (vectors) => post({ type: 'embedded', id: message.id, vectors }),
      (error: Error) => post({ type: 'error', id: message.id, message: error.message }),
    );
  });
  post({ type: 'ready' });
}

if (parentPort) void serve(parentPort, workerData as EmbeddingWorkerData);
