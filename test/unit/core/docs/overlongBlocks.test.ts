// Over-long blocks become passage-sized parts: a 1.9 MB single-line document no longer makes
// one 1.9 MB passage (and a multi-megabyte answer); sentences first, then words, then length.

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { chunkMarkdown } from '../../../../src/core/docs/chunker';
import { MAX_UNIT_CHARS, splitOverlongUnit } from '../../../../src/core/docs/overlongBlocks';
import { runCli } from '../../../support/cli';
import { removeDir, tempDir, writeDocs } from '../../../support/workspace';

/** About `bytes` of sentences on one line; sentence `i` names its number. */
function oneLine(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const s = `Clause ${i} says the review board meets on weekday ${i % 7} at room ${i % 97}.`;
    parts.push(s);
    size += s.length + 1;
  }
  return parts.join(' ');
}

describe('over-long blocks', function () {
  this.timeout(120_000);

  it('splits a 1.9 MB single-line document into bounded passages that keep every word', () => {
    const line = oneLine(1.9 * 1024 * 1024);
    const doc = `# Minutes\n\n${line}\n`;
    const { passages } = chunkMarkdown('minutes.md', doc);
    assert.ok(passages.length > 100, `${passages.length} passages`);
    const longest = Math.max(...passages.map((p) => p.text.length));
    assert.ok(longest <= MAX_UNIT_CHARS, `longest passage ${longest} chars`);
    assert.ok(passages.every((p) => p.text.split(/\s+/).length <= 200));
    assert.equal(passages.map((p) => p.text).join(' '), line, 'no text lost or reordered');
    assert.ok(passages.every((p) => p.startLine === 3 && p.endLine === 3 && p.heading === 'Minutes'));
    assert.ok(passages[0].text.startsWith('Clause 0 says') && /\.$/.test(passages[0].text), 'cut at a sentence end');
  });

  it('cuts a sentence with no end by words, and a run with no spaces by length', () => {
    const words = Array.from({ length: 450 }, (_, i) => `w${i}`).join(' ');
    const byWords = splitOverlongUnit({ startLine: 1, endLine: 1, text: words, words: 450 }, 200);
    assert.deepEqual(
      byWords.map((u) => u.words),
      [200, 200, 50],
    );
    const blob = 'x'.repeat(10_000);
    const byLength = splitOverlongUnit({ startLine: 4, endLine: 4, text: blob, words: 1 }, 200);
    assert.deepEqual(
      byLength.map((u) => u.text.length),
      [3000, 3000, 3000, 1000],
    );
    assert.ok(byLength.every((u) => u.startLine === 4 && u.endLine === 4));
  });

  it('leaves blocks that fit alone, and keeps a code block whole unless it passes the character cap', () => {
    const small = { startLine: 2, endLine: 5, text: 'A short paragraph.', words: 3 };
    assert.deepEqual(splitOverlongUnit(small, 200), [small]);
    const code = Array.from({ length: 300 }, (_, i) => `let v${i} = ${i};`).join('\n');
    const codeUnit = { startLine: 1, endLine: 300, text: code, words: 1200 };
    assert.ok(code.length > MAX_UNIT_CHARS);
    const parts = splitOverlongUnit(codeUnit, 200, true);
    assert.ok(parts.length > 1 && parts.every((p) => p.text.length <= MAX_UNIT_CHARS));
    assert.equal(parts.map((p) => p.text).join('\n'), code, 'split at line ends, lines intact');
    const shortCode = {
      startLine: 1,
      endLine: 3,
      text: Array.from({ length: 250 }, (_, i) => `x${i}`).join(' '),
      words: 250,
    };
    assert.deepEqual(
      splitOverlongUnit(shortCode, 200, true),
      [shortCode],
      'a code block over the word budget but under the cap stays whole',
    );
  });

  it('CLI: the answer from a 1.9 MB single-line document stays small', async () => {
    const work = await tempDir('evident-overlong-');
    try {
      const docs = path.join(work, 'docs');
      await writeDocs(docs, { 'minutes.md': `# Minutes\n\n${oneLine(1.9 * 1024 * 1024)}\n` });
      const run = await runCli(
        [
          'ask',
          '--docs',
          docs,
          '--no-embeddings',
          '--json',
          '--question',
          'When does the review board meet in room 42?',
        ],
        { XDG_CACHE_HOME: path.join(work, 'cache') },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.length < 100_000, `answer JSON is ${run.stdout.length} bytes`);
      const out = JSON.parse(run.stdout);
      assert.ok(out.evidence.every((e: { text: string }) => e.text.length <= MAX_UNIT_CHARS));
    } finally {
      await removeDir(work);
    }
  });
});
