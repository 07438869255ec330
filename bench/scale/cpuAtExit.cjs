// Preloaded into the CLI processes bench:scale times (`node -r cpuAtExit.cjs dist/cli.js …`):
// appends the process's CPU time (user + system, ms) to $EVIDENT_BENCH_CPU_FILE at exit, so the
// benchmark can print CPU next to wall time (on a shared machine, wall time is mostly waiting).
const { appendFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.EVIDENT_BENCH_CPU_FILE;
  if (!file) return;
  const { user, system } = process.cpuUsage();
  appendFileSync(file, `${((user + system) / 1000).toFixed(0)}\n`);
});
