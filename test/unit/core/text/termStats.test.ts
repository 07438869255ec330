import { strict as assert } from 'node:assert';
import { TermCounts, termStatsFromTexts } from '../../../../src/core/text/termStats';

const TEXTS = [
  'Hotel stays are reimbursed per night.',
  'Refunds of annual plans within 90 days.',
  'Hotel refunds need a receipt.',
];

describe('term counts: stored as lines, read back equal, stats stable while counts change', () => {
  const counts = () => {
    const c = new TermCounts();
    for (const t of TEXTS) c.add(t);
    return c;
  };
  const TERMS = ['hotel', 'refund', 'night', 'receipt', 'never-seen'];

  it('reads back what it wrote (and the JSON of indexes written before), with the same weights', () => {
    const original = counts().stats();
    const text = counts().serialize();
    assert.match(text, /^evident-terms 1 3\n/);
    for (const parsed of [TermCounts.parse(text), TermCounts.parse(counts().toJSON())]) {
      const stats = parsed.stats();
      for (const term of TERMS) assert.equal(stats.idf(term), original.idf(term), term);
    }
  });

  it('refuses a file that is not term counts, naming the bad line', () => {
    assert.throws(() => TermCounts.parse('hello world'), /not a term count file/);
    assert.throws(() => TermCounts.parse('evident-terms 1 3\nhotel\t2\nbroken line'), /bad line 3/);
    assert.throws(() => TermCounts.parse('evident-terms 1 3\nhotel\t0'), /bad line 2/);
  });

  it('keeps handed-out stats as they were when the counts change afterwards (copy on write)', () => {
    const c = counts();
    const before = c.stats();
    const hotel = before.idf('hotel');
    c.add('Hotel hotel hotel everywhere.');
    c.remove(TEXTS[1]);
    assert.equal(before.idf('hotel'), hotel);
    const recount = termStatsFromTexts([TEXTS[0], TEXTS[2], 'Hotel hotel hotel everywhere.']);
    for (const term of TERMS) assert.equal(c.stats().idf(term), recount.idf(term), term);
  });
});
