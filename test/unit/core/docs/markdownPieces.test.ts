import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chunkMarkdown } from '../../../../src/core/docs/chunker';
import { pieceStarts } from '../../../../src/core/docs/markdownPieces';
import { CORPORA, describeWithCorpora } from '../../../support/sharedData';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return /\.md$/i.test(name) ? [file] : [];
  });
}

/** Whole-document parse vs. pieces as small as the cuts allow: the passages must be the same. */
function assertSamePassages(source: string, text: string): number {
  const whole = chunkMarkdown(source, text, { maxWords: 200, pieceChars: Infinity }).passages;
  const pieces = chunkMarkdown(source, text, { maxWords: 200, pieceChars: 1 }).passages;
  assert.deepEqual(pieces, whole, `${source}: parsing in pieces changed the passages`);
  return pieceStarts(text, 1).length;
}

// Without the shared corpora (outside the repository) the check cannot run: skipped, saying why.
describeWithCorpora(
  ['site-policy', '18f-handbook', 'k8s-community'],
  'markdownPieces: long documents parsed in pieces',
  () => {
    it('gives the same passages as one parse for the documents of the shared corpora (cut at every allowed heading)', function () {
      this.timeout(240_000);
      let documents = 0;
      let cut = 0;
      // Every document of site-policy and the 18F handbook, every third of k8s-community (all of
      // them take a minute; they passed when this was written).
      const files = [
        ...markdownFiles(join(CORPORA, 'site-policy')),
        ...markdownFiles(join(CORPORA, '18f-handbook')),
        ...markdownFiles(join(CORPORA, 'k8s-community'))
          .sort()
          .filter((_, i) => i % 3 === 0),
      ];
      {
        for (const file of files) {
          const pieces = assertSamePassages(file, readFileSync(file, 'utf8'));
          documents++;
          if (pieces > 1) cut++;
        }
      }
      // The comparison means something only if most documents were actually cut.
      assert.ok(documents > 500, `${documents} documents`);
      assert.ok(cut > documents / 3, `only ${cut} of ${documents} documents were cut`);
    });

    it('does not cut inside a fenced code block, raw HTML or front matter', () => {
      const fenced = ['intro', '', '```sh', '', '# not a heading', '```', '', '# Real', 'text'].join('\n');
      assert.deepEqual(pieceStarts(fenced, 1), [0, 7]);
      const tildes = ['intro', '', '~~~', '', '# inside', '```', '', '# inside too', '~~~~', '', '# Real', 'x'].join(
        '\n',
      );
      assert.deepEqual(pieceStarts(tildes, 1), [0, 10]);
      const pre = ['intro', '', '<pre>', '', '# inside', '</pre>', '', '# Real', 'x'].join('\n');
      assert.deepEqual(pieceStarts(pre, 1), [0, 7]);
      const front = ['---', 'title: T', '', '# yaml comment', '---', '', '# Real', 'x'].join('\n');
      assert.deepEqual(pieceStarts(front, 1), [0, 6]);
      assert.deepEqual(pieceStarts(['---', 'never closed', '', '# H', 'x'].join('\n'), 1), [0]);
      // A heading right after text (no blank line) is not a cut, nor is an indented one.
      assert.deepEqual(pieceStarts(['para', '# H', '', '   # indented', '', '# Cut', 'x'].join('\n'), 1), [0, 5]);
      // Short documents are parsed whole.
      assert.deepEqual(pieceStarts(fenced, 10_000), [0]);
    });

    it('gives the same passages where a line scan misreads the blocks (a fence in a list item closed by a heading, CRLF, tables, lists)', () => {
      const cases: [string, string][] = [
        // The fence opened in the list item is closed by the heading in a real parse; the scan
        // thinks it is still open, then reads the next fence line as its close: the piece that
        // ends inside the real second fence is parsed again with the rest.
        [
          'list-fence.md',
          [
            '- item',
            '  ```',
            '  code',
            '',
            '# Heading one',
            'text',
            '',
            '  ```',
            'inside a real fence',
            '',
            '# not a heading',
            'more',
            '```',
            '',
            '# Two',
            'end',
          ].join('\n'),
        ],
        [
          'crlf.md',
          [
            '# A',
            '',
            'one',
            '',
            '# B',
            '',
            '| a | b |',
            '| - | - |',
            '| 1 | 2 |',
            '',
            '# C',
            '- x',
            '- y',
            '',
            '# D',
            'z',
          ].join('\r\n'),
        ],
        [
          'quote.md',
          [
            '> quoted',
            '> lines',
            '',
            '# H',
            '    indented code',
            '',
            '# I',
            '1. one',
            '2. two',
            '',
            '## J',
            'para',
          ].join('\n'),
        ],
        [
          'html.md',
          ['<div>', 'block', '</div>', '', '# H', '<script>', '', '# in script', '</script>', '', '# K', 'x'].join(
            '\n',
          ),
        ],
        ['front.md', ['---', 'title: Handbook', '---', '', '## One', 'a', '', '## Two', 'b'].join('\n')],
        // Link reference definitions in another piece (in a list item, before and after the use,
        // more definitions than the piece has lines in front) resolve as in one parse.
        [
          'definitions.md',
          [
            'See [the guide][g] and [Tim].',
            '',
            '# H',
            '- [tim]: /people/tim',
            '',
            '# I',
            'Ask [Tim] or [g].',
            '',
            '# J',
            '[g]: https://example.com',
            '',
            '# K',
            '[unknown] stays text',
          ].join('\n'),
        ],
        [
          'many-definitions.md',
          [
            '# A',
            '',
            '# B',
            '[a] [b] [c] [d] [e]',
            '',
            '# C',
            '[a]: /a',
            '[b]: /b',
            '[c]: /c',
            '[d]: /d',
            '[e]: /e',
          ].join('\n'),
        ],
        [
          'not-a-definition.md',
          ['# A', 'text', '[x]: /not-a-definition-inside-a-paragraph', '', '# B', 'use [x]'].join('\n'),
        ],
        ['unclosed.md', ['# A', 'x', '', '```', 'never closed', '', '# B', 'y'].join('\n')],
      ];
      for (const [source, text] of cases) assertSamePassages(source, text);
    });
  },
);
