// Web-source chips of built-in grounding in the chat view: after the kept sentences (domain), in
// Sources (title and domain), a preview with title, URL and text, opened through the host.

import { strict as assert } from 'node:assert';
import { JSDOM } from 'jsdom';
import { renderResult, type TurnActions } from '../../../src/webview/answerView';
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

describe('chat view: web-source chips (built-in grounding)', () => {
  it('puts web-source chips (domain) after the kept sentences, none on the dropped one, and opens them through the host', () => {
    const { doc, calls, actions } = setup();
    const answer = renderResult(doc, { id: 't1', question: 'Q?', status: 'done', startedAt: 0 }, groundedResult(), actions);
    doc.body.append(answer);
    const kept = [...answer.querySelectorAll('[data-testid="sentence"]')];
    assert.deepEqual(kept.map((k) => k.querySelector('[data-testid="web-source"]')?.getAttribute('data-domain')), ['history.example.org', 'visit-dus.example.com']);
    const dropped = answer.querySelector('[data-testid="dropped-sentence"]');
    assert.ok(dropped);
    assert.equal(dropped.querySelector('[data-testid="web-source"]'), null);
    assert.match(dropped.textContent ?? '', /dropped: no-grounding-support/);
    (kept[0].querySelector('[data-testid="web-source"]') as HTMLElement).click();
    assert.deepEqual(calls, ['open t1 E1']);
  });

  it('lists the sources with title and domain; the preview shows title and URL, as text', () => {
    const { doc, actions } = setup();
    const result = groundedResult();
    result.evidence[0] = web('E1', 'https://www.history.example.org/cafe', '<img src=x onerror=alert(1)> Café history', 'Opened in <b>1926</b>.');
    const answer = renderResult(doc, { id: 't1', question: 'Q?', status: 'done', startedAt: 0 }, result, actions);
    const rows = [...answer.querySelectorAll('[data-testid="sources"] [data-testid="web-source"]')];
    assert.deepEqual(rows.map((r) => [r.querySelector('[data-testid="web-source-title"]')?.textContent, r.querySelector('[data-testid="web-source-domain"]')?.textContent]), [
      ['<img src=x onerror=alert(1)> Café history', 'history.example.org'],
      ['visit-dus.example.com', 'visit-dus.example.com'],
    ]);
    const preview = rows[0].querySelector('[data-testid="evidence-preview"]');
    assert.equal(preview?.querySelector('[data-testid="preview-heading"]')?.textContent, '<img src=x onerror=alert(1)> Café history');
    assert.equal(preview?.querySelector('[data-testid="preview-source"]')?.textContent, 'https://www.history.example.org/cafe');
    assert.equal(preview?.querySelector('[data-testid="preview-text"]')?.textContent, 'Opened in <b>1926</b>.');
    assert.equal(answer.querySelector('img'), null);
  });
});
