// The MCP server's index, opened once and kept current by a freshness check per tool call: a
// call more than `freshForMs` after the last check starts an index run (which reads only the
// files whose size, times or inode changed, and writes nothing when nothing did) and waits for
// its lexical commit, not for its vectors. One run at a time: a call during a run waits for that
// run's lexical commit. A shared index is kept by its own indexer (CI): nothing is indexed here.

import type { Engine, IndexReport } from '../../core/engine';

export interface FreshIndexOptions {
  /** A shared index (postgres): searched as it is. */
  shared: boolean;
  freshForMs?: number;
  now?: () => number;
  /** Where a run's notices and failures are told (stderr). */
  log(message: string): void;
}

export const DEFAULT_FRESH_FOR_MS = 1000;

export class FreshIndex {
  private lastChecked = Number.NEGATIVE_INFINITY;
  private running: { run: Promise<IndexReport | undefined>; lexical: Promise<void> } | undefined;

  constructor(
    readonly engine: Engine,
    private readonly options: FreshIndexOptions,
  ) {}

  /** The engine, with its index checked for changes in the last `freshForMs`. */
  async current(): Promise<Engine> {
    if (this.options.shared) return this.engine;
    const now = (this.options.now ?? Date.now)();
    if (!this.running && now - this.lastChecked >= (this.options.freshForMs ?? DEFAULT_FRESH_FOR_MS)) this.start();
    if (this.running) await this.running.lexical;
    return this.engine;
  }

  /** Waits for a run in progress (the server's shutdown). */
  async settled(): Promise<void> {
    await this.running?.run.catch(() => undefined);
  }

  private start(): void {
    let lexicalReady!: () => void;
    const lexical = new Promise<void>((resolve) => (lexicalReady = resolve));
    const run = this.engine.index({ modelWhenNeeded: true, onLexicalReady: () => lexicalReady() }).then(
      (report) => {
        for (const notice of report.notices) this.options.log(notice.text);
        return report;
      },
      (error: Error) => {
        this.options.log(`Indexing failed: ${error.message}`);
        throw error;
      },
    );
    const running = {
      run: run.finally(() => {
        this.lastChecked = (this.options.now ?? Date.now)();
        if (this.running === running) this.running = undefined;
      }),
      // Answers may start at the lexical commit; a run that fails before it fails the call that waits.
      lexical: Promise.race([lexical, run.then(() => undefined)]),
    };
    running.run.catch(() => undefined);
    this.running = running;
  }
}
