// Safe rendering of answers in the chat view: model and document text stay text, citations
// become chips only for ids in the turn's evidence, dropped sentences appear in place.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { placeSentences } from '../../../src/domain/answerLayout';
import { renderResult, renderTurn, type TurnActions } from '../../../src/webview/answerView';
import { evidence, sentences, turnResult } from '../../support/turnBuilder';

const HOSTILE = '<script>alert(1)</script> <img src=x onerror="alert(2)"> <a href="javascript:alert(3)">x</a>';

function setup() {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  const calls: string[] = [];
  const actions: TurnActions = {
    openEvidence: (turnId, id) => calls.push(`openEvidence ${turnId} ${id}`),
    openLink: (url) => calls.push(`openLink ${url}`),
    copyAnswer: (turnId) => calls.push(`copy ${turnId}`),
    openInEditor: (turnId) => calls.push(`editor ${turnId}`),
    retry: (turnId) => calls.push(`retry ${turnId}`),
    showLogs: () => calls.push('logs'),
  };
  return { doc: dom.window.document, window: dom.window, calls, actions };
}

/** Every element and attribute that could run script or load something. */
function activeContent(root: Element): string[] {
  const found: string[] = [];
  for (const el of Array.from(root.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    if (['script', 'img', 'a', 'iframe', 'object', 'embed', 'style', 'link'].includes(tag)) found.push(tag);
    for (const attr of Array.from(el.attributes)) {
      if (attr.name.startsWith('on') || attr.name === 'href' || attr.name === 'src') found.push(`${tag}@${attr.name}`);
    }
  }
  return found;
}

describe('chat answer rendering', () => {
  it('keeps markup in a passage as text in the citation preview', () => {
    const { doc, actions } = setup();
    const result = turnResult({ evidence: [evidence('E1', { text: HOSTILE, heading: '<b>Heading</b>', source: 'docs/<x>.md' })] });
    const answer = renderResult(doc, 't1', result, actions);
    assert.deepEqual(activeContent(answer), []);
    const preview = answer.querySelector('[data-testid="evidence-preview"] [data-testid="preview-text"]');
    assert.equal(preview?.textContent, HOSTILE);
    assert.equal(answer.querySelector('[data-testid="preview-heading"]')?.textContent, '<b>Heading</b>');
    assert.match(answer.querySelector('[data-testid="preview-source"]')?.textContent ?? '', /^docs\/<x>\.md · lines 10–14$/);
  });

  it('keeps markup and javascript: links in model text as text', () => {
    const { doc, actions } = setup();
    const text = `Leave is 25 days ${HOSTILE} [click](javascript:alert(4)) [E1].`;
    const answer = renderResult(doc, 't1', turnResult({ sentences: sentences({ text, citations: ['E1'] }) }), actions);
    assert.deepEqual(activeContent(answer), []);
    assert.equal(answer.querySelectorAll('[data-testid="web-link"]').length, 0);
    const body = answer.querySelector('[data-testid="answer-body"]')?.textContent ?? '';
    assert.ok(body.includes('<script>alert(1)</script>'), body);
    assert.ok(body.includes('<img src=x onerror="alert(2)">'), body);
    assert.ok(body.includes('[click](javascript:alert(4))'), body);
  });

  it('renders http(s) links as elements that ask the host to open them', () => {
    const { doc, actions, calls, window } = setup();
    const text = 'See [the handbook](https://example.com/leave?a=1) and [local](file:///etc/passwd) [E1].';
    const answer = renderResult(doc, 't1', turnResult({ sentences: sentences({ text, citations: ['E1'] }) }), actions);
    const links = answer.querySelectorAll('[data-testid="web-link"]');
    assert.equal(links.length, 1);
    assert.equal(links[0].textContent, 'the handbook');
    links[0].dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(calls, ['openLink https://example.com/leave?a=1']);
    assert.ok(answer.textContent?.includes('local'));
    assert.deepEqual(activeContent(answer), []);
  });

  it('renders emphasis and code spans from tokens, not HTML', () => {
    const { doc, actions } = setup();
    const text = 'You get *25 days* and `leave.request` <em>raw</em> [E1].';
    const answer = renderResult(doc, 't1', turnResult({ sentences: sentences({ text, citations: ['E1'] }) }), actions);
    assert.equal(answer.querySelector('[data-testid="answer-body"] em')?.textContent, '25 days');
    assert.equal(answer.querySelector('[data-testid="answer-body"] code')?.textContent, 'leave.request');
    assert.equal(answer.querySelectorAll('[data-testid="answer-body"] em').length, 1);
    assert.ok(answer.textContent?.includes('<em>raw</em>'));
  });

  it('makes chips only for ids in this turn\'s evidence, and they open the source', () => {
    const { doc, actions, calls, window } = setup();
    const result = turnResult({
      sentences: sentences({ text: 'Leave is 25 days [E1, E2]. Parental leave is 20 weeks [E9].', citations: ['E1', 'E2', 'E9'] }),
      evidence: [evidence('E1'), evidence('E2', { source: 'policies/parental.md', startLine: 3, endLine: 3 })],
    });
    const answer = renderResult(doc, 't7', result, actions);
    const chips = Array.from(answer.querySelectorAll<HTMLElement>('[data-testid="answer-body"] [data-testid="citation"]'));
    assert.deepEqual(chips.map((c) => c.dataset.evidenceId), ['E1', 'E2']);
    assert.equal(chips[0].getAttribute('tabindex'), '0');
    assert.equal(chips[1].getAttribute('aria-label'), 'Evidence E2: policies/parental.md, line 3');
    const unknown = answer.querySelector<HTMLElement>('[data-testid="citation-unknown"]');
    assert.equal(unknown?.dataset.evidenceId, 'E9');
    assert.equal(unknown?.textContent, '[E9]');
    assert.equal(unknown?.hasAttribute('tabindex'), false);
    chips[1].dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    chips[0].dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    unknown?.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(calls, ['openEvidence t7 E2', 'openEvidence t7 E1']);
  });

  it('shows dropped sentences in place, struck through, with their reason', () => {
    const { doc, actions } = setup();
    const result = turnResult({
      sentences: sentences(
        { text: 'Employees receive 25 days of leave [E1].', citations: ['E1'] },
        { text: 'Unused leave is paid out [E1].', citations: ['E1'], verdict: 'dropped', code: 'low-support', reason: 'low-support: passage does not mention pay-out', support: 0.1 },
        { text: 'Ask HR for details.', verdict: 'exempt', code: 'non-factual', reason: 'non-factual' },
      ),
      metrics: { retrieved: 4, coverage: 0.5, dropped: 1, abstained: false },
    });
    const answer = renderResult(doc, 't1', result, actions);
    const order = Array.from(answer.querySelectorAll<HTMLElement>('.sentence')).map((s) => s.dataset.verdict);
    assert.deepEqual(order, ['kept', 'dropped', 'exempt']);
    const dropped = answer.querySelector<HTMLElement>('[data-testid="dropped-sentence"]');
    assert.equal(dropped?.dataset.reasonCode, 'low-support');
    assert.equal(dropped?.querySelector('s')?.textContent?.startsWith('Unused leave is paid out'), true);
    assert.equal(dropped?.querySelector('[data-testid="drop-reason"]')?.textContent, 'dropped: low-support: passage does not mention pay-out');
    const value = (id: string) => answer.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.dataset.value;
    assert.deepEqual([value('metric-retrieved'), value('metric-coverage'), value('metric-dropped'), value('metric-abstained')], ['4', '0.5', '1', 'false']);
    assert.equal(answer.querySelector('[data-testid="metric-coverage"]')?.textContent, '50% cited');
  });

  it('lists only the evidence that kept sentences cite under Sources', () => {
    const { doc, actions } = setup();
    const result = turnResult({
      sentences: sentences(
        { text: 'A [E2].', citations: ['E2'] },
        { text: 'B [E3].', citations: ['E3'], verdict: 'dropped', code: 'low-support', reason: 'low-support' },
      ),
      evidence: [evidence('E1'), evidence('E2'), evidence('E3')],
    });
    const answer = renderResult(doc, 't1', result, actions);
    const ids = Array.from(answer.querySelectorAll<HTMLElement>('[data-testid="sources"] [data-testid="citation"]')).map((c) => c.dataset.evidenceId);
    assert.deepEqual(ids, ['E2']);
  });

  it('renders an abstention as an abstention, with what is missing', () => {
    const { doc, actions } = setup();
    const result = turnResult({
      answer: 'NOT_FOUND: the documents do not cover <b>sabbaticals</b>',
      abstained: true,
      sentences: sentences(
        { text: 'Sabbaticals last a year [E1].', citations: ['E1'], verdict: 'dropped', code: 'low-support', reason: 'low-support' },
      ),
      metrics: { retrieved: 3, coverage: 0, dropped: 1, abstained: true },
    });
    const answer = renderResult(doc, 't1', result, actions);
    assert.equal(answer.dataset.abstained, 'true');
    assert.equal(answer.querySelector('[data-testid="abstention-detail"]')?.textContent, 'the documents do not cover <b>sabbaticals</b>');
    assert.equal(answer.querySelectorAll('[data-testid="dropped-sentence"]').length, 1);
    assert.equal(answer.querySelector('[data-testid="metric-abstained"]')?.textContent, 'abstained');
    assert.deepEqual(activeContent(answer), []);
  });

  it('shows a streaming draft as unverified text, and errors with Retry and logs', () => {
    const { doc, actions, calls, window } = setup();
    const pending = renderTurn(doc, { id: 't2', question: 'Q?', status: 'pending', startedAt: 0 }, { draft: `Draft ${HOSTILE}`, stage: { stage: 'verifying' } }, actions);
    assert.equal(pending.querySelector('[data-testid="answer-draft"] .draft-text')?.textContent, `Draft ${HOSTILE}`);
    assert.match(pending.querySelector('[data-testid="answer-draft"]')?.textContent ?? '', /unverified draft/);
    assert.equal(pending.querySelector('[data-testid="turn-stage"]')?.textContent, 'Verifying citations…');
    assert.deepEqual(activeContent(pending), []);

    const failed = renderTurn(doc, { id: 't3', question: 'Q?', status: 'failed', startedAt: 0, error: 'Gemini quota exceeded (429)' }, {}, actions);
    assert.equal(failed.querySelector('.error-text')?.textContent, 'Gemini quota exceeded (429)');
    failed.querySelector('[data-testid="retry"]')?.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    failed.querySelector('[data-testid="show-logs"]')?.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(calls, ['retry t3', 'logs']);
  });

  it('groups list items and paragraphs from sentence positions', () => {
    const placed = placeSentences(
      sentences(
        { text: 'Three kinds of leave exist [E1].' },
        { text: '- Annual leave is 25 days [E1].', start: 40 },
        { text: '- Sick leave is unlimited [E2].' },
        { text: 'Both need approval [E3].', start: 120 },
        { text: 'Ask your manager [E3].' },
      ),
    );
    assert.deepEqual(
      placed.map((p) => [p.block.kind, p.opens, p.text]),
      [
        ['p', true, 'Three kinds of leave exist [E1].'],
        ['li', true, 'Annual leave is 25 days [E1].'],
        ['li', true, 'Sick leave is unlimited [E2].'],
        ['p', true, 'Both need approval [E3].'],
        ['p', false, 'Ask your manager [E3].'],
      ],
    );
  });

  it('shows which part of a partly answered question was not found, as text, and the reason of an off-topic abstention', () => {
    const { doc, actions } = setup();
    const reason = 'part of the question is not answered: "who approves <b>it</b>" (the documents found do not mention "approves")';
    const partial = renderResult(doc, 't1', turnResult({ relevance: { verdict: 'partial', reason } }), actions);
    const note = partial.querySelector('[data-testid="relevance"][data-verdict="partial"]');
    assert.ok(note, 'no relevance note');
    assert.equal(note.textContent, `Not found: ${reason}`);
    assert.deepEqual(activeContent(partial), []);
    const answers = renderResult(doc, 't2', turnResult({ relevance: { verdict: 'answers', reason: 'the kept sentences address the question' } }), actions);
    assert.equal(answers.querySelector('[data-testid="relevance"]'), null);
    const offTopic = renderResult(
      doc,
      't3',
      turnResult({
        answer: 'NOT_FOUND: the documents found mention "stock" but not "vesting".',
        abstained: true,
        abstainedBy: 'relevance',
        relevance: { verdict: 'off-topic', reason: 'the documents found mention "stock" but not "vesting"' },
        sentences: sentences({ text: 'Take stock of the plan [E1].', citations: ['E1'], verdict: 'dropped', code: 'off-topic', reason: 'off-topic: …' }),
      }),
      actions,
    );
    const detail = offTopic.querySelector('[data-testid="abstention-detail"]');
    assert.equal(detail?.textContent, 'the documents found mention "stock" but not "vesting".');
    assert.equal(detail?.getAttribute('data-abstained-by'), 'relevance');
  });
});
