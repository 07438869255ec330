// A grounded (Google Search) turn for the chat view's tests: two web sources backing two sentences,
// a third sentence no grounding support covers, and Google's Search Suggestions markup with hostile
// extras (scripts, handlers, foreign links), rendered in a jsdom page that runs no script of its own.

import { JSDOM } from 'jsdom';
import type { TurnActions } from '../../src/webview/answerView';
import type { Evidence, SentenceVerdict, TurnResult } from '../../src/domain/types';

export function web(id: string, uri: string, title: string, text = ''): Evidence {
  return {
    id,
    passageId: `chunk:${id}`,
    source: uri,
    startLine: 0,
    endLine: 0,
    heading: title,
    text,
    version: '',
    uri,
    title,
  };
}

export function sentence(
  text: string,
  start: number,
  verdict: SentenceVerdict['verdict'],
  citations: string[],
  code: SentenceVerdict['code'] = 'supported',
): SentenceVerdict {
  return {
    text,
    citations,
    verdict,
    code,
    reason: code === 'supported' ? 'supported' : `${code}: no grounding support covers this sentence`,
    support: verdict === 'kept' ? 1 : 0,
    start,
    end: start + text.length,
    tier: 'grounding',
  };
}

/** Suggestions markup in the shape Google sends (our own CSS and chips), plus hostile extras. */
export const SUGGESTIONS = [
  '<style>.container { display: flex; border-radius: 8px; } .chip { border-radius: 16px; padding: 5px 16px; } @import url("https://evil.example/x.css");</style>',
  '<div class="container"><div class="headline"><svg class="logo" width="18" height="18" viewBox="0 0 18 18"><circle cx="9" cy="9" r="8" fill="#4285F4"/><use href="https://evil.example/sprite.svg#a"/></svg></div>',
  '<div class="carousel"><a class="chip" href="https://www.google.com/search?q=cafe+mueller+opening&client=app">cafe mueller opening</a>',
  '<a class="chip" href="javascript:alert(1)">bad link</a></div></div>',
  '<script>window.pwned = 1</script><img src="x" onerror="window.pwned = 2"><iframe srcdoc="<script>parent.pwned=3</script>"></iframe>',
  '<div class="x" onclick="window.pwned = 4" style="color: red">styled</div><svg onload="window.pwned = 5"></svg>',
].join('');

export function setup() {
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

export const TEXT = 'Café Müller opened in 1926. Its terrace seats forty guests. It runs a ferry to the moon.';
export function groundedResult(): TurnResult {
  const s1 = 'Café Müller opened in 1926.';
  const s2 = 'Its terrace seats forty guests.';
  const s3 = 'It runs a ferry to the moon.';
  return {
    invocationId: 'inv',
    question: 'When did it open?',
    answer: `${s1} ${s2}`,
    abstained: false,
    sentences: [
      sentence(s1, 0, 'kept', ['E1']),
      sentence(s2, TEXT.indexOf(s2), 'kept', ['E2']),
      sentence(s3, TEXT.indexOf(s3), 'dropped', [], 'no-grounding-support'),
    ],
    evidence: [
      web('E1', 'https://www.history.example.org/cafe', 'Café history'),
      web('E2', 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC', 'visit-dus.example.com'),
    ],
    metrics: { retrieved: 2, coverage: 2 / 3, dropped: 1, abstained: false },
    model: 'google-search:gemini-2.5-flash',
    retrieval: 'google-search',
    grounding: {
      route: 'google-search',
      supports: [],
      queries: ['cafe mueller opening'],
      searchSuggestions: SUGGESTIONS,
    },
    notices: [],
  };
}
