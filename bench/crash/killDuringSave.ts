// Crash test of index saves: a process edits a document and re-indexes in a loop; it is killed
// (SIGKILL) at a random point of a save, the document is put back, and a new process opens the
// index, brings it up to date and answers a retrieval query. Each answer must equal the answer of
// a clean index built from scratch on the same documents, and no temporary file may be left.
// With --ann, every process builds and uses the ANN vector graph whatever the corpus size.
// Usage: npm run bench:crash [-- --kills 20] [-- --docs DIR] [-- --seed N] [-- --ann]

import { spawn, spawnSync } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { folderDocSource } from '../../src/core/docs/docSource';
import { loadEmbedder } from '../../src/core/retrieval/embedder';
import { HybridRetriever } from '../../src/core/retrieval/hybridRetriever';
import { PassageIndex } from '../../src/core/store/local/passageIndex';
import { setAnnMinVectors } from '../../src/core/retrieval/vectorStore';
import { defaultModelCacheDir, makeTinyEmbeddingModel } from '../../test/support/tinyModels';
import { removeDir, tempDir } from '../../test/support/workspace';

const RUNNER = path.resolve(__dirname, '../../test/support/indexRun.ts');

export interface KillOutcome {
  kill: number;
  killedDuringSave: number;
  delayMs: number;
  query: string;
  equal: boolean;
  /** Temporary / unreferenced files the kill left, before the next process opened the index. */
  leftByKill: string[];
  tempFiles: string[];
  notices: string[];
}

export async function killDuringSave(options: {
  docs: string;
  kills: number;
  queries: string[];
  editFile: string;
  seed?: number;
  log?: (line: string) => void;
}): Promise<KillOutcome[]> {
  const random = rng(options.seed ?? 1);
  const modelDir = await makeTinyEmbeddingModel(defaultModelCacheDir());
  const embedder = await loadEmbedder({ modelId: 'tiny', localModelPath: modelDir, allowRemote: false, dtype: 'fp32' });
  const docs = await tempDir('evident-crash-docs-');
  const cleanDir = await tempDir('evident-crash-clean-');
  const indexDir = await tempDir('evident-crash-index-');
  const outcomes: KillOutcome[] = [];
  try {
    await cp(options.docs, docs, { recursive: true });
    const original = await readFile(path.join(docs, options.editFile));
    const clean = await PassageIndex.open(cleanDir, docs);
    await clean.update(folderDocSource(docs), { embedder });
    const retriever = new HybridRetriever(clean, embedder);
    const expected = new Map<string, string[]>();
    for (const q of options.queries) {
      expected.set(
        q,
        (await retriever.search(q, 6)).map((h) => h.passage.id),
      );
    }
    await (await PassageIndex.open(indexDir, docs)).update(folderDocSource(docs), { embedder });

    for (let kill = 1; kill <= options.kills; kill++) {
      // Kill during the 1st–3rd save of the loop, 0–40 ms after it starts.
      const targetSave = Math.floor(random() * 3);
      const delayMs = Math.floor(random() * 40);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', RUNNER, docs, indexDir, modelDir, '-', '--loop-edit', options.editFile],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const killedDuringSave = await new Promise<number>((resolve, reject) => {
        let buffered = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const saves = [...buffered.matchAll(/saving (\d+)/g)].map((m) => Number(m[1]));
          if (saves.includes(targetSave)) {
            setTimeout(() => child.kill('SIGKILL'), delayMs);
            child.stdout.removeAllListeners('data');
            resolve(targetSave);
          }
        });
        child.on('exit', (code, signal) => {
          if (signal !== 'SIGKILL') reject(new Error(`the indexing process ended by itself (${code ?? signal})`));
        });
      });
      await new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.on('exit', () => resolve()),
      );
      await writeFile(path.join(docs, options.editFile), original);
      const leftByKill = (await readdir(indexDir)).filter((n) => n.endsWith('.tmp'));

      const query = options.queries[(kill - 1) % options.queries.length];
      const run = spawnSync(process.execPath, ['--import', 'tsx', RUNNER, docs, indexDir, modelDir, query], {
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(`ask after kill ${kill} failed: ${run.stderr}`);
      const answer = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
        hits: { id: string }[];
        openNotices: string[];
        notices: string[];
      };
      const got = answer.hits.map((h) => h.id);
      const tempFiles = (await readdir(indexDir)).filter((n) => n.endsWith('.tmp'));
      const outcome: KillOutcome = {
        kill,
        killedDuringSave,
        delayMs,
        query,
        equal: JSON.stringify(got) === JSON.stringify(expected.get(query)),
        leftByKill,
        tempFiles,
        notices: [...answer.openNotices, ...answer.notices],
      };
      outcomes.push(outcome);
      options.log?.(
        `kill ${kill}: during save ${killedDuringSave} + ${delayMs} ms → answer ${outcome.equal ? 'equal' : 'DIFFERENT'}, temp files left by the kill ${leftByKill.length}, after the ask ${tempFiles.length}${outcome.notices.length ? `, notices: ${outcome.notices.join(' | ')}` : ''}`,
      );
    }
  } finally {
    await removeDir(docs);
    await removeDir(cleanDir);
    await removeDir(indexDir);
  }
  return outcomes;
}

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      ann: { type: 'boolean' },
      kills: { type: 'string', default: '20' },
      docs: { type: 'string' },
      seed: { type: 'string', default: String(Date.now() % 100000) },
      'edit-file': { type: 'string', default: 'README.md' },
    },
  });
  const docs = path.resolve(values.docs ?? path.join(__dirname, '../../../shared/data/corpora/18f-handbook'));
  if (values.ann) {
    setAnnMinVectors(0);
    process.env.EVIDENT_TEST_ANN_MIN_VECTORS = '0';
  }
  console.log(
    `Crash test: ${values.kills} kills during index saves of ${docs} (seed ${values.seed})${values.ann ? ', ANN graph at every size' : ''}`,
  );
  killDuringSave({
    docs,
    kills: Number(values.kills),
    seed: Number(values.seed),
    editFile: values['edit-file'] ?? 'README.md',
    queries: [
      'How do I request a laptop?',
      'What do I need to do before booking travel?',
      'How much annual leave do I accrue?',
      'Who approves overtime?',
    ],
    log: (line) => console.log(line),
  })
    .then((outcomes) => {
      const bad = outcomes.filter((o) => !o.equal || o.tempFiles.length);
      console.log(
        `\n${outcomes.length - bad.length} of ${outcomes.length} runs: answers equal to a clean index's, no temporary file left.`,
      );
      if (bad.length) process.exitCode = 1;
    })
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
