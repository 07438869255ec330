// The chat view's application: keeps the state the host sends, renders header (with the index
// progress and, once, why wording matters when retrieval is lexical), empty state, turns and
// composer, and turns user actions into typed messages for the host. Keyboard: Escape in the
// transcript returns to the input; Stop returns focus to the input. A polite live region
// announces each finished answer (only that, not the transcript as it changes). Takes the
// document and a `post` function so it runs the same in the webview and under jsdom.

import type { ChatState, HostToWebview, IndexView, ModelView, TurnStage, TurnView, WebviewToHost } from '../shared/protocol';
import { MAX_QUESTION_LENGTH } from '../shared/protocol';
import { describeIndexProgress } from '../domain/indexProgress';
import { describeVectorFill, shortVectorFill } from '../domain/partialRetrieval';
import { announcement, elapsedText, renderTurn, type TurnActions } from './answerView';
import { element } from './dom';

export type Post = (message: WebviewToHost) => void;

/** What the webview keeps across reloads besides the host's state. */
export interface ViewMemory {
  /** The user closed the "wording matters" hint. */
  lexicalHintDismissed?: boolean;
}

const ELAPSED_TICK_MS = 1000;

const numberFormat = new Intl.NumberFormat('en-US');

export function describeIndex(index: IndexView): string {
  switch (index.state) {
    case 'no-folder':
      return 'No folder open';
    case 'not-indexed':
      return 'Not indexed';
    case 'indexing':
      return `Indexing ${Math.round(index.percent ?? 0)}%`;
    case 'error':
      return 'Index error';
    case 'indexed':
      return `${numberFormat.format(index.passages)} passages · ${index.retrieval === 'hybrid' ? 'hybrid' : 'lexical only'}${index.vectors ? ` (${shortVectorFill(index.vectors)})` : ''}`;
  }
}

const el = element;

export class ChatApp {
  private state: ChatState | undefined;
  private readonly drafts = new Map<string, string>();
  private readonly stages = new Map<string, { stage: TurnStage; detail?: string }>();
  private readonly header: HTMLElement;
  private readonly transcript: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly announcer: HTMLElement;
  private readonly actions: TurnActions;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly doc: Document,
    private readonly root: HTMLElement,
    private readonly post: Post,
    private memory: ViewMemory = {},
    private readonly remember: (memory: ViewMemory) => void = () => undefined,
  ) {
    this.actions = {
      openEvidence: (turnId, evidenceId) => post({ type: 'openEvidence', turnId, evidenceId }),
      openLink: (url) => post({ type: 'openLink', url }),
      copyAnswer: (turnId) => post({ type: 'copyAnswer', turnId }),
      openInEditor: (turnId) => post({ type: 'openAnswerInEditor', turnId }),
      retry: (turnId) => post({ type: 'retry', turnId }),
      regenerate: (turnId) => post({ type: 'regenerate', turnId }),
      feedback: (turnId, feedback) => post({ type: 'feedback', turnId, feedback }),
      ask: (question) => post({ type: 'ask', question }),
      runCommand: (command) => post({ type: 'runCommand', command }),
    };
    this.header = el(doc, 'header', { class: 'chat-header', 'data-testid': 'chat-header' });
    // Not a live region: the announcer below says each finished answer once.
    this.transcript = el(doc, 'main', { class: 'transcript', 'data-testid': 'transcript', 'aria-label': 'Questions and answers' });
    this.announcer = el(doc, 'div', { class: 'visually-hidden', 'data-testid': 'announcer', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    const composer = el(doc, 'form', { class: 'composer', 'data-testid': 'composer' });
    this.input = el(doc, 'textarea', {
      class: 'chat-input',
      'data-testid': 'chat-input',
      rows: '2',
      maxlength: String(MAX_QUESTION_LENGTH),
      placeholder: 'Ask about your documents (Enter to send, Shift+Enter for a new line)',
      'aria-label': 'Question',
    });
    this.sendButton = el(doc, 'button', { type: 'submit', class: 'icon-button send', 'data-testid': 'send-button', title: 'Send (Enter)', 'aria-label': 'Send' });
    this.sendButton.append(el(doc, 'span', { class: 'codicon codicon-send', 'aria-hidden': 'true' }));
    this.stopButton = el(doc, 'button', { type: 'button', class: 'icon-button stop', 'data-testid': 'stop-button', title: 'Stop', 'aria-label': 'Stop', hidden: '' });
    this.stopButton.append(el(doc, 'span', { class: 'codicon codicon-debug-stop', 'aria-hidden': 'true' }));
    composer.append(this.input, this.sendButton, this.stopButton);
    root.replaceChildren(this.header, this.transcript, composer, this.announcer);

    composer.addEventListener('submit', (event) => {
      event.preventDefault();
      this.send();
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      }
    });
    this.stopButton.addEventListener('click', () => {
      post({ type: 'stop' });
      this.input.focus();
    });
    // Escape anywhere in the transcript goes back to the question box, in one press: this
    // capturing listener runs before the chip previews' own (added later), and the open preview
    // closes as focus leaves its chip.
    doc.addEventListener('keydown', this.onEscape, true);
  }

  private readonly onEscape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.transcript.contains(event.target as Node | null)) return;
    event.preventDefault();
    this.input.focus();
  };

  /** Stops the elapsed-time ticker and the document listener (the view is going away). */
  dispose(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    this.doc.removeEventListener('keydown', this.onEscape, true);
  }

  /** The question in the input box (for tests and for restoring the webview's state). */
  get inputText(): string {
    return this.input.value;
  }

  set inputText(text: string) {
    this.input.value = text;
  }

  send(): void {
    const question = this.input.value.trim();
    if (!question || question.length > MAX_QUESTION_LENGTH) return;
    this.post({ type: 'ask', question });
    this.input.value = '';
  }

  handle(message: HostToWebview): void {
    switch (message.type) {
      case 'state':
        this.state = message.state;
        this.drafts.clear();
        this.stages.clear();
        this.renderAll();
        break;
      case 'turn': {
        if (!this.state) return;
        const turns = this.state.turns;
        const at = turns.findIndex((t) => t.id === message.turn.id);
        const wasPending = at >= 0 && turns[at].status === 'pending';
        const previousLatest = turns.at(-1)?.id;
        if (at >= 0) turns[at] = message.turn;
        else turns.push(message.turn);
        if (message.turn.status === 'pending') this.state.busyTurnId = message.turn.id;
        else {
          this.drafts.delete(message.turn.id);
          this.stages.delete(message.turn.id);
          if (this.state.busyTurnId === message.turn.id) this.state.busyTurnId = undefined;
        }
        if (at < 0 && turns.length === 1) this.renderAll();
        else {
          this.renderTurnById(message.turn.id);
          // Follow-up suggestions belong to the latest turn only.
          if (previousLatest && previousLatest !== message.turn.id) this.renderTurnById(previousLatest, false);
        }
        this.renderComposer();
        if (wasPending && message.turn.status !== 'pending') this.announce(message.turn);
        this.updateTicker();
        break;
      }
      case 'draft':
        this.drafts.set(message.turnId, message.text);
        this.renderTurnById(message.turnId);
        break;
      case 'progress':
        this.stages.set(message.turnId, { stage: message.stage, detail: message.detail });
        this.renderTurnById(message.turnId, false);
        break;
      case 'status':
        if (!this.state) return;
        this.state.index = message.index;
        this.state.model = message.model;
        this.renderHeader();
        if (this.state.turns.length === 0) this.renderTranscript();
        break;
      case 'showDropped':
        if (!this.state) return;
        this.state.showDropped = message.show;
        this.renderHeader();
        this.applyShowDropped();
        break;
      case 'focusInput':
        if (message.text !== undefined) this.input.value = message.text;
        this.input.focus();
        break;
    }
  }

  private renderAll(): void {
    this.renderHeader();
    this.renderTranscript();
    this.renderComposer();
    this.applyShowDropped();
    this.updateTicker();
  }

  /** Says a finished answer once in the live region (cleared first so the same text is said again). */
  private announce(turn: TurnView): void {
    this.announcer.textContent = '';
    const text = announcement(turn);
    setTimeout(() => {
      this.announcer.textContent = text;
    }, 50);
  }

  /** Runs a once-a-second update of the elapsed time of a pending turn, only while one is pending. */
  private updateTicker(): void {
    const pending = this.state?.turns.some((t) => t.status === 'pending') ?? false;
    if (pending && this.ticker === undefined) {
      this.ticker = setInterval(() => this.tick(), ELAPSED_TICK_MS);
    } else if (!pending && this.ticker !== undefined) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private tick(): void {
    const now = Date.now();
    for (const elapsed of Array.from(this.transcript.querySelectorAll<HTMLElement>('[data-testid="turn-elapsed"]'))) {
      elapsed.textContent = elapsedText(Number(elapsed.dataset.startedAt), now);
    }
  }

  private applyShowDropped(): void {
    this.root.classList.toggle('hide-dropped', this.state?.showDropped === false);
  }

  private renderHeader(): void {
    const state = this.state;
    if (!state) return;
    const { doc } = this;
    const model = el(doc, 'span', { class: 'header-model', 'data-testid': 'header-model', 'data-backend': state.model.backend, title: 'Model answering' });
    model.append(el(doc, 'span', { class: 'codicon codicon-sparkle', 'aria-hidden': 'true' }), el(doc, 'span', {}, state.model.label));
    const searched = describeRetrieval(state);
    const retrieval = el(doc, 'span', { class: 'header-retrieval', 'data-testid': 'header-retrieval', 'data-retrieval': searched.key, title: searched.title });
    retrieval.append(el(doc, 'span', { class: 'codicon codicon-search', 'aria-hidden': 'true' }), el(doc, 'span', {}, searched.text));
    // The retrieval mode has its own badge: the index badge gives the size or the state.
    const indexText = state.index.state === 'indexed' ? `${numberFormat.format(state.index.passages)} passages` : describeIndex(state.index);
    const index = el(doc, 'span', { class: 'header-index', 'data-testid': 'header-index', 'data-state': state.index.state, title: describeIndex(state.index) }, indexText);
    const toggleLabel = el(doc, 'label', { class: 'toggle-dropped', title: 'Show sentences the verifier dropped' });
    const toggle = el(doc, 'input', { type: 'checkbox', 'data-testid': 'toggle-dropped' });
    toggle.checked = state.showDropped;
    toggle.addEventListener('change', () => this.post({ type: 'setShowDropped', show: toggle.checked }));
    toggleLabel.append(toggle, el(doc, 'span', {}, 'Show dropped'));
    const row = el(doc, 'div', { class: 'header-row' });
    row.append(model, retrieval, index);
    if (state.index.store) {
      const store = el(doc, 'span', { class: 'header-store', 'data-testid': 'header-store', title: `Answers come from the ${state.index.store}` });
      store.append(el(doc, 'span', { class: 'codicon codicon-database', 'aria-hidden': 'true' }), el(doc, 'span', {}, state.index.store));
      row.append(store);
    }
    row.append(toggleLabel);
    this.header.replaceChildren(row);
    if (state.index.state === 'indexing') this.header.append(this.indexProgress(state.index));
    if (state.index.state === 'indexed' && state.index.retrieval === 'lexical' && !this.memory.lexicalHintDismissed) {
      this.header.append(this.lexicalHint(state.index));
    }
    if (state.model.notice) this.header.append(el(doc, 'div', { class: 'model-notice', 'data-testid': 'model-notice', role: 'note' }, state.model.notice));
    if (state.index.message) {
      // Why retrieval is lexical only is a tooltip; an index error or a cancelled run is said aloud.
      if (state.index.state === 'error' || state.index.state === 'not-indexed') {
        this.header.append(el(doc, 'div', { class: 'index-message', 'data-testid': 'index-message', role: 'status' }, state.index.message));
      } else {
        retrieval.title = `${retrieval.title}: ${state.index.message}`;
      }
    }
  }

  /** The running index in the view: phase, counts, a bar, and what the user can do meanwhile. */
  private indexProgress(index: IndexView): HTMLElement {
    const { doc } = this;
    const percent = Math.round(index.percent ?? 0);
    const box = el(doc, 'div', { class: 'index-progress', 'data-testid': 'index-progress', role: 'status' });
    const phase = index.phase ? describeIndexProgress({ phase: index.phase, done: index.done, total: index.total }) : 'Starting…';
    box.append(el(doc, 'div', { class: 'index-progress-text', 'data-testid': 'index-progress-text' }, `Indexing your documents: ${phase} (${percent}%)`));
    const bar = el(doc, 'div', { class: 'progress-bar', role: 'progressbar', 'aria-label': 'Indexing', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(percent) });
    const fill = el(doc, 'div', { class: 'progress-fill' });
    fill.style.width = `${percent}%`;
    bar.append(fill);
    // Vectors filling in: the lexical part is committed, so questions are answered already.
    const hint = index.vectors
      ? `You can ask now: ${describeVectorFill(index.vectors)}`
      : 'You can type your question now: it is answered as soon as the index is ready.';
    box.append(bar, el(doc, 'div', { class: 'index-progress-hint', 'data-testid': 'index-progress-hint' }, hint));
    return box;
  }

  /** Said once, in the header: lexical retrieval matches words, and how to enable the semantic model. */
  private lexicalHint(index: IndexView): HTMLElement {
    const { doc } = this;
    const box = el(doc, 'div', { class: 'lexical-hint', 'data-testid': 'lexical-hint', role: 'note' });
    const text = el(
      doc,
      'span',
      { class: 'lexical-hint-text', title: index.message ?? 'No embedding model is loaded.' },
      'Search matches your words, not their meaning: use the words your documents use.',
    );
    const setUp = el(doc, 'button', { type: 'button', class: 'link-button', 'data-testid': 'lexical-hint-action' }, 'Enable semantic search');
    setUp.addEventListener('click', () => this.post({ type: 'runCommand', command: 'setUpSemanticSearch' }));
    const close = el(doc, 'button', { type: 'button', class: 'icon-only', 'data-testid': 'lexical-hint-dismiss', title: 'Dismiss', 'aria-label': 'Dismiss' });
    close.append(el(doc, 'span', { class: 'codicon codicon-close', 'aria-hidden': 'true' }));
    close.addEventListener('click', () => {
      this.memory = { ...this.memory, lexicalHintDismissed: true };
      this.remember(this.memory);
      this.renderHeader();
      this.input.focus();
    });
    box.append(el(doc, 'span', { class: 'codicon codicon-info', 'aria-hidden': 'true' }), text, setUp, close);
    return box;
  }

  private renderTranscript(): void {
    const state = this.state;
    if (!state) return;
    if (state.turns.length === 0) {
      this.transcript.replaceChildren(this.emptyState(state.index, state.model, state.exampleQuestion));
      return;
    }
    this.transcript.replaceChildren(...state.turns.map((turn) => this.turnElement(turn.id)).filter((e): e is HTMLElement => e !== undefined));
    this.transcript.lastElementChild?.scrollIntoView?.({ block: 'end' });
  }

  private turnElement(turnId: string): HTMLElement | undefined {
    const state = this.state;
    const turn = state?.turns.find((t) => t.id === turnId);
    if (!state || !turn) return undefined;
    return renderTurn(
      this.doc,
      turn,
      { draft: this.drafts.get(turnId), stage: this.stages.get(turnId), latest: state.turns.at(-1)?.id === turnId, lexical: state.index.retrieval === 'lexical' },
      this.actions,
    );
  }

  private renderTurnById(turnId: string, scroll = true): void {
    const fresh = this.turnElement(turnId);
    if (!fresh) return;
    const existing = Array.from(this.transcript.querySelectorAll<HTMLElement>('[data-testid="turn"]')).find((e) => e.dataset.turnId === turnId);
    // Re-rendering must not lose the keyboard focus of someone reading the turn.
    const focusedTestId = existing?.contains(this.doc.activeElement) ? (this.doc.activeElement as HTMLElement).dataset.testid : undefined;
    if (existing) existing.replaceWith(fresh);
    else {
      this.transcript.querySelector('[data-testid="empty-state"]')?.remove();
      this.transcript.append(fresh);
    }
    if (focusedTestId) fresh.querySelector<HTMLElement>(`[data-testid="${focusedTestId}"]`)?.focus();
    if (scroll) fresh.scrollIntoView?.({ block: 'end' });
  }

  private renderComposer(): void {
    const busy = this.state?.busyTurnId !== undefined;
    this.stopButton.hidden = !busy;
    this.sendButton.hidden = busy;
  }

  private emptyState(index: IndexView, model: ModelView, example: string): HTMLElement {
    const { doc } = this;
    const box = el(doc, 'div', { class: 'empty-state', 'data-testid': 'empty-state' });
    box.append(el(doc, 'h3', {}, 'Ask your documents'));
    box.append(
      el(doc, 'p', {}, 'Evident answers from the Markdown files in this workspace. Every sentence cites the passage that backs it; sentences that are not backed are removed.'),
    );
    const facts = el(doc, 'ul', { class: 'empty-facts' });
    facts.append(el(doc, 'li', { 'data-testid': 'empty-index' }, `Index: ${describeIndex(index)}`), el(doc, 'li', { 'data-testid': 'empty-model' }, `Model: ${model.label}`));
    box.append(facts);
    const actions = el(doc, 'div', { class: 'empty-actions' });
    if (index.state === 'not-indexed' || index.state === 'error') {
      const reindex = el(doc, 'button', { type: 'button', class: 'primary', 'data-testid': 'empty-action-reindex' }, 'Index workspace');
      reindex.addEventListener('click', () => this.post({ type: 'runCommand', command: 'reindex' }));
      actions.append(reindex);
    }
    if (model.backend === 'extractive') {
      const key = el(doc, 'button', { type: 'button', class: 'secondary', 'data-testid': 'empty-action-set-key' }, 'Set Gemini API key');
      key.addEventListener('click', () => this.post({ type: 'runCommand', command: 'setGeminiApiKey' }));
      actions.append(key);
    }
    if (actions.childElementCount > 0) box.append(actions);
    if (example) {
      const p = el(doc, 'p', { class: 'example' }, 'Try: ');
      const ask = el(doc, 'button', { type: 'button', class: 'link-button', 'data-testid': 'example-question' }, example);
      ask.addEventListener('click', () => {
        this.input.value = example;
        this.input.focus();
      });
      p.append(ask);
      box.append(p);
    }
    return box;
  }
}

/** What searches for the answering model: the workspace index, or the provider (built-in grounding). */
function describeRetrieval(state: ChatState): { key: string; text: string; title: string } {
  if (state.model.backend === 'google-search') return { key: 'google-search', text: 'Google Search', title: 'Google Search finds the sources (built-in grounding); the workspace index is not used' };
  if (state.model.backend === 'vertex-ai-search') return { key: 'vertex-ai-search', text: 'Vertex AI Search', title: 'Your Vertex AI Search data store finds the sources (built-in grounding); the workspace index is not used' };
  return state.index.retrieval === 'hybrid'
    ? { key: 'hybrid', text: 'hybrid', title: 'Lexical + embedding retrieval' }
    : { key: 'lexical', text: 'lexical only', title: 'Lexical retrieval only (no embedding model)' };
}
