// No input makes a passage larger than the cap: unbroken tokens (base64, long URLs, lines without
// spaces) are cut to the cap, and headings are capped before they are copied into every passage
// of their section (a 108 KB heading once made a 156 MB index). Nothing is lost: a heading's
// overflow is kept as the first text of its section.

import { strict as assert } from 'node:assert';
import { chunkMarkdown } from '../../../../src/core/docs/chunker';
import { MAX_HEADING_CHARS, MAX_HEADING_PATH_CHARS, capHeading } from '../../../../src/core/docs/headingCap';
import { MAX_UNIT_CHARS } from '../../../../src/core/docs/overlongBlocks';
import type { Passage } from '../../../../src/domain/types';

/** A seeded pseudo-random generator (mulberry32): the same inputs on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function blob(rand: () => number, length: number, alphabet = BASE64): string {
  let out = '';
  while (out.length < length) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

function words(rand: () => number, count: number): string {
  return Array.from({ length: count }, () => blob(rand, 2 + Math.floor(rand() * 8), 'abcdefghijklmnopqrstuvwxyz')).join(
    ' ',
  );
}

function assertCapped(passages: Passage[], what: string): void {
  for (const p of passages) {
    assert.ok(
      p.text.length <= MAX_UNIT_CHARS,
      `${what}: a passage of ${p.text.length} characters (cap ${MAX_UNIT_CHARS})`,
    );
    assert.ok(p.heading.length <= MAX_HEADING_PATH_CHARS, `${what}: a heading path of ${p.heading.length} characters`);
    for (const h of p.headingPath) {
      assert.ok(h.length <= MAX_HEADING_CHARS, `${what}: a heading of ${h.length} characters`);
    }
  }
}

describe('passage caps: no input makes a passage longer than the cap', function () {
  this.timeout(120_000);

  it('a 600 KB base64 blob in a paragraph becomes passages of at most the cap, every character kept', () => {
    const data = blob(random(1), 600_000);
    const { passages } = chunkMarkdown('blob.md', `# Attachment\n\nThe key is below.\n\n${data}\n`);
    assertCapped(passages, 'base64 paragraph');
    assert.equal(
      passages
        .map((p) => p.text)
        .join('')
        .replace('The key is below.', ''),
      data,
      'the blob is kept whole, in order',
    );
  });

  it('caps unbroken tokens in every kind of block: list items, table cells, block quotes, HTML, code without line ends, a long URL', () => {
    const rand = random(2);
    const url = `https://example.com/${blob(rand, 200_000, 'abcdefghij/-_')}`;
    const doc = [
      '# Links',
      '',
      `See ${url} for details.`,
      '',
      `- first item ${blob(rand, 50_000)}`,
      `- second item ${blob(rand, 50_000)}`,
      '',
      '| Name | Value |',
      '| --- | --- |',
      `| token | ${blob(rand, 80_000)} |`,
      '',
      `> quoted ${blob(rand, 40_000)}`,
      '',
      `<div>${blob(rand, 40_000)}</div>`,
      '',
      '```',
      blob(rand, 90_000),
      '```',
      '',
      blob(rand, 70_000, '一二三四五六七八九十'),
      '',
    ].join('\n');
    const { passages } = chunkMarkdown('links.md', doc);
    assertCapped(passages, 'mixed blocks');
    assert.ok(
      passages.some((p) => p.text.includes('https://example.com/')),
      'the URL is still there',
    );
  });

  it('caps a 108 KB heading in the heading path and keeps its overflow as the first text of its section', () => {
    const rand = random(3);
    const heading = words(rand, 18_000);
    assert.ok(heading.length > 100_000);
    const body = Array.from(
      { length: 400 },
      (_, i) => `Paragraph ${i} explains rule ${i} of the handbook in plain words.`,
    ).join('\n\n');
    const { passages } = chunkMarkdown('long-heading.md', `# ${heading}\n\n${body}\n`);
    assertCapped(passages, 'long heading');
    const path = passages[0].headingPath[0];
    assert.ok(
      path.endsWith('…') && heading.startsWith(path.slice(0, -1)),
      'the heading path holds the start of the heading',
    );
    const stored = passages.reduce((n, p) => n + p.heading.length + p.text.length, 0);
    assert.ok(
      stored < 2 * (heading.length + body.length),
      `stored characters ${stored} stay proportional to the document, not to passages × heading`,
    );
    const all = passages
      .map((p) => p.text)
      .join(' ')
      .replace(/\s+/g, ' ');
    const rest = heading.slice(path.length - 1).trim();
    assert.ok(all.startsWith(rest), 'the rest of the heading opens its section: no word of it is lost');
    assert.ok(
      passages.some((p) => p.text.includes('Paragraph 399 explains')),
      'the body is all there',
    );
  });

  it('caps deep heading paths and a front-matter title', () => {
    const rand = random(4);
    const levels = Array.from({ length: 6 }, (_, i) => `${'#'.repeat(i + 1)} ${words(rand, 600)}`).join('\n\n');
    const { passages } = chunkMarkdown(
      'deep.md',
      `---\ntitle: ${words(rand, 900)}\n---\n\n${levels}\n\nThe rule at the bottom.\n`,
    );
    assertCapped(passages, 'deep headings');
    assert.ok(passages.some((p) => p.text.includes('The rule at the bottom.')));
  });

  it('holds on random documents: long headings, blobs, lists, tables, code, HTML and prose in any order', () => {
    const rand = random(5);
    const kinds = [
      () =>
        `${'#'.repeat(1 + Math.floor(rand() * 6))} ${rand() < 0.5 ? words(rand, 1 + Math.floor(rand() * 3000)) : blob(rand, 1 + Math.floor(rand() * 20_000))}`,
      () => words(rand, 1 + Math.floor(rand() * 800)),
      () => blob(rand, 1 + Math.floor(rand() * 30_000)),
      () =>
        Array.from(
          { length: 1 + Math.floor(rand() * 20) },
          () => `- ${rand() < 0.5 ? words(rand, 50) : blob(rand, 5000)}`,
        ).join('\n'),
      () =>
        [
          '| a | b |',
          '| --- | --- |',
          ...Array.from(
            { length: 1 + Math.floor(rand() * 30) },
            () => `| ${blob(rand, 10 + Math.floor(rand() * 4000))} | ${words(rand, 20)} |`,
          ),
        ].join('\n'),
      () =>
        [
          '```',
          rand() < 0.5 ? blob(rand, 10_000) : Array.from({ length: 200 }, () => words(rand, 12)).join('\n'),
          '```',
        ].join('\n'),
      () => `<p>${blob(rand, 1 + Math.floor(rand() * 10_000))}</p>`,
    ];
    for (let doc = 0; doc < 25; doc++) {
      const blocks = Array.from({ length: 1 + Math.floor(rand() * 12) }, () =>
        kinds[Math.floor(rand() * kinds.length)](),
      );
      const { passages } = chunkMarkdown(`random-${doc}.md`, blocks.join('\n\n'));
      assertCapped(passages, `random document ${doc}`);
    }
  });

  it('capHeading: short headings are unchanged; a long one is cut at a word end with an ellipsis, its rest returned', () => {
    assert.deepEqual(capHeading('Annual plans'), { heading: 'Annual plans', rest: '' });
    const long = `${'word '.repeat(100)}end`;
    const { heading, rest } = capHeading(long);
    assert.ok(heading.length <= MAX_HEADING_CHARS && heading.endsWith('…'));
    assert.equal(`${heading.slice(0, -1)} ${rest}`.replace(/\s+/g, ' '), long);
    const unbroken = 'x'.repeat(1000);
    const cut = capHeading(unbroken);
    assert.equal(cut.heading.length, MAX_HEADING_CHARS);
    assert.equal(cut.heading.slice(0, -1) + cut.rest, unbroken);
  });
});
