// Builds the DOM of one turn in the chat: the question, the streaming (unverified) draft,
// the verified answer from its sentence verdicts (kept and exempt sentences as text with
// citation chips, dropped ones struck through with their reason), abstentions, the four
// numbers, and errors with Retry. Document and model text only ever go in as textContent.

import type { Evidence, SentenceVerdict, TurnResult } from '../domain/types';
import type { TurnStage, TurnView } from '../shared/protocol';
import { ABSTENTION_PREFIX } from '../domain/abstention';
import { describeLines, describeSource, isWebEvidence, placeSentences, unwrittenCitations, type PlacedSentence } from '../domain/answerLayout';
import { EvidencePreviews } from './evidencePreview';
import { renderInline, type InlineContext } from './inlineMarkdown';
import { renderSearchSuggestions } from './searchSuggestions';
import { webSourceChip } from './webSourceChip';

export interface TurnActions {
  openEvidence(turnId: string, evidenceId: string): void;
  openLink(url: string): void;
  copyAnswer(turnId: string): void;
  openInEditor(turnId: string): void;
  retry(turnId: string): void;
  showLogs(): void;
}

export interface TurnExtras {
  /** Unverified text streamed so far (pending turns only). */
  draft?: string;
  stage?: { stage: TurnStage; detail?: string };
}

function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  if (text !== undefined) el.textContent = text;
  return el;
}

function icon(doc: Document, name: string): HTMLElement {
  return element(doc, 'span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

function button(doc: Document, testId: string, iconName: string, label: string, onClick: () => void): HTMLButtonElement {
  const b = element(doc, 'button', { type: 'button', class: 'action', 'data-testid': testId, title: label, 'aria-label': label });
  b.append(icon(doc, iconName), element(doc, 'span', { class: 'action-label' }, label));
  b.addEventListener('click', onClick);
  return b;
}

/** Runs `action` on click and on Enter or Space, for elements that act as buttons. */
function activate(el: HTMLElement, action: () => void): void {
  el.addEventListener('click', (event) => {
    event.preventDefault();
    action();
  });
  el.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      action();
    }
  });
}

let previewCount = 0;

/** A focusable chip for an evidence id of this turn, with a passage preview on hover or keyboard focus. */
export function citationChip(doc: Document, turnId: string, evidence: Evidence, actions: TurnActions): HTMLElement {
  if (isWebEvidence(evidence)) return webSourceChip(doc, turnId, evidence, actions);
  const previewId = `preview-${++previewCount}`;
  const chip = element(doc, 'span', {
    class: 'citation',
    role: 'button',
    tabindex: '0',
    'data-testid': 'citation',
    'data-evidence-id': evidence.id,
    'aria-label': `Evidence ${evidence.id}: ${evidence.source}, ${describeLines(evidence)}`,
    'aria-describedby': previewId,
  });
  chip.append(element(doc, 'span', { class: 'citation-label' }, evidence.id));
  const preview = element(doc, 'span', { class: 'evidence-preview', role: 'tooltip', id: previewId, 'data-testid': 'evidence-preview' });
  const where = element(doc, 'span', { class: 'preview-source', 'data-testid': 'preview-source' }, `${evidence.source} · ${describeLines(evidence)}`);
  const heading = element(doc, 'span', { class: 'preview-heading', 'data-testid': 'preview-heading' }, evidence.heading);
  const text = element(doc, 'span', { class: 'preview-text', 'data-testid': 'preview-text' }, evidence.text);
  preview.append(where, heading, text);
  chip.append(preview);
  const handle = EvidencePreviews.of(doc).attach(chip, preview);
  activate(chip, () => {
    handle.dismiss();
    actions.openEvidence(turnId, evidence.id);
  });
  return chip;
}

/** An id the model wrote that is not in this turn's evidence: visible, not clickable. */
function unknownCitation(doc: Document, id: string): HTMLElement {
  return element(
    doc,
    'span',
    { class: 'citation citation-unknown', 'data-testid': 'citation-unknown', 'data-evidence-id': id, title: `${id} was not retrieved in this turn` },
    `[${id}]`,
  );
}

function inlineContext(doc: Document, turnId: string, evidence: ReadonlyMap<string, Evidence>, actions: TurnActions): InlineContext {
  return {
    doc,
    citation: (id) => {
      const found = evidence.get(id);
      return found ? citationChip(doc, turnId, found, actions) : unknownCitation(doc, id);
    },
    webLink: (href, label) => {
      const link = element(doc, 'span', { class: 'web-link', role: 'link', tabindex: '0', title: href, 'data-testid': 'web-link' }, label || href);
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
    const reason = element(doc, 'span', { class: 'drop-reason', 'data-testid': 'drop-reason' }, `dropped: ${sentence.reason}`);
    span.append(struck, doc.createTextNode(' '), reason);
    return span;
  }
  const span = element(doc, 'span', { class: `sentence ${sentence.verdict}`, 'data-testid': 'sentence', 'data-verdict': sentence.verdict });
  span.append(renderInline(placed.text, ctx));
  // Built-in grounding cites through its metadata, not in the text: the chips follow the sentence.
  for (const id of unwrittenCitations(sentence)) span.append(doc.createTextNode(' '), ctx.citation(id));
  return span;
}

/** The answer body from sentence verdicts, dropped sentences in place. */
export function renderSentences(doc: Document, sentences: readonly SentenceVerdict[], ctx: InlineContext): DocumentFragment {
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

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

export function renderMetrics(doc: Document, result: TurnResult): HTMLElement {
  const { retrieved, coverage, dropped, abstained } = result.metrics;
  const metrics = element(doc, 'div', { class: 'metrics', 'data-testid': 'metrics' });
  const item = (testId: string, value: string, label: string, iconName: string, hint: string): HTMLElement => {
    const el = element(doc, 'span', { class: 'metric', 'data-testid': testId, 'data-value': value, title: hint });
    el.append(icon(doc, iconName), element(doc, 'span', { class: 'metric-text' }, label));
    return el;
  };
  metrics.append(
    item('metric-retrieved', String(retrieved), `${retrieved} retrieved`, 'search', 'Passages retrieved in this turn'),
    item('metric-coverage', String(coverage), `${percent(coverage)} cited`, 'pass', 'Citation coverage: share of factual sentences kept with a citation'),
    item('metric-dropped', String(dropped), `${dropped} dropped`, 'trash', 'Sentences the verifier removed'),
    item('metric-abstained', String(abstained), abstained ? 'abstained' : 'answered', abstained ? 'circle-slash' : 'comment', 'Whether the answer is an abstention'),
  );
  return metrics;
}

function renderSources(doc: Document, turnId: string, result: TurnResult, actions: TurnActions): HTMLElement | undefined {
  const cited = new Set(result.sentences.filter((s) => s.verdict === 'kept').flatMap((s) => s.citations));
  const evidence = result.evidence.filter((e) => cited.has(e.id));
  if (evidence.length === 0) return undefined;
  const sources = element(doc, 'div', { class: 'sources', 'data-testid': 'sources' });
  sources.append(element(doc, 'span', { class: 'sources-title' }, 'Sources'));
  for (const e of evidence) {
    const row = element(doc, 'div', { class: 'source' });
    if (isWebEvidence(e)) row.append(element(doc, 'span', { class: 'citation-label source-id' }, e.id), webSourceChip(doc, turnId, e, actions, true));
    else row.append(citationChip(doc, turnId, e, actions), element(doc, 'span', { class: 'source-path' }, describeSource(e)));
    sources.append(row);
  }
  return sources;
}

function renderAbstention(doc: Document, result: TurnResult): HTMLElement {
  const where = result.grounding ? 'Not found in the search results' : 'Not found in the indexed documents';
  const box = element(doc, 'div', { class: 'abstention', 'data-testid': 'abstention', role: 'note' });
  const title = element(doc, 'div', { class: 'abstention-title' });
  title.append(icon(doc, 'circle-slash'), element(doc, 'span', {}, where));
  const missing = result.answer.replace(ABSTENTION_PREFIX, '').trim();
  box.append(title);
  if (missing) box.append(element(doc, 'div', { class: 'abstention-detail', 'data-testid': 'abstention-detail', 'data-abstained-by': result.abstainedBy ?? '' }, missing));
  return box;
}

/** The verified answer of a finished turn. */
export function renderResult(doc: Document, turnId: string, result: TurnResult, actions: TurnActions): HTMLElement {
  const evidence = new Map(result.evidence.map((e) => [e.id, e] as const));
  const ctx = inlineContext(doc, turnId, evidence, actions);
  const answer = element(doc, 'div', {
    class: `answer${result.abstained ? ' abstained' : ''}`,
    'data-testid': 'answer',
    'data-abstained': String(result.abstained),
  });
  if (result.abstained) answer.append(renderAbstention(doc, result));
  // In an abstention the NOT_FOUND line is the box above; what the model said besides it is shown.
  const sentences = result.abstained ? result.sentences.filter((s) => !ABSTENTION_PREFIX.test(s.text)) : result.sentences;
  if (sentences.length > 0) {
    const body = element(doc, 'div', { class: 'answer-body', 'data-testid': 'answer-body' });
    body.append(renderSentences(doc, sentences, ctx));
    answer.append(body);
  }
  // A partly answered question: which part was not found (an off-topic turn says it in the box above).
  if (result.relevance?.verdict === 'partial') {
    const part = element(doc, 'div', { class: 'abstention relevance', 'data-testid': 'relevance', 'data-verdict': result.relevance.verdict, role: 'note' });
    part.append(icon(doc, 'circle-slash'), element(doc, 'span', { class: 'abstention-detail' }, `Not found: ${result.relevance.reason}`));
    answer.append(part);
  }
  for (const notice of result.notices) {
    const n = element(doc, 'div', { class: 'notice', 'data-testid': 'notice' });
    n.append(icon(doc, 'info'), element(doc, 'span', {}, notice));
    answer.append(n);
  }
  const sources = renderSources(doc, turnId, result, actions);
  if (sources) answer.append(sources);
  const suggestions = result.grounding?.searchSuggestions && renderSearchSuggestions(doc, result.grounding.searchSuggestions, actions);
  if (suggestions) answer.append(suggestions);
  const footer = element(doc, 'div', { class: 'answer-footer' });
  const toolbar = element(doc, 'div', { class: 'answer-actions' });
  toolbar.append(
    button(doc, 'copy-answer', 'copy', 'Copy answer', () => actions.copyAnswer(turnId)),
    button(doc, 'open-in-editor', 'go-to-file', 'Open in editor', () => actions.openInEditor(turnId)),
  );
  footer.append(renderMetrics(doc, result), toolbar);
  answer.append(footer);
  return answer;
}

const STAGE_TEXT: Record<TurnStage, string> = {
  indexing: 'Indexing the workspace…',
  searching: 'Searching the documents…',
  verifying: 'Verifying citations…',
};

/** One whole turn: question, then draft / answer / error. */
export function renderTurn(doc: Document, turn: TurnView, extras: TurnExtras, actions: TurnActions): HTMLElement {
  const root = element(doc, 'section', { class: `turn turn-${turn.status}`, 'data-testid': 'turn', 'data-turn-id': turn.id, 'data-status': turn.status });
  const question = element(doc, 'div', { class: 'question', 'data-testid': 'question' });
  question.append(icon(doc, 'account'), element(doc, 'span', { class: 'question-text' }, turn.question));
  root.append(question);

  if (turn.status === 'pending') {
    const pending = element(doc, 'div', { class: 'pending', 'aria-live': 'polite' });
    const stage = element(doc, 'div', { class: 'stage', 'data-testid': 'turn-stage' });
    stage.append(icon(doc, 'loading codicon-modifier-spin'), element(doc, 'span', {}, extras.stage ? STAGE_TEXT[extras.stage.stage] : 'Thinking…'));
    if (extras.stage?.detail) stage.append(element(doc, 'span', { class: 'stage-detail' }, extras.stage.detail));
    pending.append(stage);
    if (extras.draft) {
      const draft = element(doc, 'div', { class: 'draft', 'data-testid': 'answer-draft' });
      draft.append(element(doc, 'span', { class: 'badge', title: 'Citations not yet checked' }, 'unverified draft'));
      draft.append(element(doc, 'div', { class: 'draft-text' }, extras.draft));
      pending.append(draft);
    }
    root.append(pending);
  } else if (turn.status === 'done' && turn.result) {
    root.append(renderResult(doc, turn.id, turn.result, actions));
  } else {
    const failed = turn.status === 'failed';
    const box = element(doc, 'div', { class: failed ? 'error' : 'cancelled', 'data-testid': failed ? 'turn-error' : 'turn-cancelled', role: failed ? 'alert' : 'status' });
    box.append(icon(doc, failed ? 'error' : 'debug-stop'), element(doc, 'span', { class: 'error-text' }, failed ? turn.error ?? 'Something went wrong.' : 'Stopped.'));
    const toolbar = element(doc, 'div', { class: 'answer-actions' });
    toolbar.append(button(doc, 'retry', 'refresh', 'Retry', () => actions.retry(turn.id)));
    if (failed) toolbar.append(button(doc, 'show-logs', 'output', 'Open logs', () => actions.showLogs()));
    box.append(toolbar);
    root.append(box);
  }
  return root;
}
