// A passage's preview text (src/webview/passageText.ts): list lines as lists, heading lines bold,
// a document's own "[E2]" as text (not a citation), links as their label only, markup as text.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderPassageText } from '../../../src/webview/passageText';

function render(text: string): HTMLElement {
  const doc = new JSDOM('<!doctype html><html><body></body></html>').window.document;
  const root = doc.createElement('div');
  root.append(renderPassageText(doc, text));
  return root;
}

describe('passage preview text', () => {
  it('renders bullet and numbered lines as lists, a heading line in bold, other lines as lines', () => {
    const root = render('## Annual leave\nEmployees get:\n- 25 days\n* [x] carried over\n\n1. first\n2) second');
    assert.equal(root.querySelector('strong.preview-line')?.textContent, 'Annual leave');
    assert.deepEqual(
      [...root.querySelectorAll('ul li')].map((li) => li.textContent),
      ['25 days', 'carried over'],
    );
    assert.deepEqual(
      [...root.querySelectorAll('ol li')].map((li) => li.textContent),
      ['first', 'second'],
    );
    assert.deepEqual(
      [...root.children].map((c) => c.tagName.toLowerCase()),
      ['strong', 'span', 'ul', 'ol'],
    );
  });

  it("keeps a document's markup, its own [E2] and its links' targets out of the DOM", () => {
    const root = render('See [E2] and <img src=x onerror="alert(1)"> or [the form](https://example.com/form).');
    assert.equal(root.querySelector('img, a, .chip'), null);
    assert.equal(root.textContent, 'See [E2] and <img src=x onerror="alert(1)"> or the form.');
  });

  it('starts a new list after a blank line or a line of text', () => {
    const root = render('- a\ntext\n- b');
    assert.equal(root.querySelectorAll('ul').length, 2);
  });
});
