// A separate writer process for the concurrent-writer test of the bounded log:
// node --import tsx logWriterMain.ts FILE WRITER COUNT MAX_BYTES KEEP
// appends COUNT records {"writer","seq","pad"} through the core's appendBounded.

import { appendBounded } from '../../src/core/metrics/logFile';

async function main(): Promise<void> {
  const [file, writer, count, maxBytes, keep] = process.argv.slice(2);
  for (let seq = 0; seq < Number(count); seq++) {
    await appendBounded(file, JSON.stringify({ writer, seq, pad: 'x'.repeat(40 + (seq % 50)) }), {
      maxBytes: Number(maxBytes),
      keep: Number(keep),
    });
  }
}

void main();
