// Preloaded (--require) into a CLI child process by cliProcess.ts: prints the process's peak
// resident memory on stderr as it exits, for tests that bound what an input may cost.
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nevident-test-peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
