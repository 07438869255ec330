// A deliberately slow embedding model (tests and the in-editor check only): the tiny generated
// model of tinyModels.ts followed by `layers` identity matrix products over every token. Its
// vectors are the tiny model's own; its cost per token is real ONNX work, so an index of the
// 18F handbook takes long enough to ask questions while vectors are still filling in. Nothing in
// the shipped code knows it is slow: it is loaded through `evident.embedding.localModelPath`.

import { join } from 'node:path';
import { buildVocabulary, embeddingGraph, embeddingTable, generateOnce, writeModelFolder } from './tinyModels';

/** Writes (once) the slow model folder under `dir` and returns its absolute path. */
export async function makeSlowEmbeddingModel(dir: string, layers: number, dimensions = 256): Promise<string> {
  if (!Number.isInteger(layers) || layers < 1) throw new Error(`a slow model needs at least one layer, not ${layers}`);
  return generateOnce(join(dir, `evident-slow-embedding-v1-d${dimensions}-x${layers}`), async (tmp) => {
    const vocab = buildVocabulary();
    const graph = embeddingGraph(embeddingTable(vocab, dimensions), vocab.length, dimensions);
    const identity = new Float32Array(dimensions * dimensions);
    for (let d = 0; d < dimensions; d++) identity[d * dimensions + d] = 1;
    const nodes = graph.node ?? [];
    const last = nodes[nodes.length - 1];
    last.output = ['hidden_0'];
    last.name = 'hidden_0';
    for (let i = 0; i < layers; i++) {
      const output = i === layers - 1 ? 'last_hidden_state' : `hidden_${i + 1}`;
      nodes.push({ opType: 'MatMul', input: [`hidden_${i}`, 'identity'], output: [output], name: output });
    }
    graph.initializer = [
      ...(graph.initializer ?? []),
      { name: 'identity', dims: [dimensions, dimensions], dataType: 1, rawData: new Uint8Array(identity.buffer) },
    ];
    await writeModelFolder(tmp, vocab, graph, { architectures: ['BertModel'] }, dimensions);
  });
}
