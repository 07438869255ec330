import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EmbedderUnavailable, loadEmbedder } from '../../../../src/core/retrieval/embedder';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../../../support/tinyModels';
import { removeDir, tempDir } from '../../../support/workspace';

/**
 * A local stand-in for the model hub (unreachable from these machines): serves a generated
 * model folder at /{org}/{name}/resolve/main/{file}, as the hub lays files out.
 */
async function startHub(modelDir: string, modelId: string): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const prefix = `/${modelId}/resolve/main/`;
    const url = decodeURIComponent((req.url ?? '').split('?')[0]);
    const file = url.startsWith(prefix) ? path.join(modelDir, url.slice(prefix.length)) : '';
    if (!file || !file.startsWith(modelDir) || !existsSync(file)) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { 'content-length': body.byteLength, 'content-type': 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

describe('embedding model download (real transformers.js download path against a local stand-in for the hub)', function () {
  this.timeout(60_000);
  const MODEL = 'evident-test/tiny-embedding';
  let hub: Awaited<ReturnType<typeof startHub>>;
  let cacheDir: string;

  before(async () => {
    hub = await startHub(await makeTinyEmbeddingModel(defaultModelCacheDir()), MODEL);
    cacheDir = await tempDir('evident-models-');
  });

  after(async () => {
    await hub.close();
    await removeDir(cacheDir);
  });

  it('downloads once into the cache with progress, then loads from the cache without the network', async () => {
    const progress: string[] = [];
    const first = await loadEmbedder({
      modelId: MODEL, cacheDir, allowRemote: true, dtype: 'fp32', hubEndpoint: hub.url,
      onDownloadProgress: (p) => progress.push(p.file),
    });
    assert.equal(first.dimensions, 64);
    assert.ok(hub.requests.some((r) => r.startsWith('GET') && r.endsWith('/onnx/model.onnx')), hub.requests.join('\n'));
    assert.ok(progress.includes('onnx/model.onnx'), `progress for ${[...new Set(progress)].join(', ')}`);

    const before = hub.requests.length;
    const second = await loadEmbedder({ modelId: MODEL, cacheDir, allowRemote: false, dtype: 'fp32', hubEndpoint: hub.url });
    assert.equal(hub.requests.length, before, 'the second load asks the hub nothing');
    const [a] = await first.embed(['annual plan refunds']);
    const [b] = await second.embed(['annual plan refunds']);
    assert.deepEqual(Array.from(a), Array.from(b));
  });

  it('says the model is unavailable, quickly, when the hub does not have it', async () => {
    const started = Date.now();
    await assert.rejects(
      loadEmbedder({ modelId: 'evident-test/missing', cacheDir, allowRemote: true, hubEndpoint: hub.url }),
      (e: Error) => e instanceof EmbedderUnavailable && /HTTP 404/.test(e.message),
    );
    assert.ok(Date.now() - started < 5000);
  });

  it('does not hang when the hub does not answer: a short probe decides', async () => {
    const silent = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const started = Date.now();
    await assert.rejects(
      loadEmbedder({ modelId: MODEL + '-other', cacheDir, allowRemote: true, hubEndpoint: `http://127.0.0.1:${port}`, probeTimeoutMs: 500 }),
      EmbedderUnavailable,
    );
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });
});
