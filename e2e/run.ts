// `npm run test:e2e` runs e2e/install.mjs (the harness, cached), then this: builds the extension
// when dist/ is older than its sources, type-checks the harness, bundles the in-host suite, then
// runs the in-host suite and the Playwright UI checks on one code-server and one browser.
// Failures print the check, the extension host log tail and the screenshot path.
// Options: --grep TEXT (only matching checks), --keep (keep the temp folder), --skip-build (use
// dist/ as it is). EVIDENT_E2E_EXTENSION=DIR loads another extension folder, without building.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import Mocha from 'mocha';
import { describeFailure } from './lib/failureReport';
import {
  artifactsDir,
  extensionDir,
  handbookCorpus,
  harnessDir,
  inHostOutDir,
  inHostSourceDir,
  repoRoot,
  sitePolicyCorpus,
} from './lib/paths';
import { session, startSession, stopSession } from './lib/session';
import { slug } from './lib/workbench';

const CHECK_FILES = [
  'inHost.check.ts',
  'backgroundIndex.check.ts',
  'sitePolicy.check.ts',
  'hostile.check.ts',
  'grounding.check.ts',
  'metrics.check.ts',
  'chat.check.ts',
  'walkthrough.check.ts',
  'deadEnds.check.ts',
  'trust.check.ts',
  'sharedIndex.check.ts',
  'agents.check.ts',
  'realModel.check.ts',
];

function step(title: string): void {
  process.stdout.write(`\n[e2e] ${title}\n`);
}

function runOrExit(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`[e2e] FAILED: ${command} ${args.join(' ')} exited with ${result.status ?? result.signal}\n`);
    process.exit(1);
  }
}

function newestMtime(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), 0);
}

/** dist/ is stale when any bundle is missing or older than src/, package.json or the build script. */
function distIsStale(): boolean {
  const bundles = ['extension.js', 'webview.js'].map((f) => join(repoRoot, 'dist', f));
  if (bundles.some((b) => !existsSync(b))) return true;
  const built = Math.min(...bundles.map((b) => statSync(b).mtimeMs));
  const sources = Math.max(...['src', 'package.json', 'esbuild.mjs'].map((p) => newestMtime(join(repoRoot, p))));
  return sources > built;
}

async function bundleInHostSuite(): Promise<void> {
  const entries = readdirSync(inHostSourceDir).filter((f) => f === 'index.ts' || f.endsWith('.test.ts'));
  await esbuild.build({
    entryPoints: entries.map((f) => join(inHostSourceDir, f)),
    outdir: inHostOutDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * Why the suite cannot run here: its workspaces are copies of the shared corpora (../shared/data,
 * beside the repository, never copied into it). A clone without them skips the suite, saying so;
 * CI sets EVIDENT_REQUIRE_SHARED_DATA=1, so there their absence fails the run instead.
 */
function missingCorpora(): string | undefined {
  const missing = [sitePolicyCorpus, handbookCorpus].filter((dir) => !existsSync(dir));
  return missing.length ? `the shared corpora are not at ${missing.join(', ')}` : undefined;
}

async function main(): Promise<number> {
  const started = Date.now();
  const missing = missingCorpora();
  if (missing) {
    if (process.env.EVIDENT_REQUIRE_SHARED_DATA === '1') {
      process.stderr.write(`[e2e] FAILED: ${missing} (EVIDENT_REQUIRE_SHARED_DATA=1)\n`);
      return 1;
    }
    process.stdout.write(`[e2e] SKIPPED: ${missing}; the in-editor suite runs on copies of them\n`);
    return 0;
  }
  if (extensionDir !== repoRoot || process.argv.includes('--skip-build')) {
    step(`not building: loading the extension from ${extensionDir} as it is`);
  } else if (distIsStale()) {
    step('dist/ is missing or older than src/: npm run build');
    runOrExit('npm', ['run', 'build']);
  } else {
    step('dist/ is up to date');
  }

  step('type-checking the harness (e2e/tsconfig.json)');
  runOrExit(process.execPath, [
    join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
    '--noEmit',
    '-p',
    harnessDir,
  ]);

  step('bundling the in-host suite into out/test/e2e/suite');
  await bundleInHostSuite();

  step('starting code-server, the fake Gemini server and chromium');
  const s = await startSession();
  process.stdout.write(
    `[e2e] code-server ${s.server.url}, temp ${s.home}${s.fakeGemini ? `, fake Gemini ${s.fakeGemini.baseUrl}` : ', no fake Gemini server (test/support/fakeGeminiMain.ts missing)'}\n`,
  );

  const failureDetails: string[] = [];
  const mocha = new Mocha({
    reporter: 'spec',
    timeout: 120_000,
    grep: option('--grep'),
    rootHooks: {
      async beforeEach(this: Mocha.Context) {
        // A failure screenshot left by an earlier run must not be mistaken for this run's.
        await rm(join(artifactsDir, `${slug(this.currentTest?.title ?? '')}.failed.png`), { force: true });
      },
      async afterEach(this: Mocha.Context) {
        const test = this.currentTest;
        // A check skipped because its prerequisite failed has nothing of its own to show.
        if (test?.state !== 'failed' || !test.err || test.err.message.startsWith('not run:')) return;
        // Printed after mocha's summary (the reporter has already taken the error text).
        failureDetails.push(`✗ ${test.fullTitle()}\n${await describeFailure(test.title)}`);
      },
    },
  });
  for (const file of CHECK_FILES) mocha.addFile(join(harnessDir, 'checks', file));
  let failures = 1;
  try {
    await mocha.loadFilesAsync();
    failures = await new Promise<number>((resolve) => mocha.run(resolve));
  } finally {
    if (failureDetails.length > 0)
      process.stdout.write(
        `\n[e2e] failure details (screenshot, extension host log):\n\n${failureDetails.join('\n\n')}\n`,
      );
    const keep = process.argv.includes('--keep') || failures > 0;
    if (keep) process.stdout.write(`[e2e] kept the temp folder (logs, workspaces): ${session().home}\n`);
    await stopSession(keep);
  }
  process.stdout.write(
    `[e2e] ${failures === 0 ? 'PASSED' : `FAILED (${failures} check(s))`} in ${((Date.now() - started) / 1000).toFixed(0)} s; screenshots: ${artifactsDir}\n`,
  );
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[e2e] FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    void stopSession(true).finally(() => process.exit(1));
  },
);
