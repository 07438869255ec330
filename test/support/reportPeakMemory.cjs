// Preloaded (--require) into a CLI child process by cliProcess.ts: prints the process's peak
// resident memory (and CPU time, which a loaded machine does not inflate as it does wall time) on
// stderr as it exits, for tests and benchmarks that bound what an input may cost.
process.on('exit', () => {
  const usage = process.resourceUsage();
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
  require('node:fs').writeSync(2, `\nevident-test-peak-rss-kb ${usage.maxRSS} cpu-ms ${cpuMs}\n`);
});
