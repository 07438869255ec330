// Runs a script of ours as a user the file modes apply to (tests only), for the tests of a folder
// the process cannot read or write. Root reads and writes every folder whatever its mode, so when
// the suite runs as root the run is made as `nobody`. That user may not reach the checkout at all
// (a clone under /root or under a `mktemp -d` folder has a private parent), so the script is
// bundled with esbuild into a fresh world-readable folder, with the packages it loads at run time
// (the native ones the bundles keep external) beside it. As any other user the script runs from
// the checkout as that user: the modes the test sets apply to it already.
// A run whose precondition cannot be arranged fails and says why; it is never skipped.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, link, lstat, mkdir, mkdtemp, readdir, readlink, symlink } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { removeDir } from './workspace';

export const NOBODY = 65534;
const ROOT = path.resolve(__dirname, '../..');
/** Loaded at run time, not bundled (native binaries, one shared runtime registry): as in esbuild.mjs. */
const RUNTIME_PACKAGES = ['onnxruntime-node', 'onnxruntime-common', 'usearch'];

export interface UnprivilegedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface UnprivilegedRunOptions {
  env?: Record<string, string>;
  /** Paths the run must read (folders: also list): checked as the run's user before it starts. */
  reach?: string[];
  timeoutMs?: number;
}

export interface UnprivilegedRunner {
  /** True when runs are made as `nobody` (the suite runs as root). */
  readonly asNobody: boolean;
  /** A path the run can read holding what `target` holds: `target` itself, or (as root) a copy in the runner's folder. */
  share(target: string): Promise<string>;
  run(args: string[], options?: UnprivilegedRunOptions): Promise<UnprivilegedRun>;
  dispose(): Promise<void>;
}

/** A runner of the TypeScript file `entry` (a script of src/ or test/support/) as an unprivileged user. */
export async function unprivilegedRunner(entry: string): Promise<UnprivilegedRunner> {
  if (process.getuid?.() !== 0) return ownUserRunner(entry);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'evident-unprivileged-'));
  try {
    await chmod(dir, 0o755);
    const script = path.join(dir, 'run.cjs');
    await bundle(entry, script);
    for (const dep of runtimePackages()) await linkTree(dep.dir, path.join(dir, 'node_modules', dep.name));
    return nobodyRunner(dir, script);
  } catch (error) {
    await removeDir(dir);
    throw error;
  }
}

function ownUserRunner(entry: string): UnprivilegedRunner {
  return {
    asNobody: false,
    share: async (target) => target,
    run: (args, options = {}) =>
      spawnRun([process.execPath, '--import', 'tsx', entry, ...args], { cwd: ROOT, home: os.homedir(), options }),
    dispose: async () => undefined,
  };
}

function nobodyRunner(dir: string, script: string): UnprivilegedRunner {
  let shared = 0;
  return {
    asNobody: true,
    share: async (target) => {
      const copy = path.join(dir, 'shared', String(shared++), path.basename(target));
      await linkTree(target, copy);
      return copy;
    },
    run: async (args, options = {}) => {
      await assertNobodyReaches([process.execPath, script, ...(options.reach ?? [])]);
      return spawnRun([process.execPath, script, ...args], { cwd: dir, home: dir, uid: NOBODY, options });
    },
    dispose: () => removeDir(dir),
  };
}

async function bundle(entry: string, outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: RUNTIME_PACKAGES,
    alias: { sharp: path.join(ROOT, 'build', 'sharpStub.cjs') },
    // transformers.js reads import.meta.url in its ESM build (as in esbuild.mjs).
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    logLevel: 'error',
  });
  await chmod(outfile, 0o644);
}

/**
 * The runtime packages and every package they depend on, installed in the checkout's
 * node_modules: each comes with the packages nested in it; those found at the top are added.
 */
function runtimePackages(): { name: string; dir: string }[] {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (name: string, from: string): void => {
    const dir = installedPackage(name, from);
    if (seen.has(dir)) return;
    seen.add(dir);
    if (dir === path.join(ROOT, 'node_modules', name)) found.set(name, dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir);
  };
  for (const name of RUNTIME_PACKAGES) visit(name, ROOT);
  return [...found].map(([name, dir]) => ({ name, dir }));
}

/** Where Node would find package `name` required from folder `from`. */
function installedPackage(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) {
      throw new Error(`package ${name} (needed by ${from}) is not installed: run npm install`);
    }
  }
}

/** `target` (a file or folder) at `copy`, world-readable: hard links where the file system allows, else copies. */
async function linkTree(target: string, copy: string): Promise<void> {
  const info = await lstat(target);
  if (info.isSymbolicLink()) {
    await mkdir(path.dirname(copy), { recursive: true, mode: 0o755 });
    await symlink(await readlink(target), copy);
  } else if (info.isDirectory()) {
    await mkdir(copy, { recursive: true, mode: 0o755 });
    await chmod(copy, 0o755);
    for (const name of await readdir(target)) await linkTree(path.join(target, name), path.join(copy, name));
  } else {
    await mkdir(path.dirname(copy), { recursive: true, mode: 0o755 });
    // A hard link shares the file's mode: only files others may read already are linked.
    if ((info.mode & 0o004) !== 0) {
      try {
        await link(target, copy);
        return;
      } catch {
        // another file system, or links refused: copy instead
      }
    }
    await copyFile(target, copy);
    await chmod(copy, (info.mode & 0o111) !== 0 ? 0o755 : 0o644);
  }
}

/** Fails, naming the first path and why, unless `nobody` can read every path (and list every folder). */
async function assertNobodyReaches(paths: string[]): Promise<void> {
  const check = `const fs = require('fs');
for (const p of process.argv.slice(1)) {
  try { fs.accessSync(p, fs.statSync(p).isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK); }
  catch (e) { process.stdout.write(p + ' (' + (e.code || e.message) + ')'); process.exit(3); }
}`;
  const why = (detail: string) =>
    new Error(
      `cannot arrange a run as the unprivileged user nobody (uid ${NOBODY}), needed because the tests run as root: ${detail}. ` +
        `Everything the run reads must be reachable by other users: the temporary folder (${os.tmpdir()}; set TMPDIR to another) and Node (${process.execPath}).`,
    );
  let result: UnprivilegedRun;
  try {
    result = await spawnRun([process.execPath, '-e', check, ...paths], {
      cwd: '/',
      home: '/',
      uid: NOBODY,
      options: {},
    });
  } catch (error) {
    throw why(`Node cannot be started as nobody (${(error as Error).message})`);
  }
  if (result.code === 3) throw why(`it cannot read ${result.stdout}`);
  if (result.code !== 0) throw why(`the access check failed (exit ${result.code}): ${result.stderr.trim()}`);
}

interface SpawnPlan {
  cwd: string;
  home: string;
  uid?: number;
  options: UnprivilegedRunOptions;
}

function spawnRun(command: string[], plan: SpawnPlan): Promise<UnprivilegedRun> {
  const timeoutMs = plan.options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: plan.cwd,
      // A closed local port stands in for the unreachable model hub: deterministic offline runs.
      env: { PATH: process.env.PATH ?? '', HOME: plan.home, HF_ENDPOINT: 'http://127.0.0.1:9', ...plan.options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.uid } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${path.basename(command[1] ?? command[0])} did not finish within ${timeoutMs} ms; stderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
