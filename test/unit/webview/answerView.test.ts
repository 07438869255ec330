// Safe rendering of answers in the chat view: model and document text stay text, citations
// become chips only for ids in the turn's evidence, dropped sentences appear in place.

import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { placeSentences } from '../../../src/domain/answerLayout';
import { renderResult, renderTurn, type TurnActions } from '../../../src/webview/answerView';
import { doneTurn, evidence, sentences, turnResult } from '../../support/turnBuilder';

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
    regenerate: (turnId) => calls.push(`regenerate ${turnId}`),
    feedback: (turnId, feedback) => calls.push(`feedback ${turnId} ${feedback}`),
    ask: (question) => calls.push(`ask ${question}`),
    runCommand: (command) => calls.push(`command ${command}`),
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
    const result = turnResult({
      evidence: [evidence('E1', { text: HOSTILE, heading: '<b>Heading</b>', source: 'docs/<x>.md' })],
    });
    const answer = renderResult(doc, doneTurn('t1'), result, actions);
    assert.deepEqual(activeContent(answer), []);
    const preview = answer.querySelector('[data-testid="evidence-preview"] [data-testid="preview-text"]');
    assert.equal(preview?.textContent, HOSTILE);
    assert.equal(answer.querySelector('[data-testid="preview-heading"]')?.textContent, '<b>Heading</b>');
    assert.match(
      answer.querySelector('[data-testid="preview-source"]')?.textContent ?? '',
      /^docs\/<x>\.md · lines 10–14$/,
    );
  });

  it('keeps markup and javascript: links in model text as text', () => {
    const { doc, actions } = setup();
    const text = `Leave is 25 days ${HOSTILE} [click](javascript:alert(4)) [E1].`;
    const answer = renderResult(
      doc,
      doneTurn('t1'),
      turnResult({ sentences: sentences({ text, citations: ['E1'] }) }),
      actions,
    );
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
    const answer = renderResult(
      doc,
      doneTurn('t1'),
      turnResult({ sentences: sentences({ text, citations: ['E1'] }) }),
      actions,
    );
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
    const answer = renderResult(
      doc,
      doneTurn('t1'),
      turnResult({ sentences: sentences({ text, citations: ['E1'] }) }),
      actions,
    );
    assert.equal(answer.querySelector('[data-testid="answer-body"] em')?.textContent, '25 days');
    assert.equal(answer.querySelector('[data-testid="answer-body"] code')?.textContent, 'leave.request');
    assert.equal(answer.querySelectorAll('[data-testid="answer-body"] em').length, 1);
    assert.ok(answer.textContent?.includes('<em>raw</em>'));
  });

  it("makes chips only for ids in this turn's evidence, and they open the source", () => {
    const { doc, actions, calls, window } = setup();
    const result = turnResult({
      sentences: sentences({
        text: 'Leave is 25 days [E1, E2]. Parental leave is 20 weeks [E9].',
        citations: ['E1', 'E2', 'E9'],
      }),
      evidence: [evidence('E1'), evidence('E2', { source: 'policies/parental.md', startLine: 3, endLine: 3 })],
    });
    const answer = renderResult(doc, doneTurn('t7'), result, actions);
    const chips = Array.from(
      answer.querySelectorAll<HTMLElement>('[data-testid="answer-body"] [data-testid="citation"]'),
    );
    assert.deepEqual(
      chips.map((c) => c.dataset.evidenceId),
      ['E1', 'E2'],
    );
    assert.equal(chips[0].getAttribute('tabindex'), '0');
    assert.equal(
      chips[1].getAttribute('tabindex'),
      '-1',
      'one Tab stop per answer: the other chips are reached by arrow keys',
    );
    assert.equal(chips[1].getAttribute('aria-label'), 'Evidence E2: parental.md, line 3');
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
        {
          text: 'Unused leave is paid out [E1].',
          citations: ['E1'],
          verdict: 'dropped',
          code: 'low-support',
          reason: 'low-support: passage does not mention pay-out',
          support: 0.1,
        },
        { text: 'Ask HR for details.', verdict: 'exempt', code: 'non-factual', reason: 'non-factual' },
      ),
      metrics: { retrieved: 4, coverage: 0.5, dropped: 1, abstained: false },
    });
    const answer = renderResult(doc, doneTurn('t1'), result, actions);
    const order = Array.from(answer.querySelectorAll<HTMLElement>('.sentence')).map((s) => s.dataset.verdict);
    assert.deepEqual(order, ['kept', 'dropped', 'exempt']);
    const dropped = answer.querySelector<HTMLElement>('[data-testid="dropped-sentence"]');
    assert.equal(dropped?.dataset.reasonCode, 'low-support');
    assert.equal(dropped?.querySelector('s')?.textContent?.startsWith('Unused leave is paid out'), true);
    assert.equal(
      dropped?.querySelector('[data-testid="drop-reason"]')?.textContent,
      'dropped: low-support: passage does not mention pay-out',
    );
    const value = (id: string) => answer.querySelector<HTMLElement>(`[data-testid="${id}"]`)?.dataset.value;
    assert.deepEqual(
      [value('metric-retrieved'), value('metric-coverage'), value('metric-dropped'), value('metric-abstained')],
      ['4', '0.5', '1', 'false'],
    );
    const label = (id: string) => answer.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    assert.equal(
      label('metric-coverage')?.textContent,
      '1 of 2 sentences kept',
      'the exempt sentence is not counted; the dropped one is',
    );
    assert.equal(label('metric-retrieved')?.textContent, '4 passages found');
    assert.equal(label('metric-dropped')?.textContent, '1 sentence removed');
    assert.equal(label('metric-abstained')?.textContent, 'answered');
    for (const id of ['metric-retrieved', 'metric-coverage', 'metric-dropped', 'metric-abstained']) {
      assert.ok((label(id)?.title ?? '').length > 30, `${id} has a tooltip that defines it`);
    }
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
    const answer = renderResult(doc, doneTurn('t1'), result, actions);
    const ids = Array.from(
      answer.querySelectorAll<HTMLElement>('[data-testid="sources"] [data-testid="citation"]'),
    ).map((c) => c.dataset.evidenceId);
    assert.deepEqual(ids, ['E2']);
  });

  it('renders an abstention as an abstention, with what is missing', () => {
    const { doc, actions } = setup();
    const result = turnResult({
      answer: 'NOT_FOUND: the documents do not cover <b>sabbaticals</b>',
      abstained: true,
      sentences: sentences({
        text: 'Sabbaticals last a year [E1].',
        citations: ['E1'],
        verdict: 'dropped',
        code: 'low-support',
        reason: 'low-support',
      }),
      metrics: { retrieved: 3, coverage: 0, dropped: 1, abstained: true },
    });
    const answer = renderResult(doc, doneTurn('t1'), result, actions);
    assert.equal(answer.dataset.abstained, 'true');
    assert.equal(
      answer.querySelector('[data-testid="abstention-detail"]')?.textContent,
      'the documents do not cover <b>sabbaticals</b>',
    );
    assert.equal(answer.querySelectorAll('[data-testid="dropped-sentence"]').length, 1);
    assert.equal(answer.querySelector('[data-testid="metric-abstained"]')?.textContent, 'not found');
    assert.deepEqual(activeContent(answer), []);
  });

  it('shows a streaming draft as unverified text, and errors with Retry and logs', () => {
    const { doc, actions, calls, window } = setup();
    const pending = renderTurn(
      doc,
      { id: 't2', question: 'Q?', status: 'pending', startedAt: 0 },
      { draft: `Draft ${HOSTILE}`, stage: { stage: 'verifying' } },
      actions,
    );
    assert.equal(pending.querySelector('[data-testid="answer-draft"] .draft-text')?.textContent, `Draft ${HOSTILE}`);
    assert.match(pending.querySelector('[data-testid="answer-draft"]')?.textContent ?? '', /unverified draft/);
    assert.equal(
      pending.querySelector('[data-testid="turn-stage"] .stage-text')?.textContent,
      'Checking each sentence against its passage…',
    );
    assert.deepEqual(activeContent(pending), []);

    const failed = renderTurn(
      doc,
      { id: 't3', question: 'Q?', status: 'failed', startedAt: 0, error: 'Gemini quota exceeded (429)' },
      {},
      actions,
    );
    assert.equal(failed.querySelector('.error-text')?.textContent, 'Gemini quota exceeded (429)');
    failed.querySelector('[data-testid="retry"]')?.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    failed.querySelector('[data-testid="show-logs"]')?.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(calls, ['retry t3', 'command showLogs']);
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

  it('makes a not-found answer a way forward: what was searched, the closest passages as chips, rephrasing', () => {
    const { doc, actions, calls, window } = setup();
    const result = turnResult({
      answer: 'NOT_FOUND: the documents found do not mention "sabbatical".',
      abstained: true,
      sentences: [],
      evidence: [
        evidence('E1', { source: 'hr/leave.md', heading: 'Leave > Annual leave' }),
        evidence('E2', { source: 'hr/benefits.md', heading: 'Benefits' }),
      ],
      metrics: { retrieved: 2, coverage: 0, dropped: 0, abstained: true },
    });
    const answer = renderResult(
      doc,
      doneTurn('t4', { searches: ['sabbatical leave', 'sabbatical policy'] }),
      result,
      actions,
      { lexical: true },
    );
    assert.equal(
      answer.querySelector('[data-testid="abstention-searched"]')?.textContent,
      'Searched for: sabbatical leave, sabbatical policy',
    );
    const closest = Array.from(answer.querySelectorAll<HTMLElement>('[data-testid="closest-passage"]'));
    assert.deepEqual(
      closest.map((c) => c.querySelector('.chip-label')?.textContent),
      ['leave.md › Annual leave lines 10–14', 'benefits.md › Benefits lines 10–14'],
    );
    // The file name and the line range are parts of their own: the name wraps, the lines are never cut.
    assert.deepEqual(
      closest.map((c) => [c.querySelector('.chip-name')?.textContent, c.querySelector('.chip-lines')?.textContent]),
      [
        ['leave.md', 'lines 10–14'],
        ['benefits.md', 'lines 10–14'],
      ],
    );
    assert.deepEqual(
      closest.map((c) => c.tabIndex),
      [0, -1],
      'the closest passages are one Tab stop too',
    );
    closest[1].dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(calls, ['openEvidence t4 E2']);
    assert.match(
      answer.querySelector('[data-testid="abstention-hint"]')?.textContent ?? '',
      /rephras.*wording matters/,
    );
    const semantic = renderResult(doc, doneTurn('t5'), result, actions, { lexical: false });
    assert.doesNotMatch(
      semantic.querySelector('[data-testid="abstention-hint"]')?.textContent ?? '',
      /wording matters/,
    );
    assert.equal(
      semantic.querySelector('[data-testid="abstention-searched"]')?.textContent,
      'Searched for: How much annual leave do I get?',
      'an old turn without recorded searches shows its question',
    );
  });

  it('lists sources by file name first, then folder, with the full path on hover', () => {
    const { doc, actions } = setup();
    const result = turnResult({
      evidence: [evidence('E1', { source: 'handbook/people/benefits/leave.md', startLine: 3, endLine: 9 })],
    });
    const row = renderResult(doc, doneTurn('t1'), result, actions).querySelector<HTMLElement>('[data-testid="source"]');
    assert.equal(row?.querySelector('[data-testid="source-name"]')?.textContent, 'leave.md');
    assert.equal(row?.querySelector('[data-testid="source-folder"]')?.textContent, 'handbook/people/benefits/');
    assert.equal(row?.title, 'handbook/people/benefits/leave.md, lines 3–9');
    const texts = Array.from(row?.querySelectorAll('.source-where > span') ?? []).map((e) => e.className);
    assert.deepEqual(texts, ['source-name', 'source-folder', 'source-lines']);
  });

  it('renders a passage preview as formatted text: list items as a list, emphasis, never markup', () => {
    const { doc, actions } = setup();
    const text =
      'Leave rules:\n- **Annual** leave is 25 days\n- Carry over up to 5 days <img src=x onerror=alert(1)>\n# Notes\nSee `policy.md` and [the form](javascript:alert(2)).';
    const answer = renderResult(doc, doneTurn('t1'), turnResult({ evidence: [evidence('E1', { text })] }), actions);
    const preview = answer.querySelector<HTMLElement>('[data-testid="preview-text"]');
    assert.deepEqual(
      Array.from(preview?.querySelectorAll('li') ?? []).map((li) => li.textContent),
      ['Annual leave is 25 days', 'Carry over up to 5 days <img src=x onerror=alert(1)>'],
    );
    assert.equal(preview?.querySelector('strong')?.textContent, 'Annual');
    assert.equal(preview?.querySelector('code')?.textContent, 'policy.md');
    assert.match(preview?.textContent ?? '', /See policy\.md and /);
    assert.equal(preview?.querySelector('[data-testid="web-link"], [role="link"]'), null, 'no link in a preview');
    assert.deepEqual(activeContent(answer), []);
  });

  it('says a failure in one sentence with ways forward that fit it', () => {
    const { doc, actions, calls, window } = setup();
    const click = (el: Element | null | undefined) =>
      el?.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    const keyFailure = renderTurn(
      doc,
      {
        id: 't6',
        question: 'Q?',
        status: 'failed',
        startedAt: 0,
        error: 'Gemini did not accept the API key: set a valid key, or switch to the offline model.',
        errorKind: 'api-key',
      },
      {},
      actions,
    );
    assert.equal(keyFailure.querySelector('[data-testid="turn-error"]')?.getAttribute('role'), 'alert');
    click(keyFailure.querySelector('[data-testid="error-set-key"]'));
    click(keyFailure.querySelector('[data-testid="error-offline"]'));
    click(keyFailure.querySelector('[data-testid="show-logs"]'));
    assert.deepEqual(calls, ['command setGeminiApiKey', 'command useOfflineModel', 'command showLogs']);
    const timeout = renderTurn(
      doc,
      { id: 't7', question: 'Q?', status: 'failed', startedAt: 0, error: 'x', errorKind: 'timeout' },
      {},
      actions,
    );
    assert.equal(timeout.querySelector('[data-testid="error-set-key"]'), null);
    assert.ok(timeout.querySelector('[data-testid="error-timeout-setting"]'));
    const other = renderTurn(
      doc,
      { id: 't8', question: 'Q?', status: 'failed', startedAt: 0, error: 'x', errorKind: 'index' },
      {},
      actions,
    );
    assert.equal(
      other.querySelector('[data-testid="error-offline"]'),
      null,
      'switching models does not help an index failure',
    );
  });

  it('shows which part of a partly answered question was not found, as text, and the reason of an off-topic abstention', () => {
    const { doc, actions } = setup();
    const reason =
      'part of the question is not answered: "who approves <b>it</b>" (the documents found do not mention "approves")';
    const partial = renderResult(
      doc,
      doneTurn('t1'),
      turnResult({ relevance: { verdict: 'partial', reason } }),
      actions,
    );
    const note = partial.querySelector('[data-testid="relevance"][data-verdict="partial"]');
    assert.ok(note, 'no relevance note');
    assert.equal(note.textContent, `Not found: ${reason}`);
    assert.deepEqual(activeContent(partial), []);
    const answers = renderResult(
      doc,
      doneTurn('t2'),
      turnResult({ relevance: { verdict: 'answers', reason: 'the kept sentences address the question' } }),
      actions,
    );
    assert.equal(answers.querySelector('[data-testid="relevance"]'), null);
    const offTopic = renderResult(
      doc,
      doneTurn('t3'),
      turnResult({
        answer: 'NOT_FOUND: the documents found mention "stock" but not "vesting".',
        abstained: true,
        abstainedBy: 'relevance',
        relevance: { verdict: 'off-topic', reason: 'the documents found mention "stock" but not "vesting"' },
        sentences: sentences({
          text: 'Take stock of the plan [E1].',
          citations: ['E1'],
          verdict: 'dropped',
          code: 'off-topic',
          reason: 'off-topic: …',
        }),
      }),
      actions,
    );
    const detail = offTopic.querySelector('[data-testid="abstention-detail"]');
    assert.equal(detail?.textContent, 'the documents found mention "stock" but not "vesting".');
    assert.equal(detail?.getAttribute('data-abstained-by'), 'relevance');
  });
});

describe('chat answer citing a changed source', () => {
  it('shows a visible warning naming the file, and marks its source row', () => {
    const { doc, actions } = setup();
    const stale = renderResult(
      doc,
      doneTurn('t1'),
      turnResult({ evidence: [evidence('E1', { stale: true })] }),
      actions,
    );
    const warning = stale.querySelector('[data-testid="stale-warning"]');
    assert.ok(warning, 'no stale warning');
    assert.equal(warning.getAttribute('role'), 'alert');
    assert.match(warning.textContent ?? '', /changed since it was indexed: "policies\/leave\.md"/);
    assert.match(stale.querySelector('[data-testid="sources"]')?.textContent ?? '', /changed since indexed/);
    const fresh = renderResult(doc, doneTurn('t2'), turnResult(), actions);
    assert.equal(fresh.querySelector('[data-testid="stale-warning"]'), null);
  });
});
