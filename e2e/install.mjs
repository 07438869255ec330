#!/usr/bin/env node
// Installs the end-to-end harness (code-server 4.100.3 + playwright-core + Debian chromium) from the
// npm registry and Debian packages only, idempotently: a second run checks a stamp and returns in
// about a second. A plain `npm install code-server` cannot work offline (its postinstall downloads
// ripgrep from GitHub), so this does that postinstall's steps by hand. See docs/e2e.md.
//
// Usage: node e2e/install.mjs [--force]     exit 0 = harness ready; non-zero = what is missing is printed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const harnessDir = dirname(fileURLToPath(import.meta.url));
const codeServerDir = join(harnessDir, 'node_modules', 'code-server');
const vscodeDir = join(codeServerDir, 'lib', 'vscode');
const stampFile = join(harnessDir, 'node_modules', '.evident-harness.json');
const CODE_SERVER_VERSION = '4.100.3';
// Bump when the steps below change, so cached installs are redone.
const RECIPE_VERSION = 2;

class InstallError extends Error {}

function log(message) {
  process.stdout.write(`[e2e install] ${message}\n`);
}

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function run(command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new InstallError(`${command} ${args.join(' ')} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    throw new InstallError(
      `${command} ${args.join(' ')} (in ${options.cwd ?? process.cwd()}) exited with ${result.status}`,
    );
  }
  log(`  ${command} ${args.join(' ')}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Runs an npm command holding the shared install lock, so parallel installs on one machine do not collide. */
function npm(args, cwd, env) {
  const options = { cwd, env: { ...process.env, ...env } };
  if (onPath('flock')) run('flock', ['/tmp/evident-npm.lock', 'npm', ...args], options);
  else run('npm', args, options);
}

// Debian packages the harness needs, each with how to tell it is present; `build` ones only
// while installing (a cached harness needs just the browser and ripgrep).
const systemPackages = [
  {
    name: 'chromium',
    why: 'the browser Playwright drives',
    build: false,
    present: () => existsSync('/usr/bin/chromium'),
  },
  {
    name: 'ripgrep',
    why: "VS Code's search (replaces the GitHub download)",
    build: false,
    present: () => onPath('rg'),
  },
  {
    name: 'libkrb5-dev',
    why: "headers for code-server's kerberos module",
    build: true,
    present: () => onPath('krb5-config') || existsSync('/usr/include/gssapi/gssapi.h'),
  },
  {
    name: 'build-essential',
    why: 'compilers for the native modules',
    build: true,
    present: () => onPath('g++') && onPath('make'),
  },
  { name: 'python3', why: 'node-gyp', build: true, present: () => onPath('python3') },
];

function ensureSystemPackages(forBuild) {
  const missing = systemPackages.filter((p) => (forBuild || !p.build) && !p.present());
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !onPath('apt-get')) {
    const list = missing.map((p) => `  ${p.name} (${p.why})`).join('\n');
    throw new InstallError(
      `missing system packages:\n${list}\n` +
        (isRoot
          ? 'apt-get is not available: install them with your package manager.'
          : `run as root: apt-get update && apt-get install -y ${names.join(' ')}`),
    );
  }
  log(`installing Debian packages: ${names.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env });
  run('apt-get', ['install', '-y', ...names], { env });
  const still = missing.filter((p) => !p.present()).map((p) => p.name);
  if (still.length > 0) throw new InstallError(`apt-get finished but these are still missing: ${still.join(', ')}`);
}

/** The prefix whose include/node holds this Node's headers, so node-gyp never downloads them. */
function nodeHeadersPrefix() {
  const candidates = [dirname(dirname(process.execPath)), '/usr', '/usr/local'];
  const prefix = candidates.find((p) => existsSync(join(p, 'include', 'node', 'node_api.h')));
  if (!prefix) {
    throw new InstallError(
      `no Node headers found (looked for include/node/node_api.h under ${candidates.join(', ')}); ` +
        'native modules cannot be built offline. Install a Node 20 build that ships its headers (e.g. the nodejs package from NodeSource).',
    );
  }
  return prefix;
}

function cacheKey() {
  const lock = readFileSync(join(harnessDir, 'package-lock.json'));
  return createHash('sha256').update(lock).update(`${RECIPE_VERSION}|${process.version}|${process.arch}`).digest('hex');
}

function isCached(key) {
  if (!existsSync(stampFile)) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
    return (
      stamp.key === key &&
      existsSync(join(vscodeDir, 'node_modules.asar')) &&
      existsSync(join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'))
    );
  } catch {
    return false;
  }
}

function relink(target, linkPath) {
  rmSync(linkPath, { force: true, recursive: true });
  symlinkSync(target, linkPath);
}

function installCodeServer(prefix) {
  // node-gyp: use this Node's headers (no download); node-pty's build step runs `npx node-gyp`,
  // which an npm `yes=false` setting would block.
  const buildEnv = { npm_config_nodedir: prefix, npm_config_yes: 'true' };
  log('npm ci --ignore-scripts (code-server, playwright-core)');
  npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund'], harnessDir, buildEnv);
  // argon2 (password auth) is required at load time; its prebuilt binary lives on GitHub: build it.
  log('building argon2 from source');
  npm(['rebuild', 'argon2'], harnessDir, { ...buildEnv, npm_config_build_from_source: 'true' });

  log('installing VS Code server modules (what code-server postinstall does)');
  npm(['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], vscodeDir, buildEnv);
  // @vscode/ripgrep's postinstall downloads rg; it skips when bin/ exists, so give it Debian's.
  const rgBin = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgBin, { recursive: true });
  const rg = (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, 'rg'))
    .find((p) => existsSync(p));
  relink(rg, join(rgBin, 'rg'));
  log('npm rebuild (node-pty, spdlog, watcher, kerberos… from source)');
  npm(['rebuild'], vscodeDir, buildEnv);
  relink('node_modules', join(vscodeDir, 'node_modules.asar'));
  relink('code-linux.sh', join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
  relink('browser-linux.sh', join(vscodeDir, 'bin', 'helpers', 'browser.sh'));
  log('installing built-in extensions modules');
  npm(['install', '--omit=dev', '--no-audit', '--no-fund'], join(vscodeDir, 'extensions'), buildEnv);
}

function verify() {
  // A private config home: code-server writes a default config file into it on any start.
  const configHome = mkdtempSync(join(tmpdir(), 'evident-e2e-config-'));
  const version = spawnSync(process.execPath, [join(codeServerDir, 'out', 'node', 'entry.js'), '--version'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: configHome },
  });
  rmSync(configHome, { recursive: true, force: true });
  const versionLine = version.stdout.split('\n').find((line) => line.startsWith(CODE_SERVER_VERSION));
  if (version.status !== 0 || !versionLine) {
    throw new InstallError(
      `code-server --version failed (status ${version.status}): ${version.stdout}${version.stderr}`,
    );
  }
  const chromium = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' });
  if (chromium.status !== 0) throw new InstallError(`chromium --version failed: ${chromium.stderr}`);
  log(`ready: code-server ${versionLine}, ${chromium.stdout.trim()}`);
}

function main() {
  const started = Date.now();
  if (process.versions.node.split('.')[0] !== '20') {
    throw new InstallError(`code-server ${CODE_SERVER_VERSION} needs Node 20; this is Node ${process.versions.node}`);
  }
  const key = cacheKey();
  const cached = !process.argv.includes('--force') && isCached(key);
  ensureSystemPackages(!cached);
  if (cached) {
    log(`cached (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return;
  }
  rmSync(stampFile, { force: true });
  installCodeServer(nodeHeadersPrefix());
  verify();
  writeFileSync(
    stampFile,
    JSON.stringify(
      { key, codeServer: CODE_SERVER_VERSION, node: process.version, at: new Date().toISOString() },
      null,
      2,
    ),
  );
  log(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

try {
  main();
} catch (error) {
  if (!(error instanceof InstallError)) throw error;
  process.stderr.write(`[e2e install] FAILED: ${error.message}\n`);
  process.exit(1);
}
