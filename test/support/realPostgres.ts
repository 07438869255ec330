// A real PostgreSQL with pgvector for the shared-index tests (tests and benchmarks only): the
// server EVIDENT_TEST_PG_URL names, or else one this process starts itself with the shared tool
// `shared/tools/pg-with-pgvector` (Debian's PostgreSQL, pgvector built from the vendored source;
// found as EVIDENT_PG_TOOL or in the nearest `shared/tools` above the repository), on a free
// loopback port, stopped and removed when the process exits. Where neither is possible the
// suite fails with the reason: the store tests never skip the real server in silence.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

const REPO = path.resolve(__dirname, '../..');

/** The shared tool's path, or undefined. */
export function pgTool(): string | undefined {
  const given = process.env.EVIDENT_PG_TOOL;
  if (given) return existsSync(given) ? given : undefined;
  for (let dir = REPO; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'tools', 'pg-with-pgvector');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Why a real server cannot be had here, or undefined when one can. */
export function realPostgresProblem(): string | undefined {
  if (process.env.EVIDENT_TEST_PG_URL) return undefined;
  return ownServerProblem();
}

/** Why this process cannot start a server of its own, or undefined when it can. */
function ownServerProblem(): string | undefined {
  const tool = pgTool();
  if (!tool) {
    return 'no EVIDENT_TEST_PG_URL and no shared/tools/pg-with-pgvector (set EVIDENT_PG_TOOL to it, or EVIDENT_TEST_PG_URL to a server with pgvector)';
  }
  if (process.getuid?.() !== 0) {
    return `${tool} must run as root (it starts the server as the postgres user); or set EVIDENT_TEST_PG_URL to a server with pgvector`;
  }
  return undefined;
}

export interface OwnPostgres {
  url: string;
  /** `pg_ctl stop -m immediate`: the server dies as in a crash (no checkpoint, connections cut). */
  kill(): void;
  /** Starts it again on the same data folder and port. */
  restart(): void;
  /** Stops it and removes its data folder. */
  remove(): void;
}

/** A free TCP port on 127.0.0.1 (asked of the system, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a server of its own (benchmarks of faults stop and restart it); throws with the reason when it cannot. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const problem = ownServerProblem();
  const tool = pgTool();
  if (problem || !tool) {
    throw new Error(
      `A real PostgreSQL with pgvector cannot be started here: ${problem ?? 'no shared/tools/pg-with-pgvector'}.`,
    );
  }
  const port = await freePort();
  // Reachable by the postgres user (a mkdtemp folder is private to its owner).
  const dir = path.join(os.tmpdir(), `evident-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const run = (...args: string[]) =>
    execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  let url: string;
  try {
    url = run('start', dir, String(port)).split('\n').pop() ?? '';
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim();
    throw new Error(`A real PostgreSQL with pgvector could not be started with ${tool}: ${stderr}`);
  }
  const pgCtl = (mode: 'immediate' | 'fast') => {
    const bin = execFileSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1'], {
      encoding: 'utf8',
    }).trim();
    execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', `'${bin}/pg_ctl' -D '${dir}/data' -m ${mode} stop`], {
      stdio: 'ignore',
    });
  };
  let running = true;
  const own: OwnPostgres = {
    url,
    kill() {
      if (!running) return;
      pgCtl('immediate');
      running = false;
    },
    restart() {
      if (running) return;
      run('start', dir, String(port));
      running = true;
    },
    remove() {
      try {
        if (running) pgCtl('fast');
      } catch {
        // already down
      }
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  process.once('exit', () => own.remove());
  return own;
}

let shared: Promise<string> | undefined;

/**
 * The real server the store suites share in this process: EVIDENT_TEST_PG_URL, else one started
 * here on first use (and stopped at exit).
 */
export function realPostgresUrl(): Promise<string> {
  const given = process.env.EVIDENT_TEST_PG_URL;
  if (given) return Promise.resolve(given);
  shared ??= startOwnPostgres().then((own) => own.url);
  return shared;
}
