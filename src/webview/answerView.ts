// Builds the DOM of one turn in the chat: an `article` labelled by its question (a heading), the
// streaming (unverified) draft with the stage and elapsed time, the verified answer from its
// sentence verdicts (kept and exempt sentences as text with citation chips, dropped ones struck
// through with their reason), not-found answers with what was searched and the closest
// passages, the four numbers in words, the sources, the answer's actions and follow-ups, and
// errors as one sentence with ways forward. Document and model text only go in as textContent.

import { describePartialRetrieval } from '../domain/partialRetrieval';
import { renderAnsweredAs } from './answeredAs';
import type { Evidence, SentenceVerdict, TurnResult } from '../domain/types';
import type { Feedback, TurnStage, TurnView, WebviewCommand } from '../shared/protocol';
import { ABSTENTION_PREFIX } from '../domain/abstention';
import { isWebEvidence, placeSentences, unwrittenCitations, type PlacedSentence } from '../domain/answerLayout';
import { withoutCitations } from '../domain/citations';
import { CHIP_SELECTOR, citationChip } from './chip';
import { activate, button, element, icon } from './dom';
import { followUpSuggestions } from './followUps';
import { staleSourcesWarning } from '../domain/staleSources';
import { renderInline, type InlineContext } from './inlineMarkdown';
import { rovingGroup } from './roving';
import { renderSearchSuggestions } from './searchSuggestions';
import { closestPassageChip, renderSources } from './sourcesView';
import { webSourceChip } from './webSourceChip';
import { counted } from '../domain/wording';

export interface TurnActions {
  openEvidence(turnId: string, evidenceId: string): void;
  openLink(url: string): void;
  copyAnswer(turnId: string): void;
  openInEditor(turnId: string): void;
  retry(turnId: string): void;
  regenerate(turnId: string): void;
  feedback(turnId: string, feedback: Feedback | null): void;
  ask(question: string): void;
  runCommand(command: WebviewCommand): void;
}

export interface TurnExtras {
  /** Unverified text streamed so far (pending turns only). */
  draft?: string;
  stage?: { stage: TurnStage; detail?: string };
  /** The latest turn: it offers follow-up questions. */
  latest?: boolean;
  /** Retrieval matches words only (no semantic model): the not-found box says wording matters. */
  lexical?: boolean;
}

/** An id the model wrote that is not in this turn's evidence: visible, not clickable. */
function unknownCitation(doc: Document, id: string): HTMLElement {
  return element(
    doc,
    'span',
    {
      class: 'citation citation-unknown',
      'data-testid': 'citation-unknown',
      'data-evidence-id': id,
      title: `${id} was not retrieved in this turn`,
    },
    `[${id}]`,
  );
}

function inlineContext(
  doc: Document,
  turnId: string,
  evidence: ReadonlyMap<string, Evidence>,
  actions: TurnActions,
): InlineContext {
  return {
    doc,
    citation: (id) => {
      const found = evidence.get(id);
      if (found && isWebEvidence(found)) return webSourceChip(doc, turnId, found, actions);
      return found ? citationChip(doc, found, () => actions.openEvidence(turnId, found.id)) : unknownCitation(doc, id);
    },
    webLink: (href, label) => {
      const link = element(
        doc,
        'span',
        { class: 'web-link', role: 'link', tabindex: '0', title: href, 'data-testid': 'web-link' },
        label || href,
      );
      activate(link, () => actions.openLink(href));
      return link;
    },
  };
}

function renderSentence(doc: Document, placed: PlacedSentence, ctx: InlineContext): HTMLElement {
  const { sentence } = placed;
  if (sentence.verdict === 'dropped') {
    const span = element(doc, 'span', {
      class: 'sentence dropped',
      'data-testid': 'dropped-sentence',
      'data-verdict': 'dropped',
      'data-reason-code': sentence.code,
    });
    const struck = element(doc, 's', { class: 'dropped-text' });
    struck.append(renderInline(placed.text, ctx));
    const reason = element(
      doc,
      'span',
      { class: 'drop-reason', 'data-testid': 'drop-reason' },
      `dropped: ${sentence.reason}`,
    );
    span.append(struck, doc.createTextNode(' '), reason);
    return span;
  }
  const span = element(doc, 'span', {
    class: `sentence ${sentence.verdict}`,
    'data-testid': 'sentence',
    'data-verdict': sentence.verdict,
  });
  span.append(renderInline(placed.text, ctx));
  // Built-in grounding cites through its metadata, not in the text: the chips follow the sentence.
  for (const id of unwrittenCitations(sentence)) span.append(doc.createTextNode(' '), ctx.citation(id));
  return span;
}

/** The answer body from sentence verdicts, dropped sentences in place. */
export function renderSentences(
  doc: Document,
  sentences: readonly SentenceVerdict[],
  ctx: InlineContext,
): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  let container: HTMLElement | undefined;
  let list: HTMLElement | undefined;
  for (const placed of placeSentences(sentences)) {
    if (placed.opens || !container) {
      if (placed.block.kind === 'li') {
        const tag = placed.block.ordered ? 'ol' : 'ul';
        if (!list || list.tagName.toLowerCase() !== tag) {
          list = element(doc, tag);
          fragment.append(list);
        }
        container = element(doc, 'li');
        list.append(container);
      } else {
        list = undefined;
        container = element(doc, placed.block.kind === 'h' ? 'h4' : 'p');
        fragment.append(container);
      }
    } else {
      container.append(doc.createTextNode(' '));
    }
    if (placed.sentence.verdict === 'dropped') container.classList.add('has-dropped');
    container.append(renderSentence(doc, placed, ctx));
  }
  return fragment;
}

/** The four numbers of a turn, each in words that say what it counts, with a tooltip defining it. */
export function renderMetrics(doc: Document, result: TurnResult): HTMLElement {
  const { retrieved, coverage, dropped, abstained } = result.metrics;
  const kept = result.sentences.filter((s) => s.verdict === 'kept').length;
  const factual = result.sentences.filter((s) => s.verdict !== 'exempt').length;
  const metrics = element(doc, 'div', {
    class: 'metrics',
    'data-testid': 'metrics',
    role: 'group',
    'aria-label': 'About this answer',
  });
  const item = (testId: string, value: string, label: string, iconName: string, hint: string): HTMLElement => {
    const el = element(doc, 'span', { class: 'metric', 'data-testid': testId, 'data-value': value, title: hint });
    el.append(icon(doc, iconName), element(doc, 'span', { class: 'metric-text' }, label));
    return el;
  };
  metrics.append(
    item(
      'metric-retrieved',
      String(retrieved),
      counted(retrieved, 'passage found', 'passages found'),
      'search',
      'Passages the search returned for this question. Each got an evidence id (E1, E2…) the answer may cite.',
    ),
    item(
      'metric-coverage',
      String(coverage),
      factual > 0 ? `${kept} of ${counted(factual, 'sentence', 'sentences')} kept` : 'no factual sentences',
      'pass',
      'Sentences stating a fact that were kept because the passage they cite backs them, out of all such sentences the model wrote. Greetings and hedges are not counted.',
    ),
    item(
      'metric-dropped',
      String(dropped),
      `${counted(dropped, 'sentence', 'sentences')} removed`,
      'trash',
      'Sentences the verifier removed: uncited, citing an id not retrieved in this turn, or not backed by the passage they cite.',
    ),
    item(
      'metric-abstained',
      String(abstained),
      abstained ? 'not found' : 'answered',
      abstained ? 'circle-slash' : 'comment',
      abstained
        ? 'The documents did not answer this question, so Evident says so instead of guessing.'
        : 'The documents answered this question.',
    ),
  );
  return metrics;
}

const CLOSEST_PASSAGES = 3;

function renderAbstention(
  doc: Document,
  turn: TurnView,
  result: TurnResult,
  actions: TurnActions,
  lexical: boolean,
): HTMLElement {
  const box = element(doc, 'div', { class: 'abstention', 'data-testid': 'abstention', role: 'note' });
  const title = element(doc, 'div', { class: 'abstention-title' });
  title.append(
    icon(doc, 'circle-slash'),
    element(
      doc,
      'span',
      {},
      result.grounding ? 'Not found in the search results' : 'Not found in the indexed documents',
    ),
  );
  const missing = result.answer.replace(ABSTENTION_PREFIX, '').trim();
  box.append(title);
  if (missing) {
    box.append(
      element(
        doc,
        'div',
        {
          class: 'abstention-detail',
          'data-testid': 'abstention-detail',
          'data-abstained-by': result.abstainedBy ?? '',
        },
        missing,
      ),
    );
  }
  const searches = turn.searches?.length ? turn.searches : [result.question];
  const searched = element(
    doc,
    'div',
    { class: 'abstention-searched', 'data-testid': 'abstention-searched' },
    'Searched for: ',
  );
  searches.forEach((query, i) => {
    if (i > 0) searched.append(doc.createTextNode(', '));
    searched.append(element(doc, 'q', { class: 'searched-query' }, query));
  });
  box.append(searched);
  const closest = result.evidence.slice(0, CLOSEST_PASSAGES);
  if (closest.length > 0) {
    const row = element(doc, 'div', { class: 'closest', 'data-testid': 'closest-passages' });
    row.append(element(doc, 'span', { class: 'closest-title' }, 'Closest passages: '));
    for (const e of closest) {
      row.append(
        closestPassageChip(doc, e, () => actions.openEvidence(turn.id, e.id)),
        doc.createTextNode(' '),
      );
    }
    box.append(row);
  }
  const hint = element(doc, 'div', { class: 'abstention-hint', 'data-testid': 'abstention-hint' });
  hint.append(
    doc.createTextNode(
      lexical
        ? 'Try rephrasing with the words your documents would use: search here matches words, so wording matters.'
        : 'Try rephrasing, or name the policy or topic you mean.',
    ),
  );
  box.append(hint);
  return box;
}

function renderToolbar(doc: Document, turn: TurnView, actions: TurnActions): HTMLElement {
  const toolbar = element(doc, 'div', {
    class: 'answer-actions',
    role: 'toolbar',
    'aria-label': 'Answer actions',
    'data-testid': 'answer-actions',
  });
  const verdict = (value: Feedback, testId: string, iconName: string, label: string): HTMLButtonElement => {
    const pressed = turn.feedback === value;
    return button(doc, testId, iconName, label, () => actions.feedback(turn.id, pressed ? null : value), {
      'aria-pressed': String(pressed),
    });
  };
  toolbar.append(
    button(doc, 'copy-answer', 'copy', 'Copy', () => actions.copyAnswer(turn.id)),
    button(doc, 'open-in-editor', 'go-to-file', 'Open in editor', () => actions.openInEditor(turn.id)),
    verdict('helpful', 'feedback-helpful', 'thumbsup', 'Helpful'),
    verdict('unhelpful', 'feedback-unhelpful', 'thumbsdown', 'Not helpful'),
    button(doc, 'regenerate', 'refresh', 'Regenerate', () => actions.regenerate(turn.id)),
  );
  for (const b of Array.from(toolbar.querySelectorAll<HTMLElement>('button'))) {
    b.querySelector('.action-label')?.classList.add('visually-hidden');
  }
  rovingGroup(toolbar, 'button');
  return toolbar;
}

function renderFollowUps(doc: Document, result: TurnResult, actions: TurnActions): HTMLElement | undefined {
  const suggestions = followUpSuggestions(result);
  if (suggestions.length === 0) return undefined;
  const box = element(doc, 'div', {
    class: 'follow-ups',
    'data-testid': 'follow-ups',
    role: 'group',
    'aria-label': 'Suggested follow-up questions',
  });
  for (const question of suggestions) {
    const b = element(doc, 'button', { type: 'button', class: 'follow-up', 'data-testid': 'follow-up' });
    b.append(icon(doc, 'arrow-right'), element(doc, 'span', {}, question));
    b.addEventListener('click', () => actions.ask(question));
    box.append(b);
  }
  rovingGroup(box, 'button');
  return box;
}

/** The verified answer of a finished turn. */
export function renderResult(
  doc: Document,
  turn: TurnView,
  result: TurnResult,
  actions: TurnActions,
  extras: TurnExtras = {},
): HTMLElement {
  const evidence = new Map(result.evidence.map((e) => [e.id, e] as const));
  const ctx = inlineContext(doc, turn.id, evidence, actions);
  const answer = element(doc, 'div', {
    class: `answer${result.abstained ? ' abstained' : ''}`,
    'data-testid': 'answer',
    'data-abstained': String(result.abstained),
  });
  if (result.abstained) {
    answer.append(renderAbstention(doc, turn, result, actions, extras.lexical ?? result.retrieval === 'lexical'));
  }
  const answeredAs = renderAnsweredAs(doc, result);
  // In an abstention the NOT_FOUND line is the box above; what the model said besides it is shown.
  const sentences = result.abstained
    ? result.sentences.filter((s) => !ABSTENTION_PREFIX.test(s.text))
    : result.sentences;
  if (sentences.length > 0) {
    const body = element(doc, 'div', { class: 'answer-body', 'data-testid': 'answer-body' });
    body.append(renderSentences(doc, sentences, ctx));
    answer.append(body);
  }
  if (answeredAs) answer.append(answeredAs);
  // A partly answered question: which part was not found (an off-topic turn says it in the box above).
  if (result.relevance?.verdict === 'partial') {
    const part = element(doc, 'div', {
      class: 'abstention relevance',
      'data-testid': 'relevance',
      'data-verdict': result.relevance.verdict,
      role: 'note',
    });
    part.append(
      icon(doc, 'circle-slash'),
      element(doc, 'span', { class: 'abstention-detail' }, `Not found: ${result.relevance.reason}`),
    );
    answer.append(part);
  }
  // Searched while vectors were filling in: said in words (not only a colour), with the figure.
  if (result.partialRetrieval) {
    const partial = element(doc, 'div', {
      class: 'notice partial-retrieval',
      'data-testid': 'partial-retrieval',
      'data-percent': String(result.partialRetrieval.percent),
      role: 'note',
    });
    partial.append(icon(doc, 'info'), element(doc, 'span', {}, describePartialRetrieval(result.partialRetrieval)));
    answer.append(partial);
  }
  for (const notice of result.notices) {
    const n = element(doc, 'div', { class: 'notice', 'data-testid': 'notice', 'data-code': notice.code });
    n.append(icon(doc, 'info'), element(doc, 'span', {}, notice.text));
    answer.append(n);
  }
  const stale = staleSourcesWarning(result);
  if (stale) {
    const warning = element(doc, 'div', { class: 'stale-warning', 'data-testid': 'stale-warning', role: 'alert' });
    warning.append(icon(doc, 'warning'), element(doc, 'span', {}, stale));
    answer.append(warning);
  }
  const sources = renderSources(doc, turn.id, result, actions);
  if (sources) answer.append(sources);
  const suggestions =
    result.grounding?.searchSuggestions && renderSearchSuggestions(doc, result.grounding.searchSuggestions, actions);
  if (suggestions) answer.append(suggestions);
  // Every chip of the answer (in the text, the sources and the closest passages) is one Tab stop.
  rovingGroup(answer, CHIP_SELECTOR);
  const footer = element(doc, 'div', { class: 'answer-footer' });
  footer.append(renderMetrics(doc, result), renderToolbar(doc, turn, actions));
  answer.append(footer);
  // After a not-found answer the closest passages are the way on; headings of passages that did
  // not answer would only be noise.
  if (extras.latest && !result.abstained) {
    const followUps = renderFollowUps(doc, result, actions);
    if (followUps) answer.append(followUps);
  }
  return answer;
}

const STAGE_TEXT: Record<TurnStage, string> = {
  indexing: 'Indexing the workspace first…',
  searching: 'Searching the documents…',
  answering: 'Waiting for the model…',
  verifying: 'Checking each sentence against its passage…',
};

/** Seconds since `startedAt`, as the pending turn shows them. */
export function elapsedText(startedAt: number, now: number): string {
  return `${Math.max(0, Math.floor((now - startedAt) / 1000))}\u00a0s`;
}

function renderPending(doc: Document, turn: TurnView, extras: TurnExtras, now: number): HTMLElement {
  const pending = element(doc, 'div', { class: 'pending' });
  const stage = element(doc, 'div', {
    class: 'stage',
    'data-testid': 'turn-stage',
    'data-stage': extras.stage?.stage ?? 'starting',
  });
  stage.append(
    icon(doc, 'loading codicon-modifier-spin'),
    element(doc, 'span', { class: 'stage-text' }, extras.stage ? STAGE_TEXT[extras.stage.stage] : 'Starting…'),
  );
  const elapsed = element(
    doc,
    'span',
    {
      class: 'stage-elapsed',
      'data-testid': 'turn-elapsed',
      'data-started-at': String(turn.startedAt),
      title: 'Time since the question was sent',
    },
    elapsedText(turn.startedAt, now),
  );
  stage.append(elapsed);
  pending.append(stage);
  if (extras.stage?.detail) {
    pending.append(
      element(doc, 'div', { class: 'stage-detail', 'data-testid': 'turn-stage-detail' }, extras.stage.detail),
    );
  }
  if (extras.draft) {
    const draft = element(doc, 'div', { class: 'draft', 'data-testid': 'answer-draft' });
    draft.append(element(doc, 'span', { class: 'badge', title: 'Citations not yet checked' }, 'unverified draft'));
    draft.append(element(doc, 'div', { class: 'draft-text' }, extras.draft));
    pending.append(draft);
  }
  return pending;
}

const MODEL_ERRORS = new Set(['api-key', 'quota', 'network', 'timeout', 'model']);

function renderFailure(doc: Document, turn: TurnView, actions: TurnActions): HTMLElement {
  const failed = turn.status === 'failed';
  const box = element(doc, 'div', {
    class: failed ? 'error' : 'cancelled',
    'data-testid': failed ? 'turn-error' : 'turn-cancelled',
    'data-error-kind': turn.errorKind ?? '',
    role: failed ? 'alert' : 'status',
  });
  const line = element(doc, 'div', { class: 'error-line' });
  line.append(
    icon(doc, failed ? 'error' : 'debug-stop'),
    element(
      doc,
      'span',
      { class: 'error-text', 'data-testid': 'error-text' },
      failed ? (turn.error ?? 'Something went wrong: see the log.') : 'Stopped.',
    ),
  );
  box.append(line);
  const toolbar = element(doc, 'div', { class: 'error-actions', role: 'toolbar', 'aria-label': 'Ways forward' });
  if (failed && (turn.errorKind === 'api-key' || turn.errorKind === 'quota')) {
    toolbar.append(button(doc, 'error-set-key', 'key', 'Set API key', () => actions.runCommand('setGeminiApiKey')));
  }
  if (failed && MODEL_ERRORS.has(turn.errorKind ?? '')) {
    toolbar.append(
      button(doc, 'error-offline', 'plug', 'Switch to offline model', () => actions.runCommand('useOfflineModel')),
    );
  }
  if (failed && turn.errorKind === 'no-documents') {
    toolbar.append(
      button(doc, 'error-index-settings', 'settings-gear', 'Change include/exclude settings', () =>
        actions.runCommand('openIndexSettings'),
      ),
    );
  }
  if (failed && turn.errorKind === 'timeout') {
    toolbar.append(
      button(doc, 'error-timeout-setting', 'settings-gear', 'Change time limit', () =>
        actions.runCommand('openTimeoutSetting'),
      ),
    );
  }
  toolbar.append(button(doc, 'retry', 'refresh', 'Retry', () => actions.retry(turn.id)));
  if (failed) toolbar.append(button(doc, 'show-logs', 'output', 'Show log', () => actions.runCommand('showLogs')));
  rovingGroup(toolbar, 'button');
  box.append(toolbar);
  return box;
}

/** One whole turn: an article labelled by its question heading, then draft / answer / error. */
export function renderTurn(
  doc: Document,
  turn: TurnView,
  extras: TurnExtras,
  actions: TurnActions,
  now = Date.now(),
): HTMLElement {
  const questionId = `question-${turn.id}`;
  const root = element(doc, 'article', {
    class: `turn turn-${turn.status}`,
    'data-testid': 'turn',
    'data-turn-id': turn.id,
    'data-status': turn.status,
    'aria-labelledby': questionId,
  });
  const question = element(doc, 'h3', { class: 'question', 'data-testid': 'question', id: questionId });
  question.append(icon(doc, 'account'), element(doc, 'span', { class: 'question-text' }, turn.question));
  root.append(question);

  if (turn.status === 'pending') root.append(renderPending(doc, turn, extras, now));
  else if (turn.status === 'done' && turn.result) root.append(renderResult(doc, turn, turn.result, actions, extras));
  else root.append(renderFailure(doc, turn, actions));
  return root;
}

/** What the live region says when a turn finishes: the answer only (its text, without ids). */
export function announcement(turn: TurnView): string {
  if (turn.status === 'cancelled') return 'Stopped.';
  if (turn.status === 'failed') return turn.error ?? 'The question failed.';
  const result = turn.result;
  if (!result) return '';
  if (result.abstained) {
    return `Not found in the indexed documents. ${result.answer.replace(ABSTENTION_PREFIX, '').trim()}`.trim();
  }
  const kept = result.sentences.filter((s) => s.verdict !== 'dropped').map((s) => withoutCitations(s.text));
  const dropped =
    result.metrics.dropped > 0
      ? ` ${counted(result.metrics.dropped, 'sentence was', 'sentences were')} removed as unsupported.`
      : '';
  return `Answer: ${kept.join(' ')}${dropped}`;
}
