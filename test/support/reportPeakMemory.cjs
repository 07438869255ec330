// Preloaded (--require) into a CLI child process by cliProcess.ts: prints the process's peak
// resident memory (and CPU time, which a loaded machine does not inflate as it does wall time) on
// stderr as it exits, for tests and benchmarks that bound what an input may cost.
//
// The peak is the process's own memory's high-water mark (VmHWM in /proc/self/status), not
// getrusage's maxRSS: Linux carries into maxRSS the resident size of the parent that forked the
// process (a test runner or a benchmark at 260 MB made every child "peak" at 260 MB).
const fs = require('node:fs');

function ownPeakKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux: maxRSS below
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const usage = process.resourceUsage();
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
  fs.writeSync(2, `\nevident-test-peak-rss-kb ${ownPeakKb()} cpu-ms ${cpuMs}\n`);
});
