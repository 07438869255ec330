import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chunkMarkdown } from '../../../../src/core/docs/chunker';
import { annLibrary, setAnnLoader, setAnnLog } from '../../../../src/core/retrieval/annIndex';
import { loadEmbedder } from '../../../../src/core/retrieval/embedder';
import { embeddingText } from '../../../../src/core/indexing/indexRun';
import { setAnnMinVectors, VectorStore } from '../../../../src/core/retrieval/vectorStore';
import { tinyEmbeddingModelDir } from '../../../support/tinyEmbedder';
import { SHARED_DATA } from '../../../support/workspace';

const HANDBOOK = path.join(SHARED_DATA, 'corpora', '18f-handbook', 'pages');
const DEV = path.resolve(__dirname, '../../../../eval/dev/18f-handbook.jsonl');
const DIMS = 384;

/** The 18F handbook's travel and leave pages, chunked as Evident chunks them (a few hundred passages). */
function handbookPassages(): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  for (const folder of ['travel-and-leave', 'tools', 'getting-started']) {
    const dir = path.join(HANDBOOK, folder);
    for (const name of readdirSync(dir, { recursive: true }) as string[]) {
      if (!name.endsWith('.md')) continue;
      const rel = path.join(folder, name);
      for (const p of chunkMarkdown(rel, readFileSync(path.join(dir, name), 'utf8')).passages) {
        out.push({ id: p.id, text: embeddingText(p) });
      }
    }
  }
  return out;
}

const recall = (got: string[], want: string[]) => got.filter((id) => want.includes(id)).length / want.length;

// Real passages of the 18F handbook (../shared/data, outside the repository): skipped, saying why, without it.
const describeWithHandbook = existsSync(HANDBOOK) ? describe : describe.skip;
describeWithHandbook(
  `vector store: exact scan, and the usearch graph above its threshold${existsSync(HANDBOOK) ? '' : ` (skipped: the 18F handbook is not at ${HANDBOOK})`}`,
  function () {
    this.timeout(120_000);
    let items: { id: string; vector: Float32Array }[];
    let queries: Float32Array[];

    before(async () => {
      // Real embeddings of real passages: the generated 384-d model (bench:scale's) on handbook pages.
      const model = await tinyEmbeddingModelDir(DIMS);
      const embedder = await loadEmbedder({ modelId: model, allowRemote: false, dtype: 'fp32' });
      const passages = handbookPassages();
      const vectors = await embedder.embed(passages.map((p) => p.text));
      items = passages.map((p, i) => ({ id: p.id, vector: vectors[i] }));
      const questions = readFileSync(DEV, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { question: string }).question);
      queries = await embedder.embed(questions);
      assert.ok(items.length > 300, `fixture: ${items.length} passages`);
    });

    afterEach(() => {
      setAnnMinVectors(undefined);
      setAnnLoader(undefined);
      setAnnLog(() => {});
    });

    /** A store holding `items`, saved once (so a graph is built when the threshold allows). */
    const savedStore = async (rows = items) => {
      const store = new VectorStore(DIMS);
      store.add(rows);
      const plan = await store.planSave(() => 'vectors-1-0', 'ann-1');
      store.markSaved();
      return { store, plan };
    };

    it('searches exactly below the threshold (no graph is built)', async () => {
      const { store, plan } = await savedStore();
      assert.equal(plan.ann.kind, 'none');
      assert.equal(store.usesAnn, false);
      assert.deepEqual(store.query(queries[0], 30), store.exactQuery(queries[0], 30));
    });

    it('the graph agrees with the exact scan on real embeddings (recall@6 ≥ 0.97, recall@30 ≥ 0.95), with exact scores', async () => {
      setAnnMinVectors(0);
      const { store, plan } = await savedStore();
      assert.equal(plan.ann.kind, 'write');
      assert.equal(store.usesAnn, true);
      let r6 = 0;
      let r30 = 0;
      for (const q of queries) {
        const exact = store.exactQuery(q, 30);
        const got = store.query(q, 30);
        r6 += recall(
          got.slice(0, 6).map((h) => h.id),
          exact.slice(0, 6).map((h) => h.id),
        );
        r30 += recall(
          got.map((h) => h.id),
          exact.map((h) => h.id),
        );
        // Every score is the exact cosine of that passage (the int8 graph only proposes candidates).
        const exactScore = new Map(store.exactQuery(q, items.length).map((h) => [h.id, h.score]));
        for (const hit of got) assert.ok(Math.abs(hit.score - (exactScore.get(hit.id) ?? NaN)) < 1e-6, hit.id);
        assert.deepEqual(
          got.map((h) => h.score),
          [...got.map((h) => h.score)].sort((a, b) => b - a),
        );
      }
      assert.ok(r6 / queries.length >= 0.97, `recall@6 ${r6 / queries.length}`);
      assert.ok(r30 / queries.length >= 0.95, `recall@30 ${r30 / queries.length}`);
    });

    it('after the snapshot: added vectors are found, removed ones never come back, replaced ones score by their new vector', async () => {
      setAnnMinVectors(0);
      const { store } = await savedStore();
      const q = queries[0];
      const top = store.query(q, 6).map((h) => h.id);
      store.remove([top[0], top[1]]);
      const afterRemove = store.query(q, 30).map((h) => h.id);
      assert.ok(!afterRemove.includes(top[0]) && !afterRemove.includes(top[1]));
      assert.equal(afterRemove[0], top[2]);
      // A new passage whose vector is the question itself comes first.
      store.add([{ id: 'new-passage', vector: q }]);
      const added = store.query(q, 6);
      assert.equal(added[0].id, 'new-passage');
      assert.ok(Math.abs(added[0].score - 1) < 1e-5);
      // A passage of the snapshot given a new vector (the question's opposite): it drops out of the top.
      const replaced = top[3];
      store.add([{ id: replaced, vector: q.map((x) => -x) }]);
      assert.ok(!store.query(q, 30).some((h) => h.id === replaced));
      assert.ok(
        store.query(
          q.map((x) => -x),
          1,
        )[0].id === replaced,
      );
      assert.equal(store.usesAnn, true);
      assert.equal(store.size, items.length - 1);
    });

    it('keeps the snapshot for a small delta and rebuilds it when the delta grows past its share', async () => {
      setAnnMinVectors(0);
      const { store } = await savedStore();
      store.remove([items[0].id]);
      store.add([{ id: 'one-more', vector: items[1].vector }]);
      const small = await store.planSave(() => 'vectors-2-0', 'ann-2');
      store.markSaved();
      assert.equal(small.ann.kind, 'keep');
      assert.equal(small.ann.kind === 'keep' && small.ann.ref.stem, 'ann-1');
      // More than ANN_DELTA_MIN (500) changes: a new snapshot over every live vector.
      store.add(
        items
          .flatMap((item, i) => [0, 1].map((copy) => ({ id: `copy-${copy}-${i}`, vector: item.vector })))
          .slice(0, 600),
      );
      const big = await store.planSave(() => 'vectors-3-0', 'ann-3');
      assert.equal(big.ann.kind, 'write');
      assert.equal(big.ann.kind === 'write' && big.ann.snapshot.size, store.size);
      assert.equal(big.ann.kind === 'write' && big.ann.ref.stem, 'ann-3');
    });

    it('records, for the snapshot on disk, the ids whose vector was replaced since', async () => {
      setAnnMinVectors(0);
      const { store } = await savedStore();
      store.add([{ id: items[5].id, vector: items[6].vector }]);
      store.remove([items[7].id]);
      const plan = await store.planSave(() => 'vectors-2-0', 'ann-2');
      assert.equal(plan.ann.kind, 'keep');
      assert.deepEqual(plan.ann.kind === 'keep' && plan.ann.ref.replaced, [items[5].id]);
    });

    it('drops the graph when the store shrinks below the threshold', async () => {
      setAnnMinVectors(100);
      const { store } = await savedStore();
      assert.equal(store.usesAnn, true);
      store.remove(items.slice(0, items.length - 50).map((i) => i.id));
      const plan = await store.planSave(() => 'vectors-2-0', 'ann-2');
      assert.equal(plan.ann.kind, 'none');
      assert.equal(store.usesAnn, false);
      assert.equal(store.query(queries[0], 10).length, 10);
    });

    it('searches exactly when the usearch native module cannot load (load failure simulated), and logs why once', async () => {
      setAnnMinVectors(0);
      const logged: string[] = [];
      setAnnLog((m) => logged.push(m));
      setAnnLoader(() => {
        throw new Error('No native build was found for platform=win32 arch=arm64 (simulated)');
      });
      assert.equal(annLibrary(), undefined);
      const first = await savedStore();
      const second = await savedStore();
      assert.equal(first.plan.ann.kind, 'none');
      assert.equal(second.store.usesAnn, false);
      for (const q of queries.slice(0, 5)) assert.deepEqual(first.store.query(q, 30), first.store.exactQuery(q, 30));
      assert.equal(logged.length, 1);
      assert.match(logged[0], /exact.*usearch native module could not load.*win32 arch=arm64/);
      // With the module back, the graph is built again.
      setAnnLoader(undefined);
      assert.equal((await savedStore()).store.usesAnn, true);
    });
  },
);
