// Benchmark: what the MCP SDK costs the CLI's start, in ONE run. It builds a variant of the CLI
// bundle with the SDK inside it (how a plain `import` would bundle it) beside the shipped one (the
// SDK in its own bundle, dist/mcpSdk.js, required only by `evident mcp`) and times, alternating:
//   - `evident --help` with each bundle (every command pays the bundle's parse at start);
//   - requiring dist/mcpSdk.js alone (what `evident mcp` adds);
//   - `evident mcp` from spawn to its answer to `initialize` (a lexical index of the samples).
// Figures are medians over `--runs` runs; the ratio compares the two bundles of this run.
// Usage: npm run bench:cli-start [-- --runs 15]

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { lazyModule } from '../build/lazyModule.mjs';

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function timeNode(args: string[]): number {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, args, { stdio: 'ignore', cwd: ROOT });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Spawn to the `initialize` result of `evident mcp`, in ms. */
function timeMcpInitialize(indexDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      [
        path.join(DIST, 'cli.js'),
        'mcp',
        '--docs',
        path.join(ROOT, 'samples'),
        '--index-dir',
        indexDir,
        '--no-embeddings',
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    child.stdout.once('data', () => {
      resolve(Number(process.hrtime.bigint() - started) / 1e6);
      child.kill();
    });
    child.once('error', reject);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
    );
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
  const runs = Number(values.runs);
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'ignore' });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'evident-cli-start-'));
  try {
    // The variant: the shipped CLI's build (esbuild.mjs) without the plugin that keeps the SDK apart.
    const inlined = path.join(scratch, 'cli-sdk-inlined.js');
    await esbuild.build({
      entryPoints: [path.join(ROOT, 'src/cli/main.ts')],
      outfile: inlined,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode', 'onnxruntime-node', 'onnxruntime-common', 'usearch'],
      plugins: [lazyModule(['@google/genai'])],
      alias: { sharp: path.join(ROOT, 'build/sharpStub.cjs') },
      define: { 'import.meta.url': 'importMetaUrl' },
      banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
      logLevel: 'error',
    });
    const shipped = path.join(DIST, 'cli.js');
    const times = { shipped: [] as number[], inlined: [] as number[], sdk: [] as number[], mcp: [] as number[] };
    const indexDir = path.join(scratch, 'index');
    execFileSync(
      process.execPath,
      [shipped, 'index', '--docs', path.join(ROOT, 'samples'), '--index-dir', indexDir, '--no-embeddings'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < runs; i++) {
      times.shipped.push(timeNode([shipped, '--help']));
      times.inlined.push(timeNode([inlined, '--help']));
      times.sdk.push(
        timeNode(['-e', `require(${JSON.stringify(path.join(DIST, 'mcpSdk.js'))})`]) - timeNode(['-e', '0']),
      );
      times.mcp.push(await timeMcpInitialize(indexDir));
    }
    const size = (file: string) => `${(statSync(file).size / 1024 / 1024).toFixed(2)} MB`;
    console.log(
      `runs: ${runs}, load: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, cpus: ${os.cpus().length}`,
    );
    console.log(`| what | size | median ms |`);
    console.log(`|---|---|---|`);
    console.log(
      `| evident --help, shipped dist/cli.js (SDK apart) | ${size(shipped)} | ${median(times.shipped).toFixed(0)} |`,
    );
    console.log(
      `| evident --help, CLI with the SDK bundled in | ${size(inlined)} | ${median(times.inlined).toFixed(0)} |`,
    );
    console.log(
      `| require dist/mcpSdk.js (what evident mcp adds) | ${size(path.join(DIST, 'mcpSdk.js'))} | ${median(times.sdk).toFixed(0)} |`,
    );
    console.log(`| evident mcp: spawn to the initialize answer | | ${median(times.mcp).toFixed(0)} |`);
    console.log(`ratio --help inlined / shipped: ${(median(times.inlined) / median(times.shipped)).toFixed(2)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
