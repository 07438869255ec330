import { strict as assert } from 'node:assert';
import { LexicalIndex, lexicalTerms } from '../../../../src/core/retrieval/lexicalIndex';
import type { Passage } from '../../../../src/domain/types';

function passage(id: string, text: string, heading = '', source = 'policies/general.md'): Passage {
  return {
    id,
    source,
    heading,
    headingPath: heading ? heading.split(' > ') : [],
    startLine: 1,
    endLine: 1,
    text,
    version: 'v1',
  };
}

const PASSAGES = [
  passage(
    'refund',
    'Annual plans are refunded pro rata within 90 days of purchase.',
    'Billing > Refunds',
    'policies/billing.md',
  ),
  passage(
    'renewal',
    'Turn off automatic renewal in the billing settings before the renewal date.',
    'Billing > Renewal',
    'policies/billing.md',
  ),
  passage(
    'parking',
    'Staff may park in the east garage. Visitors use the street.',
    'Office > Parking',
    'policies/office.md',
  ),
  passage(
    'laptop',
    'Laptops are issued on the first day. Report a lost laptop to the help desk.',
    'Equipment',
    'policies/equipment.md',
  ),
  passage(
    'long',
    `${'The office is open to staff who have a badge and who have read the rules of the building. '.repeat(6)}Parking is mentioned once here.`,
    'Office > Rules',
    'policies/office.md',
  ),
];

function built(passages = PASSAGES): LexicalIndex {
  const index = LexicalIndex.empty();
  index.add(passages);
  return index;
}

describe('lexical index (own BM25 over typed-array postings)', () => {
  it('analyses text into content terms: lower-cased, stop words and negations out, stems shared by word forms', () => {
    assert.deepEqual(lexicalTerms('What is the refund window for an Annual plan?'), [
      'refund',
      'window',
      'annual',
      'plan',
    ]);
    assert.deepEqual(lexicalTerms('refunded refunds'), lexicalTerms('refund refund'));
    assert.deepEqual(lexicalTerms('I do not have it, nor can I'), []);
    assert.deepEqual(lexicalTerms('Form SF-182, 3 days'), ['form', 'sf', '182', '3', 'dai']);
  });

  it('ranks the passage that holds the rare query terms first, and finds word forms through stems', () => {
    const index = built();
    assert.equal(index.query('How were refunds on yearly plans worked out?', 3)[0].id, 'refund');
    assert.equal(index.query('Where can visitors park?', 3)[0].id, 'parking');
    assert.equal(index.query('I lost my laptop', 3)[0].id, 'laptop');
  });

  it('matches nothing on a question made only of stop words, and nothing on unknown words', () => {
    const index = built();
    assert.deepEqual(index.query('What is it that they would have done?', 6), []);
    assert.deepEqual(index.query('zeppelin quokka', 6), []);
    assert.deepEqual(index.query('parking', 0), []);
  });

  it('weights heading terms over one passing mention in a long text', () => {
    const hits = built()
      .query('parking', 6)
      .map((h) => h.id);
    assert.deepEqual(hits.slice(0, 2), ['parking', 'long']);
  });

  it('returns at most `limit` hits, best first, with ties broken by id so results are stable', () => {
    const twins = [
      passage('b', 'Desk booking rules.'),
      passage('a', 'Desk booking rules.'),
      passage('c', 'Desk booking rules.'),
    ];
    const hits = built(twins).query('desk booking', 2);
    assert.deepEqual(
      hits.map((h) => h.id),
      ['a', 'b'],
    );
    assert.ok(hits[0].score > 0 && hits[0].score === hits[1].score);
  });

  it('removes passages exactly: scores afterwards equal those of an index built without them', () => {
    const index = built();
    index.remove(['renewal', 'long', 'not-there']);
    const fresh = built(PASSAGES.filter((p) => p.id !== 'renewal' && p.id !== 'long'));
    assert.equal(index.size, 3);
    assert.equal(index.has('renewal'), false);
    for (const q of ['billing renewal settings', 'parking office', 'laptop help desk', 'annual plans']) {
      assert.deepEqual(index.query(q, 6), fresh.query(q, 6), q);
    }
    index.add([PASSAGES[1]]);
    assert.equal(index.query('automatic renewal', 1)[0].id, 'renewal');
  });

  it('stays exact through many removals (dead postings are compacted) and re-additions', () => {
    const many = Array.from({ length: 600 }, (_, i) =>
      passage(`p${i}`, `Topic ${i % 7} about benefits, leave and travel number ${i}.`, `Section ${i % 5}`),
    );
    const index = built(many);
    index.remove(many.slice(0, 500).map((p) => p.id));
    const fresh = built(many.slice(500));
    for (const q of ['benefits leave', 'travel number 550', 'section 3 topic 2']) {
      assert.deepEqual(index.query(q, 10), fresh.query(q, 10), q);
    }
    index.add(many.slice(0, 10));
    assert.equal(index.size, 110);
    assert.equal(index.query('number 5', 1)[0].id, 'p5');

    // The same after a load: compaction must not write into the loaded bytes.
    const bytes = built(many).serialize();
    const copy = bytes.slice();
    const loaded = LexicalIndex.load(bytes);
    loaded.remove(many.slice(0, 500).map((p) => p.id));
    assert.deepEqual(bytes, copy);
    for (const q of ['benefits leave', 'travel number 550']) {
      assert.deepEqual(loaded.query(q, 10), fresh.query(q, 10), q);
    }
  });

  it('serialises to a binary blob that loads to the same answers, and keeps working after load', () => {
    const index = built();
    index.remove(['laptop']);
    const bytes = index.serialize();
    const loaded = LexicalIndex.load(bytes);
    assert.equal(loaded.size, 4);
    for (const q of ['refund annual', 'parking', 'renewal billing', 'laptop']) {
      assert.deepEqual(loaded.query(q, 6), index.query(q, 6), q);
    }
    // Loaded postings are views on the blob: adding and removing must not touch the blob.
    const copy = bytes.slice();
    loaded.add([PASSAGES[3]]);
    loaded.remove(['parking']);
    assert.deepEqual(bytes, copy);
    const fresh = built(PASSAGES.filter((p) => p.id !== 'parking'));
    for (const q of ['laptop desk', 'parking', 'office rules']) {
      assert.deepEqual(loaded.query(q, 6), fresh.query(q, 6), q);
    }
    // An unaligned copy of the blob loads too.
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    assert.deepEqual(LexicalIndex.load(shifted).query('refund', 1), index.query('refund', 1));
  });

  it('saves and loads an empty index', () => {
    const loaded = LexicalIndex.load(LexicalIndex.empty().serialize());
    assert.equal(loaded.size, 0);
    assert.deepEqual(loaded.query('anything', 6), []);
  });

  it('refuses a blob that is not a lexical index, or is truncated or corrupt, with a clear error', () => {
    const bytes = built().serialize();
    assert.throws(
      () => LexicalIndex.load(new TextEncoder().encode('{"json": "index from an older version"}')),
      /not a lexical index/,
    );
    assert.throws(() => LexicalIndex.load(bytes.subarray(0, 10)), /truncated/);
    assert.throws(() => LexicalIndex.load(bytes.subarray(0, bytes.length - 8)), /truncated or corrupt/);
    const wrongFormat = bytes.slice();
    new DataView(wrongFormat.buffer).setUint32(4, 99, true);
    assert.throws(() => LexicalIndex.load(wrongFormat), /format 99/);
    // A posting that points past the last passage (the last 8·n bytes are postings: ordinals, then weights).
    const badPosting = bytes.slice();
    const postings = new DataView(badPosting.buffer).getUint32(16, true);
    new DataView(badPosting.buffer).setUint32(badPosting.length - 8 * postings, 1_000_000, true);
    assert.throws(() => LexicalIndex.load(badPosting), /corrupt/);
  });

  it('saves only an index with the default analysis (tuned ones exist for the benchmark)', () => {
    const tuned = LexicalIndex.empty({ stemming: false });
    tuned.add(PASSAGES);
    assert.throws(() => tuned.serialize(), /default tuning/);
  });
});
