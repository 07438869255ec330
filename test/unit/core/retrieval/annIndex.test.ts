import { strict as assert } from 'node:assert';
import { readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { folderDocSource } from '../../../../src/core/docs/docSource';
import { setAnnLoader, setAnnLog, type AnnLibrary } from '../../../../src/core/retrieval/annIndex';
import { embeddingText } from '../../../../src/core/indexing/indexRun';
import { PassageIndex } from '../../../../src/core/store/local/passageIndex';
import { setAnnMinVectors } from '../../../../src/core/retrieval/vectorStore';
import type { Embedder } from '../../../../src/core/types';
import { removeDir, indexSnapshot, tempDir, writeDocs } from '../../../support/workspace';
import { loadTinyEmbedder } from '../../../support/tinyEmbedder';

const DOCS = {
  'refunds.md':
    '# Refunds\n\n## Annual plans\n\nAnnual plans are refundable pro rata within 90 days of purchase.\n\n## Monthly plans\n\nMonthly plans are not refundable.\n',
  'travel/lodging.md':
    '# Lodging\n\nHotel stays are reimbursed up to 180 dollars per night in large cities.\n\n## Meals\n\nMeals are covered at the federal per diem rate.\n',
  'security.md':
    '# Passwords\n\nPasswords must be at least 14 characters long and stored in the password manager.\n\n## Laptops\n\nLaptops are encrypted and locked after five minutes.\n',
  'leave.md':
    '# Leave\n\nAnnual leave accrues at four hours per pay period.\n\n## Sick leave\n\nSick leave accrues at four hours per pay period as well.\n',
};

/** The real usearch module, counting how often a graph is built (vectors added) and loaded. */
function countingUsearch(): { library: AnnLibrary; counts: { built: number; loaded: number } } {
  const real = require('usearch') as AnnLibrary;
  const counts = { built: 0, loaded: 0 };
  class Index extends real.Index {
    override add(...args: Parameters<InstanceType<typeof real.Index>['add']>) {
      counts.built++;
      return super.add(...args);
    }
    override load(file: string) {
      counts.loaded++;
      return super.load(file);
    }
  }
  return { library: { Index } as AnnLibrary, counts };
}

describe('vector search graph in the index folder: persisted, kept across edits, damage detected and rebuilt', function () {
  this.timeout(120_000);
  let docs: string;
  let indexDir: string;
  let embedder: Embedder;
  let counts: { built: number; loaded: number };
  let logged: string[];

  before(async () => {
    embedder = await loadTinyEmbedder();
  });

  beforeEach(async () => {
    docs = await tempDir();
    indexDir = await tempDir('evident-index-');
    await writeDocs(docs, DOCS);
    setAnnMinVectors(0); // the graph at every size (the fixture is small)
    const counting = countingUsearch();
    setAnnLoader(() => counting.library);
    counts = counting.counts;
    logged = [];
    setAnnLog((m) => logged.push(m));
  });

  afterEach(async () => {
    setAnnMinVectors(undefined);
    setAnnLoader(undefined);
    setAnnLog(() => {});
    await removeDir(docs);
    await removeDir(indexDir);
  });

  const run = async () => {
    const index = await PassageIndex.open(indexDir, docs);
    const report = await index.update(folderDocSource(docs), { embedder });
    return { index, report };
  };
  const manifest = async () => JSON.parse(await readFile(path.join(indexDir, 'manifest.json'), 'utf8'));
  /** The passage of `source` holding `fragment`, searched by its own vector: first, with the exact score 1. */
  const findsItself = async (index: PassageIndex, source: string, fragment: string) => {
    const passage = index.allPassages().find((p) => p.source === source && p.text.includes(fragment));
    assert.ok(passage, `${source}: ${fragment}`);
    const [vector] = await embedder.embed([embeddingText(passage)]);
    const [hit] = await index.vectorQuery(vector, 3);
    return hit?.id === passage.id && Math.abs(hit.score - 1) < 1e-5;
  };

  it('is written with the index, loaded (not rebuilt) on reopen, and an unchanged run writes nothing', async () => {
    await run();
    const m = await manifest();
    assert.ok(m.ann, 'the manifest names the graph');
    const files = await readdir(indexDir);
    assert.ok(files.includes(`${m.ann.stem}.usearch`) && files.includes(`${m.ann.stem}.ids`));
    assert.equal((await stat(path.join(indexDir, `${m.ann.stem}.usearch`))).size, m.ann.usearchBytes);
    assert.equal(counts.built, 1);
    const before = await indexSnapshot(indexDir);
    const { index } = await run();
    assert.deepEqual(await indexSnapshot(indexDir), before);
    assert.equal(counts.built, 1, 'not rebuilt');
    assert.ok(await findsItself(index, 'travel/lodging.md', 'Hotel stays'));
    assert.equal(counts.loaded, 1, 'the saved graph was loaded');
  });

  it("an edit keeps the graph on disk; the edit's passages are searched exactly until a rebuild", async () => {
    await run();
    const first = (await manifest()).ann;
    await writeFile(path.join(docs, 'security.md'), '# Passwords\n\nPasswords must be at least 16 characters long.\n');
    const { index: edited, report } = await run();
    assert.ok(report.embedded >= 1);
    assert.equal(counts.loaded, 0, "the edit run read the graph's ids, not the graph");
    // The same process queries next: the graph loads, without the passage the edit replaced.
    const [replacedVector] = await embedder.embed([
      'Passwords\nPasswords must be at least 14 characters long and stored in the password manager.',
    ]);
    for (const hit of await edited.vectorQuery(replacedVector, 20)) {
      assert.ok(edited.passage(hit.id), `${hit.id} is a live passage`);
    }
    assert.ok(await findsItself(edited, 'security.md', '16 characters'));
    assert.equal(counts.loaded, 1);
    const second = (await manifest()).ann;
    assert.equal(second.stem, first.stem, 'the same graph file');
    assert.equal(counts.built, 1, 'no rebuild for a small edit');
    const index = await PassageIndex.open(indexDir, docs);
    assert.ok(await findsItself(index, 'security.md', '16 characters'));
    // The replaced passage is gone from the results, though the graph file still holds it.
    const [old] = await embedder.embed([
      'Passwords\nPasswords must be at least 14 characters long and stored in the password manager.',
    ]);
    for (const hit of await index.vectorQuery(old, 20)) assert.ok(index.passage(hit.id), `${hit.id} is a live passage`);
    assert.equal(counts.loaded, 2, 'loaded by each index at its first query');
  });

  it('detects a cut-off graph file on open: says so, searches exactly, and the next run rebuilds it', async () => {
    await run();
    const m = await manifest();
    await truncate(path.join(indexDir, `${m.ann.stem}.usearch`), 64);
    const index = await PassageIndex.open(indexDir, docs);
    assert.match(
      index.openNotices.map((n) => n.text).join(' '),
      /vector search index is damaged \(ann-\S+\.usearch has 64 of its \d+ bytes\): searching all vectors exactly/,
    );
    assert.ok(await findsItself(index, 'travel/lodging.md', 'per diem'));
    assert.equal(counts.loaded, 0, 'the cut-off file never reached usearch');
    const report = await index.update(folderDocSource(docs), { embedder });
    assert.equal(report.embedded, 0, 'nothing re-embedded');
    assert.equal(counts.built, 2, 'rebuilt');
    const rebuilt = (await manifest()).ann;
    assert.notEqual(rebuilt.stem, m.ann.stem);
    assert.deepEqual((await PassageIndex.open(indexDir, docs)).openNotices, []);
  });

  it('never hands usearch a graph file whose bytes changed (same length): exact search, logged, rebuilt by the next run', async () => {
    await run();
    const m = await manifest();
    const file = path.join(indexDir, `${m.ann.stem}.usearch`);
    const bytes = await readFile(file);
    bytes.fill(0x5a, 16);
    await writeFile(file, bytes);
    const index = await PassageIndex.open(indexDir, docs);
    assert.deepEqual(index.openNotices, [], 'the length is right: found when the vectors load');
    assert.ok(await findsItself(index, 'leave.md', 'as well'));
    assert.equal(counts.loaded, 0);
    assert.equal(logged.length, 1);
    assert.match(
      logged[0],
      /vector search index ann-\S+ is unusable \(ann-\S+\.usearch is not the file that was saved \(its checksum differs\)\): searching all vectors exactly/,
    );
    await index.update(folderDocSource(docs), { embedder });
    assert.equal(counts.built, 2, 'rebuilt by the next run, though no document changed');
    assert.notEqual((await manifest()).ann.stem, m.ann.stem);
  });

  it('builds no graph and answers by exact search when the native module cannot load (load failure simulated)', async () => {
    setAnnLoader(() => {
      throw new Error('Could not find native build for usearch (simulated)');
    });
    const { index } = await run();
    assert.equal((await manifest()).ann, null);
    assert.ok(!(await readdir(indexDir)).some((n) => n.startsWith('ann-')));
    assert.ok(await findsItself(index, 'leave.md', 'Annual leave'));
    assert.equal(logged.length, 1);
    assert.match(
      logged[0],
      /Vector search is exact \(a full scan, slower above 10,000 passages\): the usearch native module could not load .*simulated/,
    );
  });

  it('drops a graph written by a machine whose module now fails to load, and keeps answering', async () => {
    await run();
    setAnnLoader(() => {
      throw new Error('The specified module could not be found (simulated)');
    });
    const index = await PassageIndex.open(indexDir, docs);
    assert.ok(await findsItself(index, 'refunds.md', 'Monthly plans are'));
  });
  it('builds the graph once per fill, at its last commit, not at every chunk commit', async () => {
    // 48 more documents of two passages each: the fill embeds in batches of 32 and commits every 32.
    const more: Record<string, string> = {};
    for (let i = 0; i < 48; i++) {
      more[`notes/note-${i}.md`] =
        `# Note ${i}\n\nBadge number ${i} opens door ${i * 7} of the annex.\n\n## Visitors ${i}\n\nVisitors sign in at desk ${i} before ${i + 8} o'clock.\n`;
    }
    await writeDocs(docs, more);
    const index = await PassageIndex.open(indexDir, docs);
    const report = await index.update(folderDocSource(docs), { embedder, commitEvery: { passages: 32 } });
    assert.ok((report.vectorCommits?.count ?? 0) >= 3, `chunk commits: ${report.vectorCommits?.count}`);
    assert.equal(counts.built, 1, 'one graph built for the whole fill');
    const m = await manifest();
    assert.ok(m.ann, 'the last commit wrote the graph');
    assert.equal(m.ann.rows, index.allPassages().length);
    await findsItself(index, 'notes/note-40.md', 'desk 40');
  });
});
