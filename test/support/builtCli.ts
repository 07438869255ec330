// The built CLI (dist/cli.js), for tests of what only the shipped bundle shows (the MCP server's
// SDK bundle beside it, a real stdio process). Rebuilt first when a bundle is missing or older than
// the sources, so a test never runs yesterday's build (tests only).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
export const BUILT_CLI = path.join(ROOT, 'dist', 'cli.js');
const BUNDLES = [BUILT_CLI, path.join(ROOT, 'dist', 'mcpSdk.js')];

function newest(file: string): number {
  const info = statSync(file);
  return info.isDirectory()
    ? readdirSync(file).reduce((max, name) => Math.max(max, newest(path.join(file, name))), 0)
    : info.mtimeMs;
}

export function ensureBuiltCli(): string {
  const sources = Math.max(newest(path.join(ROOT, 'src')), newest(path.join(ROOT, 'esbuild.mjs')));
  if (BUNDLES.some((b) => !existsSync(b) || statSync(b).mtimeMs < sources)) {
    execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'ignore' });
  }
  return BUILT_CLI;
}
