// Web-source chips of built-in grounding in the chat view: after the kept sentences (domain), in
// Sources (title and domain), a preview with title, URL and text, opened through the host.

import { strict as assert } from 'node:assert';
import { renderResult } from '../../../src/webview/answerView';
import { groundedResult, setup, web } from '../../support/groundedTurn';

describe('chat view: web-source chips (built-in grounding)', () => {
  it('puts web-source chips (domain) after the kept sentences, none on the dropped one, and opens them through the host', () => {
    const { doc, calls, actions } = setup();
    const answer = renderResult(
      doc,
      { id: 't1', question: 'Q?', status: 'done', startedAt: 0 },
      groundedResult(),
      actions,
    );
    doc.body.append(answer);
    const kept = [...answer.querySelectorAll('[data-testid="sentence"]')];
    assert.deepEqual(
      kept.map((k) => k.querySelector('[data-testid="web-source"]')?.getAttribute('data-domain')),
      ['history.example.org', 'visit-dus.example.com'],
    );
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
    result.evidence[0] = web(
      'E1',
      'https://www.history.example.org/cafe',
      '<img src=x onerror=alert(1)> Café history',
      'Opened in <b>1926</b>.',
    );
    const answer = renderResult(doc, { id: 't1', question: 'Q?', status: 'done', startedAt: 0 }, result, actions);
    const rows = [...answer.querySelectorAll('[data-testid="sources"] [data-testid="web-source"]')];
    assert.deepEqual(
      rows.map((r) => [
        r.querySelector('[data-testid="web-source-title"]')?.textContent,
        r.querySelector('[data-testid="web-source-domain"]')?.textContent,
      ]),
      [
        ['<img src=x onerror=alert(1)> Café history', 'history.example.org'],
        ['visit-dus.example.com', 'visit-dus.example.com'],
      ],
    );
    const preview = rows[0].querySelector('[data-testid="evidence-preview"]');
    assert.equal(
      preview?.querySelector('[data-testid="preview-heading"]')?.textContent,
      '<img src=x onerror=alert(1)> Café history',
    );
    assert.equal(
      preview?.querySelector('[data-testid="preview-source"]')?.textContent,
      'https://www.history.example.org/cafe',
    );
    assert.equal(preview?.querySelector('[data-testid="preview-text"]')?.textContent, 'Opened in <b>1926</b>.');
    assert.equal(answer.querySelector('img'), null);
  });
});
