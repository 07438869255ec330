import { strict as assert } from 'node:assert';
import { setAnnMinVectors, VectorStore } from '../../../../src/core/retrieval/vectorStore';

const DIMS = 8;

/** A seeded unit vector per number, so stores built in different ways hold the same rows. */
function vectorOf(n: number): Float32Array {
  let x = (n + 1) * 2654435761;
  const v = new Float32Array(DIMS);
  for (let i = 0; i < DIMS; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[i] = x / 2147483648 - 0.5;
  }
  const norm = Math.hypot(...v);
  return v.map((a) => a / norm);
}

describe('vector store segments: compaction keeps the largest segment and every live row', () => {
  beforeEach(() => setAnnMinVectors(Infinity)); // exact search only: this is about segments
  afterEach(() => setAnnMinVectors(undefined));

  /** One big segment (a first fill), then `smalls` saves of a few rows each (edits). */
  async function storeWithSegments(smalls: number): Promise<{ store: VectorStore; stems: string[][] }> {
    const store = new VectorStore(DIMS);
    const stems: string[][] = [];
    let n = 0;
    const save = async () => {
      const plan = await store.planSave(() => `s${n++}`);
      stems.push(plan.write.map((w) => w.stem));
      store.markSaved();
      return plan;
    };
    store.add(Array.from({ length: 400 }, (_, i) => ({ id: `big-${i}`, vector: vectorOf(i) })));
    await save();
    for (let k = 0; k < smalls; k++) {
      store.add(Array.from({ length: 5 }, (_, i) => ({ id: `small-${k}-${i}`, vector: vectorOf(1000 + k * 5 + i) })));
      await save();
    }
    return { store, stems };
  }

  it('merges the small segments into one and neither rewrites nor moves the largest', async () => {
    const { store } = await storeWithSegments(7); // 8 segments on disk: the limit
    store.add(Array.from({ length: 5 }, (_, i) => ({ id: `small-7-${i}`, vector: vectorOf(1035 + i) }))); // a ninth
    const question = vectorOf(7);
    const before = store.exactQuery(question, 30);
    store.remove(['small-3-1', 'big-17']);
    const plan = await store.planSave(() => 'merged');
    assert.equal(plan.compacted, true);
    assert.deepEqual(
      plan.write.map((w) => w.stem),
      ['merged'],
      'only the merged segment is written',
    );
    assert.equal(plan.write[0].ids.length, 8 * 5 - 1, 'the live rows of the small segments, the removed one left out');
    assert.deepEqual(
      plan.refs.map((r) => r.stem),
      ['s0', 'merged'],
      'the big segment keeps its file',
    );
    assert.deepEqual(plan.refs[0].dead.length, 1, 'its removed row is recorded as dead, not copied away');
    store.markSaved();
    const after = store.exactQuery(question, 30);
    assert.deepEqual(
      after.map((h) => h.id),
      before
        .map((h) => h.id)
        .filter((id) => id !== 'small-3-1' && id !== 'big-17')
        .slice(0, after.length),
    );
    assert.equal(store.size, 400 + 40 - 2);
    assert.ok(!store.has('small-3-1') && !store.has('big-17') && store.has('small-7-4'));
  });

  it('compacts everything into one segment when dead rows pass their share', async () => {
    const { store } = await storeWithSegments(2);
    store.remove(Array.from({ length: 150 }, (_, i) => `big-${i}`));
    const plan = await store.planSave(() => 'all');
    assert.equal(plan.compacted, true);
    assert.deepEqual(
      plan.refs.map((r) => r.stem),
      ['all'],
    );
    assert.equal(plan.write[0].ids.length, 250 + 10);
    assert.deepEqual(plan.refs[0].dead, []);
  });
});
