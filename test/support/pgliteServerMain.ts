// Runs the test PostgreSQL (PGlite + pgvector behind pglite-socket) as its own process, for
// trying the CLI or the extension against a shared index by hand: prints its URL, serves until
// SIGINT/SIGTERM. Usage: npx tsx test/support/pgliteServerMain.ts

import { startTestPostgres } from './pgliteServer';

void (async () => {
  const server = await startTestPostgres();
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.stop().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
})();
