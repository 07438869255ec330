// Entry point VS Code's test runner loads inside the real extension host (`extensionTestsPath`):
// runs the in-host mocha suite (the *.test.js files bundled beside this one) and reports each
// result on the console (forwarded to the workbench page, where the harness reads it) and, when
// EVIDENT_E2E_INHOST_REPORT names a file, as JSON for the harness's summary (rewritten after
// every test, so a hung run still shows which test hangs).

import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type MochaModule from 'mocha';

export interface InHostResult {
  title: string;
  /** `running`: started and not finished (the last entry of a run that hung). */
  state: 'running' | 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export async function run(): Promise<void> {
  // mocha is an ES module: loaded at run time from the repository's node_modules, not bundled.
  const { default: Mocha } = (await import('mocha')) as { default: typeof MochaModule };
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    color: false,
    reporter: InHostReporter as unknown as MochaModule.ReporterConstructor,
  });
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(join(__dirname, file));
  }
  await mocha.loadFilesAsync();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} in-host test(s) failed`);
}

/** Prints one line per test (the page console carries it to the harness) and writes the JSON report. */
class InHostReporter {
  private readonly results: InHostResult[] = [];

  constructor(runner: MochaModule.Runner) {
    const { EVENT_TEST_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = (
      runner.constructor as typeof MochaModule.Runner
    ).constants;
    runner.on(EVENT_TEST_BEGIN, (test) => this.add(test, 'running'));
    runner.on(EVENT_TEST_PASS, (test) => this.add(test, 'passed'));
    runner.on(EVENT_TEST_PENDING, (test) => this.add(test, 'pending'));
    // Hook failures arrive here too, without a test_begin.
    runner.on(EVENT_TEST_FAIL, (test, error: Error) => this.add(test, 'failed', error));
  }

  /** Records a result and rewrites the report at once, so a run that hangs still says where. */
  private add(test: MochaModule.Runnable, state: InHostResult['state'], error?: Error): void {
    const result: InHostResult = { title: test.fullTitle(), state, durationMs: test.duration ?? 0 };
    if (error) result.error = error.stack ?? error.message;
    const last = this.results.at(-1);
    if (last?.state === 'running' && last.title === result.title) this.results.pop();
    this.results.push(result);
    if (state !== 'running') {
      console.log(`[evident-inhost] ${state}: ${result.title}${error ? `\n${result.error}` : ''}`);
    }
    const report = process.env.EVIDENT_E2E_INHOST_REPORT;
    if (report) writeFileSync(report, JSON.stringify(this.results, null, 2));
  }
}
