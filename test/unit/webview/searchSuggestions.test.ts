// Google's Search Suggestions in the chat view: built by an allow-list from inert parsed markup
// (links and shapes kept; scripts, handlers, foreign references gone), so nothing in it can run.

import { strict as assert } from 'node:assert';
import { renderResult } from '../../../src/webview/answerView';
import { renderSearchSuggestions } from '../../../src/webview/searchSuggestions';
import { groundedResult, setup, SUGGESTIONS } from '../../support/groundedTurn';

describe('chat view: Google Search Suggestions', () => {
  it('shows the search suggestions from an allow-list copy: links and shapes kept, scripts, handlers and foreign links gone', () => {
    const { dom, doc, calls, actions } = setup();
    const block = renderSearchSuggestions(doc, SUGGESTIONS, actions);
    assert.ok(block);
    doc.body.append(block);
    const root = block.shadowRoot;
    assert.ok(root);
    const html = root.innerHTML;
    for (const banned of [
      '<script',
      '<img',
      '<iframe',
      '<use',
      '<style',
      'onerror',
      'onclick',
      'javascript:',
      'style=',
      'evil.example',
    ]) {
      assert.ok(!html.includes(banned), `${banned} must not survive: ${html}`);
    }
    const links = [...root.querySelectorAll('a')];
    assert.deepEqual(
      links.map((a) => [a.textContent, a.getAttribute('href')]),
      [
        ['cafe mueller opening', 'https://www.google.com/search?q=cafe+mueller+opening&client=app'],
        ['bad link', null],
      ],
    );
    assert.ok(root.querySelector('svg circle'), 'the logo shape is kept');
    assert.equal(root.querySelectorAll('svg').length, 1, 'an svg left empty by the filter is dropped');
    assert.equal(root.querySelector('svg')?.namespaceURI, 'http://www.w3.org/2000/svg');
    links[0].click();
    links[1].click();
    assert.deepEqual(calls, ['link https://www.google.com/search?q=cafe+mueller+opening&client=app']);
    assert.equal((dom.window as unknown as { pwned?: number }).pwned, undefined);
    assert.equal(block.getAttribute('aria-label'), 'Google Search suggestions');
  });

  it('renders the suggestions block under a grounded answer, and nothing for empty or content-free markup', () => {
    const { doc, actions } = setup();
    assert.ok(
      renderResult(
        doc,
        { id: 't1', question: 'Q?', status: 'done', startedAt: 0 },
        groundedResult(),
        actions,
      ).querySelector('[data-testid="search-suggestions"]'),
    );
    assert.equal(renderSearchSuggestions(doc, '<script>x()</script><style>.a{}</style>', actions), undefined);
    const plain = groundedResult();
    delete plain.grounding;
    assert.equal(
      renderResult(doc, { id: 't1', question: 'Q?', status: 'done', startedAt: 0 }, plain, actions).querySelector(
        '[data-testid="search-suggestions"]',
      ),
      null,
    );
  });
});
