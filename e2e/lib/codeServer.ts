// One code-server (VS Code 1.100.3 in the browser, with a real Node extension host) for the whole
// run: a private user-data, config and extensions folder under a temp dir, the extension linked
// in as an installed extension, marketplace calls off. Started detached and stopped by killing
// its process group (server, extension hosts, pty host, watchers).

import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, sep } from 'node:path';
import { codeServerEntry } from './paths';

export interface CodeServerOptions {
  /** Temp folder owned by this run. */
  home: string;
  /** Folder holding the extension's package.json and dist/. */
  extensionDir: string;
  /** User settings of the test profile. */
  settings: Record<string, unknown>;
  /** Extra environment for the server and so for the extension host (e.g. GOOGLE_GEMINI_BASE_URL). */
  env?: Record<string, string>;
  /** Keep workspace trust on (folders open in Restricted Mode until trusted); off by default. */
  workspaceTrust?: boolean;
}

interface ExtensionManifest {
  publisher: string;
  name: string;
  version: string;
}

export class CodeServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly userDataDir: string,
    readonly logFile: string,
    /** publisher.name, the folder name of its output channel logs. */
    readonly extensionId: string,
  ) {}

  static async start(options: CodeServerOptions): Promise<CodeServer> {
    if (!existsSync(codeServerEntry))
      throw new Error(`code-server is not installed at ${codeServerEntry}: run node e2e/install.mjs`);
    const userDataDir = join(options.home, 'user-data');
    const extensionsDir = join(options.home, 'extensions');
    const configHome = join(options.home, 'xdg-config');
    await Promise.all([userDataDir, extensionsDir, configHome].map((d) => mkdir(d, { recursive: true })));
    await mkdir(join(userDataDir, 'User'), { recursive: true });
    await writeFile(join(userDataDir, 'User', 'settings.json'), JSON.stringify(options.settings, null, 2));

    const manifest = JSON.parse(
      await readFile(join(options.extensionDir, 'package.json'), 'utf8'),
    ) as ExtensionManifest;
    await symlink(
      options.extensionDir,
      join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`),
      'dir',
    );

    const port = await freePort();
    const logFile = join(options.home, 'code-server.log');
    const log = createWriteStream(logFile);
    const child = spawn(
      process.execPath,
      [
        codeServerEntry,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        extensionsDir,
        '--disable-telemetry',
        '--disable-update-check',
        ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
        '--disable-getting-started-override',
        '--ignore-last-opened',
      ],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          XDG_CONFIG_HOME: configHome,
          XDG_DATA_HOME: join(options.home, 'xdg-data'),
          XDG_CACHE_HOME: join(options.home, 'xdg-cache'),
          EXTENSIONS_GALLERY: '{}',
          ...options.env,
        },
      },
    );
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const server = new CodeServer(
      child,
      `http://127.0.0.1:${port}`,
      userDataDir,
      logFile,
      `${manifest.publisher}.${manifest.name}`,
    );
    await server.waitUntilHealthy(60_000);
    return server;
  }

  private async waitUntilHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(
          `code-server exited with ${this.child.exitCode} while starting; log: ${this.logFile}\n${await tail(this.logFile, 30)}`,
        );
      }
      try {
        const res = await fetch(`${this.url}/healthz`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(
      `code-server did not answer ${this.url}/healthz within ${timeoutMs / 1000} s; log: ${this.logFile}`,
    );
  }

  /** Workbench URL opening `folder`; `payload` entries go through the URL (code-server rejects them on its command line). */
  workbenchUrl(folder: string, payload: [string, string][] = []): string {
    const params = new URLSearchParams({ folder });
    if (payload.length > 0) params.set('payload', JSON.stringify(payload));
    return `${this.url}/?${params.toString()}`;
  }

  /** A path on the server as the workbench names it (for extensionDevelopmentPath and friends). */
  remoteUri(path: string): string {
    return `vscode-remote://${new URL(this.url).host}${path}`;
  }

  /** The newest extension host log and the newest Evident output channel log of this run. */
  async extensionHostLogs(): Promise<string[]> {
    const found: { path: string; mtime: number }[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (p.endsWith('.log')) found.push({ path: p, mtime: (await stat(p)).mtimeMs });
      }
    };
    await walk(join(this.userDataDir, 'logs'));
    found.sort((a, b) => b.mtime - a.mtime);
    const host = found.find((f) => f.path.endsWith('remoteexthost.log'));
    const evident = found.find((f) => f.path.includes(`${sep}${this.extensionId}${sep}`));
    return [evident, host].filter((f) => f !== undefined).map((f) => f.path);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.pid === undefined) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    try {
      process.kill(-this.child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  }
}

/** The last `lines` lines of a text file ('' when it cannot be read). */
export async function tail(file: string, lines: number): Promise<string> {
  try {
    return (await readFile(file, 'utf8'))
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch {
    return '';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
