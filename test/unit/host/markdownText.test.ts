// Untrusted text put into Markdown (hovers, native chat) renders as exactly that text.

import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { escapeMarkdownLine, escapeMarkdownText, markdownCodeSpan } from '../../../src/host/markdownText';

const md = new MarkdownIt('commonmark', { html: false, linkify: true });

/** The text a reader sees: the content of the text tokens, and the tags markdown-it would create. */
function rendered(markdown: string): { text: string; markup: string[] } {
  const markup: string[] = [];
  let text = '';
  for (const block of md.parse(markdown, {})) {
    if (block.type !== 'inline') {
      if (!['paragraph_open', 'paragraph_close'].includes(block.type)) markup.push(block.type);
      continue;
    }
    if (text) text += '\n';
    for (const t of block.children ?? []) {
      if (t.type === 'text') text += t.content;
      else markup.push(t.type);
    }
  }
  return { text, markup };
}

describe('Markdown escaping of untrusted text', () => {
  const hostile = [
    'see https://evil.example/path?a=1 or www.evil.example',
    '<script>alert(1)</script> and <img src=x onerror="alert(2)">',
    '[click me](javascript:alert(3)) ![x](http://evil/x.png) <https://evil.example>',
    '**bold** _em_ `code` ~~gone~~ # not a heading',
    '1. not a list - nor this + nor that > nor a quote',
    'A &amp; B &#60;script&#62; \\[E1\\] [E2] | table | cell |',
    '$(alert) {braces} 100% ^caret @mention "quotes" \'single\' a=b',
  ];

  it('renders each hostile line as exactly its text, with no markup', () => {
    for (const line of hostile) {
      const out = rendered(escapeMarkdownLine(line));
      assert.deepEqual(out.markup, [], line);
      assert.equal(out.text, line);
    }
  });

  it('keeps lines as separate paragraphs and drops blank ones', () => {
    const out = rendered(escapeMarkdownText('# Title\n\n- item <b>one</b>\n   \n> quoted'));
    assert.deepEqual(out.markup, []);
    assert.equal(out.text, '# Title\n- item <b>one</b>\n> quoted');
  });

  it('puts a file path in a code span that holds it literally, backticks included', () => {
    for (const path of ['Policies/github-terms/site_policy.md', 'a`b``c.md', '`edge`.md', '<img onerror=x>.md']) {
      const tokens = md.parseInline(markdownCodeSpan(path), {})[0].children ?? [];
      assert.deepEqual(
        tokens.map((t) => [t.type, t.content]),
        [['code_inline', path]],
        path,
      );
    }
  });
});
