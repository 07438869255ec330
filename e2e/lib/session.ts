// The one code-server, one browser and one fake Gemini server shared by every check of a run,
// with the fixture workspaces copied into a temp folder (never written in place).

import type { Browser } from 'playwright-core';
import { existsSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CodeServer } from './codeServer';
import { FakeGeminiProcess } from './fakeGeminiProcess';
import { extensionDir, fakeGeminiMain, handbookCorpus, hostileFixture, sitePolicyCorpus } from './paths';
import { launchBrowser, type Workbench } from './workbench';

/** How long the fake Gemini server holds the first reply: the stop check cancels it. */
export const HANG_MS = 120_000;

export interface Session {
  home: string;
  server: CodeServer;
  browser: Browser;
  /** Absent when test/support/fakeGeminiMain.ts is not in the tree yet. */
  fakeGemini?: FakeGeminiProcess;
  workspaces: {
    inHost: string;
    sitePolicy: string;
    hostile?: string;
    metrics: string;
    handbook?: string;
    walkthrough: string;
    deadEnds: string;
    agents: string;
  };
  inHostReport: string;
  /** The workbench a check is driving, for failure screenshots. */
  current?: Workbench;
}

let active: Session | undefined;

export function session(): Session {
  if (!active) throw new Error('the e2e session is not started (run through e2e/run.ts)');
  return active;
}

/** Settings of the test profile: no tours, trust prompts, update or marketplace traffic. */
export const PROFILE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  'editor.hover.delay': 150,
};

/**
 * A copy of the fixture folder `from` as `<home>/workspaces/<name>/<its name>`, writable by us:
 * the shared corpora are read-only, and `cp` keeps their modes (root writes anyway, any other
 * user could not add a `.vscode` folder or edit a document in the copy).
 */
export async function copyWorkspace(from: string, home: string, name: string): Promise<string> {
  const to = join(home, 'workspaces', name, basename(from));
  await mkdir(join(home, 'workspaces', name), { recursive: true });
  await cp(from, to, { recursive: true });
  await makeWritable(to);
  return to;
}

async function makeWritable(target: string): Promise<void> {
  const info = await lstat(target);
  if (info.isSymbolicLink()) return; // chmod would change what it points to
  await chmod(target, info.mode | 0o200);
  if (info.isDirectory()) for (const name of await readdir(target)) await makeWritable(join(target, name));
}

/** The one Markdown file of the dead-ends workspace: 5 MB, over the index's 2 MB limit. */
export const OVERSIZED_DOC = 'handbook-export.md';

/** A folder whose only Markdown file is too large to index (deadEnds.check.ts removes it later). */
async function deadEndsWorkspace(home: string): Promise<string> {
  const folder = join(home, 'workspaces', 'dead-ends', 'exported-handbook');
  await mkdir(folder, { recursive: true });
  const paragraph =
    'Employees accrue annual leave every pay period; see the leave policy for the details of carry-over.\n\n';
  const size = 5 * 1024 * 1024;
  await writeFile(
    join(folder, OVERSIZED_DOC),
    `# Exported handbook\n\n${paragraph.repeat(Math.ceil(size / paragraph.length))}`.slice(0, size),
  );
  return folder;
}

export async function startSession(): Promise<Session> {
  if (!existsSync(sitePolicyCorpus))
    throw new Error(`fixture corpus missing: ${sitePolicyCorpus} (the shared data must sit beside the repository)`);
  const home = await mkdtemp(join(tmpdir(), 'evident-e2e-'));
  const workspaces = {
    inHost: await copyWorkspace(sitePolicyCorpus, home, 'in-host'),
    sitePolicy: await copyWorkspace(sitePolicyCorpus, home, 'ui'),
    metrics: await copyWorkspace(sitePolicyCorpus, home, 'metrics'),
    walkthrough: await copyWorkspace(sitePolicyCorpus, home, 'walkthrough'),
    agents: await copyWorkspace(sitePolicyCorpus, home, 'agents'),
    hostile: existsSync(hostileFixture) ? await copyWorkspace(hostileFixture, home, 'hostile') : undefined,
    handbook: existsSync(handbookCorpus) ? await copyWorkspace(handbookCorpus, home, 'chat') : undefined,
    deadEnds: await deadEndsWorkspace(home),
  };
  const fakeGemini = existsSync(fakeGeminiMain)
    ? await FakeGeminiProcess.start({ home, mode: 'cite-first-evidence', script: [{ hangMs: HANG_MS }] })
    : undefined;
  const inHostReport = join(home, 'in-host-report.json');
  const env: Record<string, string> = { EVIDENT_E2E_INHOST_REPORT: inHostReport };
  if (fakeGemini) env.GOOGLE_GEMINI_BASE_URL = fakeGemini.baseUrl;
  const server = await CodeServer.start({ home, extensionDir, settings: PROFILE_SETTINGS, env });
  const browser = await launchBrowser(join(home, 'browser'));
  active = { home, server, browser, fakeGemini, workspaces, inHostReport };
  return active;
}

export async function stopSession(keepHome: boolean): Promise<void> {
  if (!active) return;
  const { browser, server, fakeGemini, home } = active;
  active = undefined;
  await browser.close().catch(() => undefined);
  await server.stop();
  await fakeGemini?.stop();
  if (!keepHome) await rm(home, { recursive: true, force: true });
}
