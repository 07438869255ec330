import { loadEmbedder } from './src/core/retrieval/embedder';
(async () => {
  const t = Date.now();
  const e = await loadEmbedder({ modelId: 'm', localModelPath: '.test-cache/models/evident-minilm-shaped-v1', allowRemote: false, dtype: (process.argv[2] as 'q8') ?? 'q8' });
  console.log('load', Date.now() - t, e.dimensions);
  const texts = ['Travel must be approved by your supervisor before booking flights.', 'hello', 'The quick brown fox jumps over internationalization of kubectl deployments.'];
  const t2 = Date.now();
  const v = await e.embed(texts);
  console.log('embed', Date.now() - t2, v.map((x) => [Math.hypot(...x).toFixed(4), x.slice(0, 3)]));
  const { AutoTokenizer } = await import('@huggingface/transformers');
  const tok = await AutoTokenizer.from_pretrained(require('path').resolve('.test-cache/models/evident-minilm-shaped-v1'), { local_files_only: true });
  for (const s of texts) console.log(tok.tokenize(s));
})();
