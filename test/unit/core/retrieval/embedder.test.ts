import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EmbedderUnavailable, loadEmbedder, trainedLength } from '../../../../src/core/retrieval/embedder';
import { makeMiniLmShapedModel, VOCABULARY_CORPUS_NAME } from '../../../support/miniLmShapedModel';
import { describeWithCorpora } from '../../../support/sharedData';
import { cp, writeFile } from 'node:fs/promises';
import { tinyEmbeddingModelDir } from '../../../support/tinyEmbedder';
import { defaultModelCacheDir } from '../../../support/tinyModels';
import { removeDir, tempDir } from '../../../support/workspace';

/**
 * A local stand-in for the model hub (unreachable from these machines): serves a generated
 * model folder at /{org}/{name}/resolve/main/{file}, as the hub lays files out.
 */
async function startHub(
  modelDir: string,
  modelId: string,
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
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
    hub = await startHub(await tinyEmbeddingModelDir(), MODEL);
    cacheDir = await tempDir('evident-models-');
  });

  after(async () => {
    await hub.close();
    await removeDir(cacheDir);
  });

  it('downloads once into the cache with progress, then loads from the cache without the network', async () => {
    const progress: string[] = [];
    const first = await loadEmbedder({
      modelId: MODEL,
      cacheDir,
      allowRemote: true,
      dtype: 'fp32',
      hubEndpoint: hub.url,
      onDownloadProgress: (p) => progress.push(p.file),
    });
    assert.equal(first.dimensions, 64);
    assert.ok(
      hub.requests.some((r) => r.startsWith('GET') && r.endsWith('/onnx/model.onnx')),
      hub.requests.join('\n'),
    );
    assert.ok(progress.includes('onnx/model.onnx'), `progress for ${[...new Set(progress)].join(', ')}`);

    const before = hub.requests.length;
    const second = await loadEmbedder({
      modelId: MODEL,
      cacheDir,
      allowRemote: false,
      dtype: 'fp32',
      hubEndpoint: hub.url,
    });
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
      loadEmbedder({
        modelId: MODEL + '-other',
        cacheDir,
        allowRemote: true,
        hubEndpoint: `http://127.0.0.1:${port}`,
        probeTimeoutMs: 500,
      }),
      EmbedderUnavailable,
    );
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  });

  it("keeps the hub's sentence_bert_config.json beside a downloaded model: its trained length holds offline too", async () => {
    const source = await tempDir('evident-sbert-model-');
    const cache = await tempDir('evident-models-');
    const MODEL_SBERT = 'evident-test/tiny-sbert';
    const tiny = await tinyEmbeddingModelDir();
    await cp(tiny, source, { recursive: true });
    await writeFile(
      path.join(source, 'sentence_bert_config.json'),
      JSON.stringify({ max_seq_length: 128, do_lower_case: false }),
    );
    const sbertHub = await startHub(source, MODEL_SBERT);
    try {
      const downloaded = await loadEmbedder({
        modelId: MODEL_SBERT,
        cacheDir: cache,
        allowRemote: true,
        dtype: 'fp32',
        hubEndpoint: sbertHub.url,
      });
      assert.equal(downloaded.maxTokens, 128);
      assert.ok(
        sbertHub.requests.some((r) => r === `GET /${MODEL_SBERT}/resolve/main/sentence_bert_config.json`),
        sbertHub.requests.join('\n'),
      );
      const offline = await loadEmbedder({ modelId: MODEL_SBERT, cacheDir: cache, allowRemote: false, dtype: 'fp32' });
      assert.equal(offline.maxTokens, 128);
    } finally {
      await sbertHub.close();
      await removeDir(source);
      await removeDir(cache);
    }
  });
});

describeWithCorpora(
  [VOCABULARY_CORPUS_NAME],
  'embedding throughput settings keep the vectors (MiniLM-shaped fp32 model: real attention over padding)',
  function () {
    this.timeout(180_000);
    let folder: string;
    const long = Array.from(
      { length: 25 },
      (_, i) => `Section ${i}: travel requests need approval from a supervisor before any booking.`,
    ).join(' ');
    const texts = [
      'How do I request a laptop?',
      long,
      'Annual leave accrues every pay period; unused hours carry over up to a limit set by policy.',
      'Gifts',
      'Report a security incident within one hour to the security team, by email or chat.',
      'Per diem covers meals and incidental expenses on travel days, at the published rates.',
    ];

    before(async () => {
      folder = await makeMiniLmShapedModel(defaultModelCacheDir());
    });

    it('length-sorted batches return the same vectors, in the input order, as one text per call (within 1e-4)', async () => {
      const batched = await loadEmbedder({ modelId: 'm', localModelPath: folder, allowRemote: false, dtype: 'fp32' });
      const single = await loadEmbedder({
        modelId: 'm',
        localModelPath: folder,
        allowRemote: false,
        dtype: 'fp32',
        tuning: { batchSize: 1 },
      });
      const together = await batched.embed(texts);
      assert.equal(together.length, texts.length);
      for (let i = 0; i < texts.length; i++) {
        const [alone] = await single.embed([texts[i]]);
        const diff = Math.max(...alone.map((x, d) => Math.abs(x - together[i][d])));
        assert.ok(diff < 1e-4, `text ${i}: max difference ${diff}`);
      }
      // Batches padded to their longest text would change nothing either: order is what sorting risks.
      const reversed = await batched.embed([...texts].reverse());
      reversed
        .reverse()
        .forEach((v, i) =>
          assert.ok(Math.max(...v.map((x, d) => Math.abs(x - together[i][d]))) < 1e-4, `reversed input, text ${i}`),
        );
    });

    it('truncates to the trained length (256 tokens from sentence_bert_config.json): words past it change nothing', async () => {
      const embedder = await loadEmbedder({ modelId: 'm', localModelPath: folder, allowRemote: false, dtype: 'fp32' });
      assert.equal(embedder.maxTokens, 256);
      const [a, b, short] = await embedder.embed([long, `${long} Also, refunds are never granted.`, texts[0]]);
      assert.ok(Math.max(...a.map((x, d) => Math.abs(x - b[d]))) < 1e-4, 'the tail past 256 tokens is cut');
      assert.ok(Math.abs(Math.hypot(...short) - 1) < 1e-4);
      const untruncated = await loadEmbedder({
        modelId: 'm',
        localModelPath: folder,
        allowRemote: false,
        dtype: 'fp32',
        tuning: { maxTokens: 512 },
      });
      const [c, d] = await untruncated.embed([long, `${long} Also, refunds are never granted.`]);
      assert.ok(
        Math.max(...c.map((x, k) => Math.abs(x - d[k]))) > 1e-4,
        'at 512 tokens the tail counts: the text is longer than 256',
      );
    });
  },
);

describe('trainedLength: how many tokens a text keeps', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir('evident-sbert-');
  });
  afterEach(async () => {
    await removeDir(dir);
  });

  it("reads max_seq_length from sentence_bert_config.json, else the tokenizer's limit, never over 512", async () => {
    assert.equal(trainedLength(dir, 512), 512, 'no file: the tokenizer');
    assert.equal(trainedLength(dir, 128), 128);
    assert.equal(trainedLength(dir, 1_000_000_000_000), 512, 'tokenizers without a real limit say 1e12');
    assert.equal(trainedLength(undefined, undefined), 512);
    await writeFile(
      path.join(dir, 'sentence_bert_config.json'),
      JSON.stringify({ max_seq_length: 256, do_lower_case: false }),
    );
    assert.equal(trainedLength(dir, 512), 256);
    await writeFile(path.join(dir, 'sentence_bert_config.json'), JSON.stringify({ max_seq_length: 8192 }));
    assert.equal(trainedLength(dir, 512), 512);
    await writeFile(path.join(dir, 'sentence_bert_config.json'), '{ not json');
    assert.equal(trainedLength(dir, 384), 384, 'a damaged file falls back to the tokenizer');
  });
});
