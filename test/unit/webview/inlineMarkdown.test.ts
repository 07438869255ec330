// One sentence of model text as DOM (src/webview/inlineMarkdown.ts): emphasis, code and web links
// become nodes; markup in the text stays text (a `<script>` or `<img onerror>` never becomes an
// element); citations become the caller's nodes; a link that is not http(s) is only its label.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { isWebUrl, renderInline, textWithCitations, type InlineContext } from '../../../src/webview/inlineMarkdown';

function context(): { ctx: InlineContext; doc: Document; links: string[] } {
  const doc = new JSDOM('<!doctype html><html><body></body></html>').window.document;
  const links: string[] = [];
  const ctx: InlineContext = {
    doc,
    citation: (id) => {
      const chip = doc.createElement('span');
      chip.className = 'chip';
      chip.textContent = id;
      return chip;
    },
    webLink: (href, label) => {
      links.push(href);
      const a = doc.createElement('a');
      a.setAttribute('href', href);
      a.textContent = label;
      return a;
    },
  };
  return { ctx, doc, links };
}

function render(source: string): { root: HTMLElement; links: string[] } {
  const { ctx, doc, links } = context();
  const root = doc.createElement('div');
  root.append(renderInline(source, ctx));
  return { root, links };
}

describe('inline Markdown of model text', () => {
  it('never renders text as markup: <script>, <img onerror> and raw HTML stay characters', () => {
    const source = 'Leave is 25 days <script>alert(1)</script> and <img src=x onerror="alert(2)"> <b>bold?</b> [E1].';
    const { root } = render(source);
    assert.equal(root.querySelector('script, img, b'), null);
    assert.equal(
      root.textContent,
      'Leave is 25 days <script>alert(1)</script> and <img src=x onerror="alert(2)"> <b>bold?</b> E1.',
    );
    assert.equal(root.querySelectorAll('.chip').length, 1);
  });

  it('renders emphasis, strong, strikethrough and code spans as elements holding their text', () => {
    const { root } = render('*some* **very** ~~old~~ `evident.model` text');
    assert.equal(root.querySelector('em')?.textContent, 'some');
    assert.equal(root.querySelector('strong')?.textContent, 'very');
    assert.equal(root.querySelector('s')?.textContent, 'old');
    assert.equal(root.querySelector('code')?.textContent, 'evident.model');
    assert.equal(root.textContent, 'some very old evident.model text');
  });

  it('gives web links to the caller; a mailto: link or an image is only its text, a javascript: link its characters', () => {
    const { root, links } = render(
      'See [the policy](https://example.com/leave), [HR](mailto:hr@example.com), [this](javascript:alert(1)) and ![logo](https://example.com/x.png).',
    );
    assert.deepEqual(links, ['https://example.com/leave']);
    assert.equal(root.querySelectorAll('a').length, 1);
    assert.equal(root.querySelector('img'), null);
    assert.equal(root.textContent, 'See the policy, HR, [this](javascript:alert(1)) and logo.');
  });

  it('replaces each cited id of a group with a citation node, keeping the text around them', () => {
    const { ctx } = context();
    const nodes = textWithCitations('Yes [E1, E3] and no [E2].', ctx);
    assert.deepEqual(
      nodes.map((n) => [n.nodeName, n.textContent]),
      [
        ['#text', 'Yes '],
        ['SPAN', 'E1'],
        ['SPAN', 'E3'],
        ['#text', ' and no '],
        ['SPAN', 'E2'],
        ['#text', '.'],
      ],
    );
  });

  it('a line break inside a sentence is a space', () => {
    assert.equal(render('one\ntwo').root.textContent, 'one two');
  });

  it('takes only http(s) URLs as web URLs', () => {
    assert.ok(isWebUrl('https://example.com'));
    assert.ok(isWebUrl('http://example.com/a'));
    for (const href of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'command:evident.reindex',
      'data:text/html,x',
      'not a url',
    ]) {
      assert.equal(isWebUrl(href), false, href);
    }
  });
});
