// Vectra's package also carries web fetching, OpenAI embeddings, a gRPC server, a GPT
// tokenizer and its own BM25; Evident uses only its LocalIndex with vectors. Those modules are
// replaced by this stub in the bundles (about 9 MB less to load). Using one throws, loudly.
function unavailable() {
  throw new Error('This part of a dependency is not bundled with Evident.');
}
const stub = new Proxy(unavailable, {
  get: (_target, key) => (key === '__esModule' ? false : key === 'default' ? stub : key === Symbol.toPrimitive ? () => '' : stub),
  apply: unavailable,
  construct: unavailable,
});
module.exports = stub;
