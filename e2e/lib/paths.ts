// Where things are for the end-to-end run: the repository, the harness, the bundled in-host
// tests, the shared data, and the artefacts folder (screenshots and logs, ignored by git).

import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const harnessDir = join(repoRoot, 'e2e');
export const codeServerEntry = join(harnessDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const chromiumPath = process.env.EVIDENT_E2E_CHROMIUM ?? '/usr/bin/chromium';

/** The in-host mocha suite, bundled by esbuild (see bundleInHostSuite). */
export const inHostSourceDir = join(repoRoot, 'test', 'e2e', 'suite');
export const inHostOutDir = join(repoRoot, 'out', 'test', 'e2e', 'suite');

/** The shared data beside the repository (never copied into it); EVIDENT_SHARED_DATA points elsewhere, as for the unit tests. */
const sharedData = process.env.EVIDENT_SHARED_DATA
  ? resolve(process.env.EVIDENT_SHARED_DATA)
  : resolve(repoRoot, '..', 'shared', 'data');
/** Real Markdown corpora shared by the team. */
export const sitePolicyCorpus = resolve(sharedData, 'corpora', 'site-policy');
/** A larger corpus (248 files): its first index takes long enough to be seen in the chat view. */
export const handbookCorpus = resolve(sharedData, 'corpora', '18f-handbook');
export const hostileFixture = join(repoRoot, 'test', 'fixtures', 'hostile');
export const fakeGeminiMain = join(repoRoot, 'test', 'support', 'fakeGeminiMain.ts');

export const artifactsDir = process.env.EVIDENT_E2E_ARTIFACTS ?? join(repoRoot, 'artifacts', 'e2e');

/** The folder to load as the extension: the repository (package.json + dist/). */
export const extensionDir = process.env.EVIDENT_E2E_EXTENSION ?? repoRoot;
