// The chat view's application: keeps the state the host sends, renders the header (chatHeader.ts),
// the empty state, the turns and the composer, and turns user actions into typed messages for the
// host. Keyboard: "Focus on Chat View" (the view gaining focus with nothing focused in it) puts the
// caret in the question box; Escape with a preview open closes it and stays on its chip, Escape
// elsewhere in the transcript returns to the input; Stop returns focus to the input. A polite live
// region announces each finished answer (only that, not the transcript as it changes) and a copy.
// Takes the document and a `post` function so it runs the same in the webview and under jsdom.

import type {
  ChatState,
  HostToWebview,
  IndexView,
  ModelView,
  TurnStage,
  TurnView,
  WebviewToHost,
} from '../shared/protocol';
import { MAX_QUESTION_LENGTH } from '../shared/protocol';
import { emptyIndexMessage } from '../domain/emptyIndex';
import { announcement, elapsedText, renderTurn, type TurnActions } from './answerView';
import { ChatHeader } from './chatHeader';
import { element, icon } from './dom';
import { EvidencePreviews } from './evidencePreview';

export { describeIndex } from './chatHeader';

export type Post = (message: WebviewToHost) => void;

/** What the webview keeps across reloads besides the host's state. */
export interface ViewMemory {
  /** Keys of the header notices the user dismissed (chatHeader.ts). */
  dismissed?: string[];
}

const ELAPSED_TICK_MS = 1000;
/** How long the Copy button says "Copied". */
const COPIED_MS = 2000;

const el = element;

export class ChatApp {
  private state: ChatState | undefined;
  private readonly drafts = new Map<string, string>();
  private readonly stages = new Map<string, { stage: TurnStage; detail?: string }>();
  private readonly header: ChatHeader;
  private readonly transcript: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly announcer: HTMLElement;
  private readonly scroller: HTMLElement;
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
    this.header = new ChatHeader(doc, el(doc, 'header', { class: 'chat-header', 'data-testid': 'chat-header' }), {
      post: (command) => post({ type: 'runCommand', command }),
      dismissed: () => new Set(this.memory.dismissed ?? []),
      dismiss: (key) => {
        this.memory = { ...this.memory, dismissed: [...new Set([...(this.memory.dismissed ?? []), key])] };
        this.remember(this.memory);
        this.renderHeader();
      },
      focusInput: () => this.input.focus(),
      setShowDropped: (show) => post({ type: 'setShowDropped', show }),
    });
    // Not a live region: the announcer below says each finished answer once.
    this.transcript = el(doc, 'main', {
      class: 'transcript',
      'data-testid': 'transcript',
      'aria-label': 'Questions and answers',
    });
    this.announcer = el(doc, 'div', {
      class: 'visually-hidden',
      'data-testid': 'announcer',
      role: 'status',
      'aria-live': 'polite',
      'aria-atomic': 'true',
    });
    const composer = el(doc, 'form', { class: 'composer', 'data-testid': 'composer' });
    this.input = el(doc, 'textarea', {
      class: 'chat-input',
      'data-testid': 'chat-input',
      rows: '2',
      maxlength: String(MAX_QUESTION_LENGTH),
      // Short enough for one line at the narrowest side bar; the keys are in the description.
      placeholder: 'Ask about your documents',
      title: 'Enter sends the question; Shift+Enter adds a new line',
      'aria-label': 'Question',
      'aria-description': 'Enter sends the question; Shift+Enter adds a new line.',
    });
    this.sendButton = el(doc, 'button', {
      type: 'submit',
      class: 'icon-button send',
      'data-testid': 'send-button',
      title: 'Send (Enter)',
      'aria-label': 'Send',
    });
    this.sendButton.append(el(doc, 'span', { class: 'codicon codicon-send', 'aria-hidden': 'true' }));
    this.stopButton = el(doc, 'button', {
      type: 'button',
      class: 'icon-button stop',
      'data-testid': 'stop-button',
      title: 'Stop',
      'aria-label': 'Stop',
      hidden: '',
    });
    this.stopButton.append(el(doc, 'span', { class: 'codicon codicon-debug-stop', 'aria-hidden': 'true' }));
    composer.append(this.input, this.sendButton, this.stopButton);
    // The header and the transcript scroll together in one container; the composer stays below.
    const scroller = el(doc, 'div', { class: 'scroller', 'data-testid': 'scroller' });
    scroller.append(this.header.element, this.transcript);
    root.replaceChildren(scroller, composer, this.announcer);
    this.scroller = scroller;

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
    this.input.addEventListener('input', () => this.fitInput());
    this.stopButton.addEventListener('click', () => {
      post({ type: 'stop' });
      this.input.focus();
    });
    // Escape anywhere in the transcript goes back to the question box, in one press: this
    // capturing listener runs before the chip previews' own (added later), and the open preview
    // closes as focus leaves its chip.
    doc.addEventListener('keydown', this.onEscape, true);
    // The view gaining focus with nothing focused in it ("Focus on Chat View", a click on its
    // title): the caret goes to the question box, so typing is never lost.
    doc.defaultView?.addEventListener('focus', this.onViewFocus);
    if (doc.hasFocus()) this.onViewFocus();
  }

  private readonly onEscape = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.transcript.contains(event.target as Node | null)) return;
    event.preventDefault();
    // A preview open on the focused chip (or focus inside it) closes first; focus stays on its chip.
    if (EvidencePreviews.of(this.doc).closeFocused()) {
      event.stopPropagation();
      return;
    }
    this.input.focus();
  };

  private readonly onViewFocus = (): void => {
    const active = this.doc.activeElement;
    if (!active || active === this.doc.body || active === this.doc.documentElement) this.input.focus();
  };

  /** Stops the elapsed-time ticker and the document listeners (the view is going away). */
  dispose(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    this.doc.removeEventListener('keydown', this.onEscape, true);
    this.doc.defaultView?.removeEventListener('focus', this.onViewFocus);
  }

  /** The state as last rendered, for the webview to keep: a reload shows the history at once from it. */
  get snapshot(): ChatState | undefined {
    return this.state;
  }

  /** The question box grows with its text (up to its CSS max-height), never scrolling a short question. */
  private fitInput(): void {
    const input = this.input;
    input.style.height = 'auto';
    if (input.scrollHeight > 0) input.style.height = `${input.scrollHeight + 2}px`;
  }

  /** The question in the input box (for tests and for restoring the webview's state). */
  get inputText(): string {
    return this.input.value;
  }

  set inputText(text: string) {
    this.input.value = text;
    this.fitInput();
  }

  send(): void {
    const question = this.input.value.trim();
    if (!question || question.length > MAX_QUESTION_LENGTH) return;
    this.post({ type: 'ask', question });
    this.input.value = '';
    this.fitInput();
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
        if (message.text !== undefined) this.inputText = message.text;
        this.input.focus();
        break;
      case 'copied':
        this.showCopied(message.turnId);
        break;
    }
  }

  /** The Copy button of the turn says "Copied" for a moment, and the live region says so. */
  private showCopied(turnId: string): void {
    const turn = Array.from(this.transcript.querySelectorAll<HTMLElement>('[data-testid="turn"]')).find(
      (t) => t.dataset.turnId === turnId,
    );
    const copy = turn?.querySelector<HTMLButtonElement>('[data-testid="copy-answer"]');
    if (copy) {
      const label = copy.querySelector('.action-label');
      const glyph = copy.querySelector('.codicon');
      copy.dataset.copied = 'true';
      copy.title = 'Copied';
      if (label) label.textContent = 'Copied';
      glyph?.classList.replace('codicon-copy', 'codicon-check');
      setTimeout(() => {
        delete copy.dataset.copied;
        copy.title = 'Copy';
        if (label) label.textContent = 'Copy';
        glyph?.classList.replace('codicon-check', 'codicon-copy');
      }, COPIED_MS);
    }
    this.say('Answer copied as Markdown, with its sources.');
  }

  private renderAll(): void {
    this.renderHeader();
    this.renderTranscript();
    this.renderComposer();
    this.applyShowDropped();
    this.updateTicker();
  }

  /** Says a finished answer once in the live region. */
  private announce(turn: TurnView): void {
    this.say(announcement(turn));
  }

  /** Says `text` in the polite live region (cleared first so the same text is said again). */
  private say(text: string): void {
    this.announcer.textContent = '';
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
    if (this.state) this.header.render(this.state);
  }

  private renderTranscript(): void {
    const state = this.state;
    if (!state) return;
    if (state.turns.length === 0) {
      this.transcript.replaceChildren(this.emptyState(state.index, state.model, state.exampleQuestion));
      return;
    }
    this.transcript.replaceChildren(
      ...state.turns.map((turn) => this.turnElement(turn.id)).filter((e): e is HTMLElement => e !== undefined),
    );
    this.scrollToEnd();
  }

  private turnElement(turnId: string): HTMLElement | undefined {
    const state = this.state;
    const turn = state?.turns.find((t) => t.id === turnId);
    if (!state || !turn) return undefined;
    return renderTurn(
      this.doc,
      turn,
      {
        draft: this.drafts.get(turnId),
        stage: this.stages.get(turnId),
        latest: state.turns.at(-1)?.id === turnId,
        lexical: state.index.retrieval === 'lexical',
      },
      this.actions,
    );
  }

  private renderTurnById(turnId: string, scroll = true): void {
    const fresh = this.turnElement(turnId);
    if (!fresh) return;
    const existing = Array.from(this.transcript.querySelectorAll<HTMLElement>('[data-testid="turn"]')).find(
      (e) => e.dataset.turnId === turnId,
    );
    // Re-rendering must not lose the keyboard focus of someone reading the turn.
    const focusedTestId = existing?.contains(this.doc.activeElement)
      ? (this.doc.activeElement as HTMLElement).dataset.testid
      : undefined;
    if (existing) existing.replaceWith(fresh);
    else {
      this.transcript.querySelector('[data-testid="empty-state"]')?.remove();
      this.transcript.append(fresh);
    }
    if (focusedTestId) fresh.querySelector<HTMLElement>(`[data-testid="${focusedTestId}"]`)?.focus();
    if (scroll) this.scrollToEnd();
  }

  /** The latest turn into view, by scrolling the one scroll container only (never the page). */
  private scrollToEnd(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
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
      el(
        doc,
        'p',
        {},
        'Evident answers from the Markdown files in this workspace. Every sentence cites the passage that backs it; sentences that are not backed are removed.',
      ),
    );
    // The model and the index are named in the header above: not repeated here.
    const empty = index.state === 'indexed' && index.passages === 0 && !index.store;
    if (empty) {
      // Nothing to answer from: why (every file skipped, or none found) and the way forward.
      const why = el(doc, 'div', { class: 'empty-index', 'data-testid': 'empty-index', role: 'note' });
      why.append(
        icon(doc, 'warning'),
        el(doc, 'span', { 'data-testid': 'empty-index-text' }, emptyIndexMessage(index.skipped)),
      );
      box.append(why);
    }
    if (index.state === 'no-folder') {
      box.append(
        el(
          doc,
          'p',
          { 'data-testid': 'empty-no-folder' },
          'Open a folder that holds Markdown documents (policies, handbooks, runbooks) to ask about them.',
        ),
      );
    }
    const actions = el(doc, 'div', { class: 'empty-actions' });
    const action = (testId: string, label: string, kind: 'primary' | 'secondary', run: () => void) => {
      const b = el(doc, 'button', { type: 'button', class: kind, 'data-testid': testId }, label);
      b.addEventListener('click', run);
      actions.append(b);
    };
    if (empty) {
      action('empty-action-index-settings', 'Change include/exclude settings', 'primary', () =>
        this.post({ type: 'runCommand', command: 'openIndexSettings' }),
      );
      action('empty-action-reindex', 'Reindex', 'secondary', () =>
        this.post({ type: 'runCommand', command: 'reindex' }),
      );
      if (index.skipped) {
        action('empty-action-show-log', 'Show log', 'secondary', () =>
          this.post({ type: 'runCommand', command: 'showLogs' }),
        );
      }
    }
    if (index.state === 'not-indexed' || index.state === 'error') {
      action('empty-action-reindex', 'Index workspace', 'primary', () =>
        this.post({ type: 'runCommand', command: 'reindex' }),
      );
    }
    if (model.backend === 'extractive' && !empty && index.state !== 'no-folder') {
      action('empty-action-set-key', 'Set Gemini API key', 'secondary', () =>
        this.post({ type: 'runCommand', command: 'setGeminiApiKey' }),
      );
    }
    if (actions.childElementCount > 0) box.append(actions);
    // An example only where asking can work: not with nothing indexed, no folder, or an index error.
    if (example && !empty && index.state !== 'no-folder' && index.state !== 'error') {
      const p = el(doc, 'p', { class: 'example' }, 'Try: ');
      const ask = el(
        doc,
        'button',
        { type: 'button', class: 'link-button', 'data-testid': 'example-question' },
        example,
      );
      ask.addEventListener('click', () => {
        this.inputText = example;
        this.input.focus();
      });
      p.append(ask);
      box.append(p);
    }
    return box;
  }
}
