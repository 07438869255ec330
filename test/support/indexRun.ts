// A separate process that opens an index, brings it up to date and runs one query: used where a
// test needs another process (an unprivileged user for a read-only folder, a process to kill).
// Usage: tsx test/support/indexRun.ts DOCS INDEX_DIR MODEL_DIR QUERY [--loop-edit FILE]
//   prints one JSON line: { openNotices, notices, embedded, passages, hits }
//   with --loop-edit: edits FILE and re-indexes forever, printing "saving N" as each save starts.

import { appendFile } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource } from '../../src/core/docs/docSource';
import { noticeTexts } from '../../src/domain/notices';
import { HybridRetriever } from '../../src/core/retrieval/hybridRetriever';
import { PassageIndex } from '../../src/core/store/local/passageIndex';
import { setAnnMinVectors } from '../../src/core/retrieval/vectorStore';
import { loadTinyEmbedder } from './tinyEmbedder';

async function main(): Promise<void> {
  const [docs, indexDir, modelDir, query, flag, editFile] = process.argv.slice(2);
  // The crash test's --ann: the ANN graph at every size.
  if (process.env.EVIDENT_TEST_ANN_MIN_VECTORS) setAnnMinVectors(Number(process.env.EVIDENT_TEST_ANN_MIN_VECTORS));
  const embedder = await loadTinyEmbedder(modelDir);
  const index = await PassageIndex.open(indexDir, docs);
  const source = folderDocSource(docs);
  if (flag === '--loop-edit') {
    for (let n = 0; ; n++) {
      await appendFile(
        path.join(docs, editFile),
        `\nEdit number ${n} of the crash test mentions quarterly approvals.\n`,
      );
      await index.update(source, {
        embedder,
        onProgress: (p) => {
          if (p.phase === 'saving' && p.done === 0) process.stdout.write(`saving ${n}\n`);
        },
      });
    }
  }
  const report = await index.update(source, { embedder });
  const hits = await new HybridRetriever(index, embedder).search(query, 6);
  process.stdout.write(
    `${JSON.stringify({
      openNotices: noticeTexts(index.openNotices),
      notices: noticeTexts(report.notices),
      embedded: report.embedded,
      passages: report.passages,
      hits: hits.map((h) => ({ id: h.passage.id, source: h.passage.source, text: h.passage.text })),
    })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
