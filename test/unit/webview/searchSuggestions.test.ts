// Google's Search Suggestions in the chat view: built by an allow-list from inert parsed markup
// (links and shapes kept; scripts, handlers, foreign references gone), so nothing in it can run.

import { strict as assert } from 'node:assert';
import { JSDOM } from 'jsdom';
import { renderResult, type TurnActions } from '../../../src/webview/answerView';
import { renderSearchSuggestions } from '../../../src/webview/searchSuggestions';
import type { Evidence, SentenceVerdict, TurnResult } from '../../../src/domain/types';

function web(id: string, uri: string, title: string, text = ''): Evidence {
  return { id, passageId: `chunk:${id}`, source: uri, startLine: 0, endLine: 0, heading: title, text, version: '', uri, title };
}

function sentence(text: string, start: number, verdict: SentenceVerdict['verdict'], citations: string[], code: SentenceVerdict['code'] = 'supported'): SentenceVerdict {
  return { text, citations, verdict, code, reason: code === 'supported' ? 'supported' : `${code}: no grounding support covers this sentence`, support: verdict === 'kept' ? 1 : 0, start, end: start + text.length, tier: 'grounding' };
}

/** Suggestions markup in the shape Google sends (our own CSS and chips), plus hostile extras. */
const SUGGESTIONS = [
  '<style>.container { display: flex; border-radius: 8px; } .chip { border-radius: 16px; padding: 5px 16px; } @import url("https://evil.example/x.css");</style>',
  '<div class="container"><div class="headline"><svg class="logo" width="18" height="18" viewBox="0 0 18 18"><circle cx="9" cy="9" r="8" fill="#4285F4"/><use href="https://evil.example/sprite.svg#a"/></svg></div>',
  '<div class="carousel"><a class="chip" href="https://www.google.com/search?q=cafe+mueller+opening&client=app">cafe mueller opening</a>',
  '<a class="chip" href="javascript:alert(1)">bad link</a></div></div>',
  '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"><iframe srcdoc="<script>parent.pwned=3</script>"></iframe>',
  '<div class="x" onclick="window.pwned = 4" style="color: red">styled</div><svg onload="window.pwned = 5"></svg>',
].join('');

function setup() {
  const dom = new JSDOM('<!DOCTYPE html><body></body>', { runScripts: 'outside-only' });
  const calls: string[] = [];
  const actions: TurnActions = {
    openEvidence: (t, e) => calls.push(`open ${t} ${e}`),
    openLink: (u) => calls.push(`link ${u}`),
    copyAnswer: () => {},
    openInEditor: () => {},
    retry: () => {},
    regenerate: () => {},
    feedback: () => {},
    ask: () => {},
    runCommand: () => {},
  };
  return { dom, doc: dom.window.document, calls, actions };
}

const TEXT = 'Café Müller opened in 1926. Its terrace seats forty guests. It runs a ferry to the moon.';
function groundedResult(): TurnResult {
  const s1 = 'Café Müller opened in 1926.';
  const s2 = 'Its terrace seats forty guests.';
  const s3 = 'It runs a ferry to the moon.';
  return {
    invocationId: 'inv',
    question: 'When did it open?',
    answer: `${s1} ${s2}`,
    abstained: false,
    sentences: [sentence(s1, 0, 'kept', ['E1']), sentence(s2, TEXT.indexOf(s2), 'kept', ['E2']), sentence(s3, TEXT.indexOf(s3), 'dropped', [], 'no-grounding-support')],
    evidence: [web('E1', 'https://www.history.example.org/cafe', 'Café history'), web('E2', 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC', 'visit-dus.example.com')],
    metrics: { retrieved: 2, coverage: 2 / 3, dropped: 1, abstained: false },
    model: 'google-search:gemini-2.5-flash',
    retrieval: 'google-search',
    grounding: { route: 'google-search', supports: [], queries: ['cafe mueller opening'], searchSuggestions: SUGGESTIONS },
    notices: [],
  };
}

describe('chat view: Google Search Suggestions', () => {
  it('shows the search suggestions from an allow-list copy: links and shapes kept, scripts, handlers and foreign links gone', () => {
    const { dom, doc, calls, actions } = setup();
    const block = renderSearchSuggestions(doc, SUGGESTIONS, actions);
    assert.ok(block);
    doc.body.append(block);
    const root = block.shadowRoot;
    assert.ok(root);
    const html = root.innerHTML;
    for (const banned of ['<script', '<img', '<iframe', '<use', '<style', 'onerror', 'onclick', 'javascript:', 'style=', 'evil.example']) {
      assert.ok(!html.includes(banned), `${banned} must not survive: ${html}`);
    }
    const links = [...root.querySelectorAll('a')];
    assert.deepEqual(links.map((a) => [a.textContent, a.getAttribute('href')]), [
      ['cafe mueller opening', 'https://www.google.com/search?q=cafe+mueller+opening&client=app'],
      ['bad link', null],
    ]);
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
    assert.ok(renderResult(doc, { id: 't1', question: 'Q?', status: 'done', startedAt: 0 }, groundedResult(), actions).querySelector('[data-testid="search-suggestions"]'));
    assert.equal(renderSearchSuggestions(doc, '<script>x()</script><style>.a{}</style>', actions), undefined);
    const plain = groundedResult();
    delete plain.grounding;
    assert.equal(renderResult(doc, { id: 't1', question: 'Q?', status: 'done', startedAt: 0 }, plain, actions).querySelector('[data-testid="search-suggestions"]'), null);
  });
});
