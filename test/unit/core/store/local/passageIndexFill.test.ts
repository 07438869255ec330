// Two-phase indexing on a real index on disk with the real transformers.js embedder (tiny
// generated model): the lexical part is committed first, vectors are committed in chunks, a run
// killed with SIGKILL mid-embedding resumes without re-embedding what was committed, a cancelled
// run keeps what it embedded, and answers say how much of the index had vectors.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource } from '../../../../../src/core/docs/docSource';
import { Engine } from '../../../../../src/core/engine';
import { HybridRetriever } from '../../../../../src/core/retrieval/hybridRetriever';
import { PassageIndex } from '../../../../../src/core/store/local/passageIndex';
import type { Embedder } from '../../../../../src/core/types';
import { toJson } from '../../../../../src/cli/commands/ask';
import { manyDocs } from '../../../../support/manyDocs';
import { runUntilPausedThenKill } from '../../../../support/killedFill';
import { loadTinyEmbedder, tinyEmbeddingModelDir, tinyEmbeddingSettings } from '../../../../support/tinyEmbedder';
import { removeDir, tempDir, writeDocs } from '../../../../support/workspace';

const DOCUMENTS = 50;

/** Counts the texts the real embedder is asked to embed. */
function counting(embedder: Embedder): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    modelId: embedder.modelId,
    dimensions: embedder.dimensions,
    texts,
    embed: (batch, signal) => (texts.push(...batch), embedder.embed(batch, signal)),
  };
}

describe('passage index: two-phase indexing, vectors committed in chunks, resumable (real index, real tiny embedding model)', function () {
  this.timeout(180_000);
  let docs: string;
  let indexDir: string;
  let modelDir: string;
  let embedder: Embedder;
  let passages: number;

  before(async () => {
    modelDir = await tinyEmbeddingModelDir();
    embedder = await loadTinyEmbedder(modelDir);
  });

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, manyDocs(DOCUMENTS));
    passages = DOCUMENTS * 4;
  });

  afterEach(async () => {
    await removeDir(docs);
    await removeDir(indexDir);
  });

  it('commits the lexical part before embedding anything: it answers by words from disk while no passage has a vector', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    let atLexicalReady:
      | { manifest: { documents: unknown; vectors: unknown[]; embeddingModel: string }; vectors: number; hit?: string }
      | undefined;
    const report = await index.update(folderDocSource(docs), {
      embedder,
      commitEvery: { passages: 64 },
      onLexicalReady: () => {
        // The committed manifest on disk now names the passages and the lexical index, and no vector.
        atLexicalReady = {
          manifest: JSON.parse(readFileSync(path.join(indexDir, 'manifest.json'), 'utf8')) as never,
          vectors: index.vectorFill().passagesWithVectors,
          hit: index.lexicalQuery('equipment case 17 approval', 1)[0]?.id,
        };
      },
    });
    assert.ok(atLexicalReady, 'onLexicalReady was called');
    assert.equal(atLexicalReady.vectors, 0);
    assert.ok(atLexicalReady.manifest.documents, 'the documents are committed');
    assert.deepEqual(atLexicalReady.manifest.vectors, []);
    assert.equal(
      atLexicalReady.manifest.embeddingModel,
      embedder.modelId,
      'committed for this model: searches are hybrid over what has vectors',
    );
    assert.ok(atLexicalReady.hit, 'a lexical query answers at that point');
    assert.equal(report.passages, passages);
    assert.equal(report.embedded, passages);
    assert.deepEqual(index.vectorFill(), { passagesWithVectors: passages, passages });
  });

  it('resumes after SIGKILL mid-embedding: the next run embeds only the passages without a committed vector', async () => {
    // Commits after 64 and 128 passages; killed once 160 are embedded (32 embedded, not committed).
    const lines = await runUntilPausedThenKill(docs, indexDir, modelDir, 64, 160);
    assert.deepEqual(lines, ['lexical', 'committed 64', 'committed 128', 'paused']);

    const index = await PassageIndex.open(indexDir, docs);
    assert.deepEqual(index.openNotices, [], 'a kill between commits leaves a whole index, not a damaged one');
    assert.equal(index.isIndexed, true);
    assert.deepEqual(index.vectorFill(), { passagesWithVectors: 128, passages });
    assert.deepEqual(
      (await readdir(indexDir)).filter((n) => n.endsWith('.tmp')),
      [],
    );

    const counted = counting(embedder);
    const report = await index.update(folderDocSource(docs), { embedder: counted });
    assert.equal(counted.texts.length, passages - 128, 'only the passages without a committed vector are embedded');
    assert.equal(report.embedded, passages - 128);
    assert.equal(report.unchanged, DOCUMENTS, 'no document is read again');
    assert.deepEqual(index.vectorFill(), { passagesWithVectors: passages, passages });

    const again = counting(embedder);
    await (await PassageIndex.open(indexDir, docs)).update(folderDocSource(docs), { embedder: again });
    assert.equal(again.texts.length, 0, 'a complete index embeds nothing');
  });

  it('keeps what it embedded when cancelled mid-fill, and the next run embeds only the rest', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const controller = new AbortController();
    const run = index.update(folderDocSource(docs), {
      embedder,
      signal: controller.signal,
      commitEvery: { passages: 64 },
      onProgress: (p) => {
        if (p.vectors && p.vectors.passagesWithVectors >= 128) controller.abort();
      },
    });
    await assert.rejects(run, (error: Error) => error.name === 'AbortError');
    const kept = index.vectorFill().passagesWithVectors;
    assert.ok(kept >= 128 && kept < passages, `kept ${kept}`);

    const reopened = await PassageIndex.open(indexDir, docs);
    assert.deepEqual(
      reopened.vectorFill(),
      { passagesWithVectors: kept, passages },
      'what was embedded before the cancel is committed',
    );
    const counted = counting(embedder);
    await reopened.update(folderDocSource(docs), { embedder: counted });
    assert.equal(counted.texts.length, passages - kept);
  });

  it('embeds a text that several passages hold once, and gives each of those passages its vector', async () => {
    const shared = '## Resources\n\nLinks to conference talks and other related material about the team.\n';
    await writeDocs(docs, {
      'people/alice.md': `# About me\n\nAlice reviews the storage changes.\n\n${shared}`,
      'people/bob.md': `# About me\n\nBob runs the release meetings.\n\n${shared}`,
    });
    const index = await PassageIndex.open(indexDir, docs);
    const counted = counting(embedder);
    const report = await index.update(folderDocSource(docs), { embedder: counted });
    const sharedText = 'About me > Resources\nLinks to conference talks and other related material about the team.';
    assert.equal(counted.texts.filter((t) => t === sharedText).length, 1, 'the shared text is embedded once');
    assert.equal(new Set(counted.texts).size, counted.texts.length, 'no text is embedded twice');
    assert.equal(counted.texts.length, report.passages - 1);
    assert.equal(report.embedded, report.passages, 'every passage counts as embedded');
    assert.deepEqual(index.vectorFill(), { passagesWithVectors: report.passages, passages: report.passages });
    // Both passages of the shared text come back first, with the same score, from a search by its vector.
    const [vector] = await embedder.embed([sharedText]);
    const hits = await index.vectorQuery(vector, 2);
    const holders = index.lexicalQuery('conference talks related material', 2).map((h) => h.id);
    assert.equal(holders.length, 2);
    assert.deepEqual(hits.map((h) => h.id).sort(), holders.sort());
    assert.equal(hits[0].score, hits[1].score);
  });

  it('a watcher run for one edited file, after a fill was stopped, also embeds every other passage still without a vector', async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const controller = new AbortController();
    await assert.rejects(
      index.update(folderDocSource(docs), {
        embedder,
        signal: controller.signal,
        commitEvery: { passages: 64 },
        onProgress: (p) => {
          if (p.vectors && p.vectors.passagesWithVectors >= 64) controller.abort();
        },
      }),
      (error: Error) => error.name === 'AbortError',
    );
    const kept = index.vectorFill().passagesWithVectors;
    await writeDocs(docs, {
      'travel/policy-0.md':
        '# travel policy 0\n\n## Limits\n\nTrain tickets are booked in second class for trips under four hours.\n',
    });
    const counted = counting(embedder);
    const report = await index.update(folderDocSource(docs), { embedder: counted, paths: ['travel/policy-0.md'] });
    assert.equal(report.updated, 1);
    // The edited file now has 1 passage instead of 4; the rest of the fill is done in the same run.
    assert.deepEqual(index.vectorFill(), { passagesWithVectors: passages - 3, passages: passages - 3 });
    // Not re-embedded: the kept vectors, except those of the edited file's 4 old passages (at most 4).
    const embedded = counted.texts.length;
    assert.ok(
      embedded >= passages - 3 - kept && embedded <= passages - 3 - (kept - 4),
      `embedded ${embedded} with ${kept} kept`,
    );
    assert.ok(counted.texts.some((t) => t.includes('Train tickets')));
  });

  it('searches hybrid over the passages with vectors while filling, and each answer carries the figure (CLI JSON too)', async () => {
    const lines = await runUntilPausedThenKill(docs, indexDir, modelDir, 64, 96);
    assert.ok(lines.includes('committed 64'));
    const settings = tinyEmbeddingSettings(modelDir);
    const engine = await Engine.open({ docs: folderDocSource(docs), indexDir, embedding: settings });
    const model = engine.createExtractiveModel();
    // No index run here: answer from what the killed run committed.
    const result = await engine.ask('Who approves travel requests for travel case 0?', { model });
    assert.equal(result.retrieval, 'hybrid');
    assert.deepEqual(result.partialRetrieval, { passagesWithVectors: 64, passages, percent: 32 });
    assert.deepEqual(toJson(result).partialRetrieval, { passagesWithVectors: 64, passages, percent: 32 });
    assert.deepEqual(engine.status().vectors, { passagesWithVectors: 64, passages });

    // Passages without a vector are still found by their words: every lexical top hit is in the fused top 6.
    const index = await PassageIndex.open(indexDir, docs);
    for (const query of ['hiring records rule', 'privacy limits manager', 'leave approval business days']) {
      const hits = (await new HybridRetriever(index, embedder).search(query, 6)).map((h) => h.passage.id);
      assert.ok(hits.includes(index.lexicalQuery(query, 1)[0].id), query);
    }

    await engine.index();
    const full = await engine.ask('Who approves travel requests for travel case 0?', { model });
    assert.equal(full.partialRetrieval, undefined);
    assert.equal('partialRetrieval' in toJson(full), false, 'the field is absent once every passage has its vector');
    assert.equal(engine.status().vectors, undefined);
  });
});
