// The chat view's header, kept compact for a narrow side bar: one wrapping row naming the model,
// the retrieval mode and the index (and the shared index, when one answers), the "Show dropped"
// checkbox, then the running index's progress (its figure shown once: indexFigure.ts) and the
// notices, each said once, here and not under answers, each with the button that fixes its
// cause and a dismiss button: why the offline model answers, why wording matters (lexical
// search), which files were not indexed (or that nothing is, once the empty state is gone), an
// index error or a cancelled run. A dismissed notice
// stays dismissed (the webview remembers its key) until its content changes.

import type { ChatState, IndexView, ModelNoticeCode, WebviewCommand } from '../shared/protocol';
import { describeIndexProgress } from '../domain/indexProgress';
import { indexingPercent } from '../domain/indexFigure';
import { describeVectorFill, shortVectorFill } from '../domain/partialRetrieval';
import { emptyIndexMessage, skippedNotice } from '../domain/emptyIndex';
import { element as el, icon } from './dom';

const numberFormat = new Intl.NumberFormat('en-US');

/** "1 passage", "1,234 passages". */
export function passageCount(n: number): string {
  return `${numberFormat.format(n)} ${n === 1 ? 'passage' : 'passages'}`;
}

export function describeIndex(index: IndexView): string {
  switch (index.state) {
    case 'no-folder':
      return 'No folder open';
    case 'not-indexed':
      return 'Not indexed';
    case 'indexing':
      return `Indexing ${indexingPercent(index)}%`;
    case 'error':
      return 'Index error';
    case 'indexed':
      return `${passageCount(index.passages)} · ${index.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'}${index.vectors ? ` (${shortVectorFill(index.vectors)})` : ''}`;
  }
}

/** The button that lets the configured model answer, by the notice's code. */
const MODEL_NOTICE_ACTION: Record<ModelNoticeCode, { label: string; command: WebviewCommand }> = {
  'no-gemini-key': { label: 'Set Gemini API key', command: 'setGeminiApiKey' },
  'no-data-store': { label: 'Set the data store', command: 'openDataStoreSetting' },
  'no-language-model': { label: 'Choose model', command: 'chooseModel' },
};

export interface HeaderHost {
  post(command: WebviewCommand): void;
  /** Keys of the notices the user dismissed. */
  dismissed(): ReadonlySet<string>;
  dismiss(key: string): void;
  /** Where focus goes after a dismissed notice disappears. */
  focusInput(): void;
  setShowDropped(show: boolean): void;
}

interface NoticeSpec {
  /** Remembered when dismissed; a notice whose content changes gets a new key. */
  key: string;
  testId: string;
  iconName: string;
  text: string;
  /** A tooltip with the details (e.g. why the embedding model is unavailable). */
  title?: string;
  role: 'note' | 'status';
  actions: { testId: string; label: string; command: WebviewCommand }[];
  dismissTestId?: string;
}

export class ChatHeader {
  constructor(
    private readonly doc: Document,
    readonly element: HTMLElement,
    private readonly host: HeaderHost,
  ) {}

  render(state: ChatState): void {
    const { doc } = this;
    const row = el(doc, 'div', { class: 'header-row' });
    const model = el(doc, 'span', {
      class: 'header-item header-model',
      'data-testid': 'header-model',
      'data-backend': state.model.backend,
      title: `Model answering: ${state.model.label}`,
    });
    model.append(icon(doc, 'sparkle'), el(doc, 'span', { class: 'header-text' }, state.model.label));
    const searched = describeRetrieval(state);
    const retrieval = el(doc, 'span', {
      class: 'header-item header-retrieval',
      'data-testid': 'header-retrieval',
      'data-retrieval': searched.key,
      title: searched.title,
    });
    retrieval.append(icon(doc, 'search'), el(doc, 'span', {}, searched.text));
    if (state.index.message && state.index.state !== 'error' && state.index.state !== 'not-indexed') {
      retrieval.title = `${retrieval.title}: ${state.index.message}`;
    }
    // While indexing, the progress box below has the figure: the badge does not repeat it.
    const indexText =
      state.index.state === 'indexed'
        ? passageCount(state.index.passages)
        : state.index.state === 'indexing'
          ? 'Indexing…'
          : describeIndex(state.index);
    const index = el(
      doc,
      'span',
      {
        class: 'header-item header-index',
        'data-testid': 'header-index',
        'data-state': state.index.state,
        title: describeIndex(state.index),
      },
      indexText,
    );
    row.append(model, retrieval, index);
    if (state.index.store) {
      const store = el(doc, 'span', {
        class: 'header-item header-store',
        'data-testid': 'header-store',
        title: `Answers come from the ${state.index.store}`,
      });
      store.append(icon(doc, 'database'), el(doc, 'span', { class: 'header-text' }, state.index.store));
      row.append(store);
    }
    row.append(this.toggle(state.showDropped));
    this.element.replaceChildren(row);
    if (state.index.state === 'indexing') this.element.append(this.indexProgress(state.index));
    const dismissed = this.host.dismissed();
    for (const notice of notices(state)) if (!dismissed.has(notice.key)) this.element.append(this.notice(notice));
  }

  /** "Show dropped": a real checkbox (its box and focus ring drawn with theme colours, chat.css). */
  private toggle(checked: boolean): HTMLElement {
    const { doc } = this;
    const label = el(doc, 'label', {
      class: 'toggle-dropped',
      title: 'Show the sentences the verifier dropped, struck through with the reason',
    });
    const box = el(doc, 'input', { type: 'checkbox', class: 'checkbox', 'data-testid': 'toggle-dropped' });
    box.checked = checked;
    box.addEventListener('change', () => this.host.setShowDropped(box.checked));
    label.append(box, el(doc, 'span', {}, 'Show dropped'));
    return label;
  }

  /** The running index: phase, counts, a bar, and what the user can do meanwhile; the figure once. */
  private indexProgress(index: IndexView): HTMLElement {
    const { doc } = this;
    const percent = indexingPercent(index);
    const box = el(doc, 'div', { class: 'index-progress', 'data-testid': 'index-progress', role: 'status' });
    // Vectors filling in: the lexical part is committed, so questions are answered already; the
    // figure is then the share of passages with a vector (said in the hint), as in the status bar.
    const text = index.vectors
      ? 'Computing vectors for search by meaning'
      : `Indexing your documents: ${index.phase ? describeIndexProgress({ phase: index.phase, done: index.done, total: index.total }) : 'Starting…'} (${percent}%)`;
    box.append(el(doc, 'div', { class: 'index-progress-text', 'data-testid': 'index-progress-text' }, text));
    const bar = el(doc, 'div', {
      class: 'progress-bar',
      role: 'progressbar',
      'aria-label': index.vectors ? 'Passages with vectors' : 'Indexing',
      'aria-valuemin': '0',
      'aria-valuemax': '100',
      'aria-valuenow': String(percent),
    });
    const fill = el(doc, 'div', { class: 'progress-fill' });
    fill.style.width = `${percent}%`;
    bar.append(fill);
    const hint = index.vectors
      ? `You can ask now: ${describeVectorFill(index.vectors)}`
      : 'You can type your question now: it is answered as soon as the index is ready.';
    box.append(bar, el(doc, 'div', { class: 'index-progress-hint', 'data-testid': 'index-progress-hint' }, hint));
    return box;
  }

  private notice(spec: NoticeSpec): HTMLElement {
    const { doc } = this;
    const box = el(doc, 'div', { class: 'header-notice', 'data-testid': spec.testId, role: spec.role });
    const text = el(doc, 'span', { class: 'header-notice-text' }, spec.text);
    if (spec.title) text.title = spec.title;
    box.append(icon(doc, spec.iconName), text);
    const actions = el(doc, 'span', { class: 'header-notice-actions' });
    for (const action of spec.actions) {
      const b = el(doc, 'button', { type: 'button', class: 'link-button', 'data-testid': action.testId }, action.label);
      b.addEventListener('click', () => this.host.post(action.command));
      actions.append(b);
    }
    box.append(actions);
    const close = el(doc, 'button', {
      type: 'button',
      class: 'icon-only notice-dismiss',
      'data-testid': spec.dismissTestId ?? 'notice-dismiss',
      title: 'Dismiss',
      'aria-label': `Dismiss: ${spec.text}`,
    });
    close.append(icon(doc, 'close'));
    close.addEventListener('click', () => {
      this.host.dismiss(spec.key);
      this.host.focusInput();
    });
    box.append(close);
    return box;
  }
}

/** The header's notices, in order of what matters most. */
function notices(state: ChatState): NoticeSpec[] {
  const list: NoticeSpec[] = [];
  const { index, model } = state;
  if (index.message && (index.state === 'error' || index.state === 'not-indexed')) {
    list.push({
      key: `index:${index.message}`,
      testId: 'index-message',
      iconName: index.state === 'error' ? 'error' : 'info',
      text: index.message,
      role: 'status',
      actions: [
        { testId: 'index-message-reindex', label: 'Reindex', command: 'reindex' },
        ...(index.state === 'error'
          ? [{ testId: 'index-message-log', label: 'Show log', command: 'showLogs' as const }]
          : []),
      ],
    });
  }
  if (model.notice) {
    const action = model.noticeCode ? MODEL_NOTICE_ACTION[model.noticeCode] : undefined;
    list.push({
      key: `model:${model.noticeCode ?? model.notice}`,
      testId: 'model-notice',
      iconName: 'info',
      text: model.notice,
      role: 'note',
      actions: action ? [{ testId: 'model-notice-action', label: action.label, command: action.command }] : [],
    });
  }
  // Nothing indexed: the empty state says why; once there are turns, the header does.
  if (index.state === 'indexed' && index.passages === 0 && !index.store && state.turns.length > 0) {
    list.push({
      key: `empty:${emptyIndexMessage(index.skipped)}`,
      testId: 'empty-index-notice',
      iconName: 'warning',
      text: emptyIndexMessage(index.skipped),
      role: 'note',
      actions: [
        {
          testId: 'empty-index-notice-settings',
          label: 'Change include/exclude settings',
          command: 'openIndexSettings',
        },
        { testId: 'empty-index-notice-reindex', label: 'Reindex', command: 'reindex' },
      ],
    });
  }
  // Files skipped while others are indexed (with nothing indexed, the notice above says it).
  if (index.skipped && index.passages > 0) {
    list.push({
      key: `skipped:${index.skipped.total}:${index.skipped.files.map((f) => f.path).join('|')}`,
      testId: 'skipped-notice',
      iconName: 'warning',
      text: skippedNotice(index.skipped),
      role: 'note',
      actions: [
        { testId: 'skipped-notice-settings', label: 'Index settings', command: 'openIndexSettings' },
        { testId: 'skipped-notice-log', label: 'Show log', command: 'showLogs' },
      ],
    });
  }
  if (index.state === 'indexed' && index.retrieval === 'lexical' && index.passages > 0 && !isGrounded(state)) {
    list.push({
      key: 'lexical',
      testId: 'lexical-hint',
      iconName: 'info',
      text: 'Search matches your words, not their meaning: use the words your documents use.',
      title: index.message ?? 'No embedding model is loaded.',
      role: 'note',
      actions: [{ testId: 'lexical-hint-action', label: 'Enable semantic search', command: 'setUpSemanticSearch' }],
      dismissTestId: 'lexical-hint-dismiss',
    });
  }
  return list;
}

function isGrounded(state: ChatState): boolean {
  return state.model.backend === 'google-search' || state.model.backend === 'vertex-ai-search';
}

/** What searches for the answering model: the workspace index, or the provider (built-in grounding). */
function describeRetrieval(state: ChatState): { key: string; text: string; title: string } {
  if (state.model.backend === 'google-search') {
    return {
      key: 'google-search',
      text: 'Google Search',
      title: 'Google Search finds the sources (built-in grounding); the workspace index is not used',
    };
  }
  if (state.model.backend === 'vertex-ai-search') {
    return {
      key: 'vertex-ai-search',
      text: 'Vertex AI Search',
      title: 'Your Vertex AI Search data store finds the sources (built-in grounding); the workspace index is not used',
    };
  }
  return state.index.retrieval === 'hybrid'
    ? { key: 'hybrid', text: 'hybrid', title: 'Lexical + embedding retrieval' }
    : { key: 'lexical', text: 'lexical only', title: 'Lexical retrieval only (no embedding model)' };
}
