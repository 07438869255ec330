// The chat's turns: runs each question as its own engine invocation (index first if needed,
// stream the unverified draft, then the verified result), cancels through the whole loop on
// Stop, and persists the history per workspace (validated when read back). Its collaborators are
// the narrow interfaces below (the host wires the workspace index, the model resolver, the
// workspace state): no `vscode` import, unit-tested in plain Node.

import type { Engine, PreviousTurn, TurnEvent } from '../core/engine';
import type { ChatModel, SupportScorer } from '../core/types';
import type { TurnResult } from '../domain/types';
import {
  isTurnView,
  upgradeSavedTurn,
  type Feedback,
  type HostToWebview,
  type IndexView,
  type TurnView,
} from '../shared/protocol';
import { Emitter, type Disposable } from './emitter';
import type { EngineApi } from './engineLoader';
import { errorMessage } from './errorMessage';
import type { TurnModel } from './models';
import { describeTurnError, indexFailure, noDocumentsError, timeoutError } from './turnErrors';
import { noticesToShow } from './answerNotices';

const HISTORY_KEY = 'evident.chatHistory';
const MAX_TURNS = 50;
const DRAFT_INTERVAL_MS = 80;
/**
 * The turn a new question follows: the latest answered turn before `upTo` (exclusive), abstained or
 * not (a follow-up's subject is the question, not the answer). Only its question and what it was
 * answered as are carried; a question that stands alone is answered alone.
 */
export function previousTurnBefore(turns: readonly TurnView[], upTo = turns.length): PreviousTurn | undefined {
  for (let i = Math.min(upTo, turns.length) - 1; i >= 0; i--) {
    const t = turns[i];
    if (t.status !== 'done' || !t.result) continue;
    return {
      question: t.result.question,
      ...(t.result.answeredAs !== undefined ? { answeredAs: t.result.answeredAs } : {}),
    };
  }
  return undefined;
}

/** The engine of a turn over the workspace index: what the session asks of it. */
export type SessionEngine = Pick<Engine, 'ask' | 'recordFeedback' | 'createExtractiveModel'>;

/** Where answers come from (the workspace index): an engine indexed first if need be, its state, its logs. */
export interface AnswerSource {
  /** The engine, indexed: `onIndexing` is called when a first index has to run first. */
  ready(onIndexing?: () => void): Promise<SessionEngine>;
  /** The engine as it is (feedback needs no index run). */
  engine(): Promise<Pick<Engine, 'recordFeedback'>>;
  readonly status: IndexView;
  readonly logPaths: { metrics: string; audit: string };
}

/** Picks the model of a turn (the `evident.model` setting); asks for the engine only when it needs it. */
export interface ModelChooser {
  create(engine: () => Promise<{ createExtractiveModel(): ChatModel }>): Promise<TurnModel>;
}

/** Where the history is kept (the workspace state). */
export interface HistoryStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface SessionLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The verifier's second tier for a turn answered by `model`. */
export interface TurnEscalation {
  forTurn(model: ChatModel): SupportScorer | undefined;
}

/** What a turn needs of the editor and the engine bundle, beside its collaborators. */
export interface SessionHost {
  /** Route 2 (the provider searches): the engine bundle's askGrounded. */
  askGrounded: EngineApi['askGrounded'];
  /** The time limit of a turn (0: none), read when the turn starts. */
  timeoutSeconds(): number;
  /** A turn was answered (the walkthrough's "ask" step). */
  answered(): void;
  /** Whether `error` is a cancellation (an abort, or the editor's CancellationError). */
  isCancellation(error: unknown): boolean;
}

export type SessionEvent = Extract<HostToWebview, { type: 'turn' | 'draft' | 'progress' }> | { type: 'cleared' };

export class ChatSession implements Disposable {
  private turns: TurnView[];
  private active: { id: string; controller: AbortController } | undefined;
  private readonly emitter = new Emitter<SessionEvent>();
  private readonly shownNotices = new Set<string>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly state: HistoryStore,
    private readonly index: AnswerSource,
    private readonly models: ModelChooser,
    private readonly log: SessionLog,
    private readonly escalation: TurnEscalation,
    private readonly host: SessionHost,
  ) {
    const saved = state.get(HISTORY_KEY);
    this.turns = Array.isArray(saved)
      ? saved
          .map(upgradeSavedTurn)
          .filter(isTurnView)
          .map((t) => (t.status === 'pending' ? { ...t, status: 'cancelled' as const } : t))
      : [];
  }

  get history(): readonly TurnView[] {
    return this.turns;
  }

  get busyTurnId(): string | undefined {
    return this.active?.id;
  }

  find(turnId: string): TurnView | undefined {
    return this.turns.find((t) => t.id === turnId);
  }

  /** The answer on screen now: the latest finished turn with a result. */
  get current(): TurnView | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) if (this.turns[i].result) return this.turns[i];
    return undefined;
  }

  /**
   * Asks a question as a new turn; a turn still running is stopped first. The question follows the
   * latest answered turn before it (or before `conversationUpTo`, for a regenerated answer).
   */
  async ask(question: string, options: { conversationUpTo?: number } = {}): Promise<TurnView> {
    this.stop();
    const follows = previousTurnBefore(this.turns, options.conversationUpTo);
    const id = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const controller = new AbortController();
    this.active = { id, controller };
    let turn: TurnView = { id, question: question.trim(), status: 'pending', startedAt: Date.now() };
    this.turns.push(turn);
    this.turns = this.turns.slice(-MAX_TURNS);
    this.emitter.fire({ type: 'turn', turn });

    let lastDraft = 0;
    const searches: string[] = [];
    const timeoutSeconds = this.host.timeoutSeconds();
    let timedOut = false;
    const timer =
      timeoutSeconds > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutSeconds * 1000)
        : undefined;
    try {
      let sourcesWord = 'passages';
      const onDraft = (text: string) => {
        const now = Date.now();
        if (now - lastDraft < DRAFT_INTERVAL_MS) return;
        lastDraft = now;
        this.emitter.fire({ type: 'draft', turnId: id, text });
      };
      const onEvent = (event: TurnEvent) => {
        if (event.type === 'search') searches.push(event.query);
        this.emitter.fire(
          event.type === 'search'
            ? {
                type: 'progress',
                turnId: id,
                stage: 'answering',
                detail: `${event.evidence.length} ${sourcesWord} found for “${event.query}”`,
              }
            : { type: 'progress', turnId: id, stage: 'verifying' },
        );
      };
      // Opening or indexing the workspace failed: the question could not be answered from it.
      const readyEngine = () =>
        this.index
          .ready(() => this.emitter.fire({ type: 'progress', turnId: id, stage: 'indexing' }))
          .catch((error: unknown) => {
            throw this.host.isCancellation(error) ? error : indexFailure(error);
          });
      const chosen = await this.models.create(readyEngine);
      controller.signal.throwIfAborted();
      this.log.info(`Turn ${id}: asking ${chosen.model.name}${follows ? ' (after the previous turn)' : ''}.`);
      this.emitter.fire({ type: 'progress', turnId: id, stage: 'answering', detail: modelLabel(chosen.model.name) });
      let result: TurnResult;
      if (chosen.kind === 'grounded') {
        // Route 2: the provider searches; the workspace index is not involved.
        sourcesWord = 'sources';
        const logs = this.index.logPaths;
        result = await this.host.askGrounded(turn.question, {
          model: chosen.model,
          signal: controller.signal,
          id,
          metricsLog: logs.metrics,
          auditLog: logs.audit,
          onDraft,
          onEvent,
          onLogError: (m) => this.log.warn(m),
        });
      } else {
        const engine = await readyEngine();
        controller.signal.throwIfAborted();
        // Nothing indexed from the workspace: the real cause (no Markdown, or every file skipped), said in full.
        const empty = noDocumentsError(this.index.status);
        if (empty) throw empty;
        result = await engine.ask(turn.question, {
          model: chosen.model,
          escalation: this.escalation.forTurn(chosen.model),
          webSearch: chosen.webSearch,
          signal: controller.signal,
          id,
          ...(follows ? { follows } : {}),
          onDraft,
          onEvent,
        });
        // Why retrieval is lexical only, and why the offline model answers (`chosen.notice`), are said
        // once, in the chat header (with the button that changes it), not under answers; other
        // one-time notices show under the first answer (answerNotices.ts).
        // (A grounded turn's notices are about that turn's metadata: always shown.)
        result.notices = noticesToShow(result.notices, this.shownNotices);
      }
      this.log.info(
        `Turn ${id}: ${result.metrics.retrieved} retrieved, coverage ${result.metrics.coverage.toFixed(2)}, ${result.metrics.dropped} dropped, ` +
          `${result.abstained ? 'abstained' : 'answered'} (${result.model}, ${result.retrieval}).`,
      );
      turn = { ...turn, status: 'done', result, searches };
      this.host.answered();
    } catch (error) {
      if (timedOut) {
        const failure = timeoutError(timeoutSeconds);
        this.log.error(
          `Turn ${id}: no answer within ${timeoutSeconds} s (setting evident.chat.timeoutSeconds); stopped.`,
        );
        turn = { ...turn, status: 'failed', error: failure.message, errorKind: failure.kind, searches };
      } else if (this.host.isCancellation(error) || controller.signal.aborted) {
        this.log.info(`Turn ${id}: stopped.`);
        turn = { ...turn, status: 'cancelled', searches };
      } else {
        const failure = describeTurnError(error);
        this.log.error(`Turn ${id} failed: ${errorMessage(error)}`);
        turn = { ...turn, status: 'failed', error: failure.message, errorKind: failure.kind, searches };
      }
    } finally {
      if (timer) clearTimeout(timer);
      if (this.active?.id === id) this.active = undefined;
    }
    this.replace(turn);
    return turn;
  }

  /** Asks the question of an earlier turn again, as a new turn. */
  retry(turnId: string): Promise<TurnView> | undefined {
    const turn = this.find(turnId);
    return turn ? this.ask(turn.question) : undefined;
  }

  /** A new answer to the question of a turn, continuing the conversation as it stood before it. */
  regenerate(turnId: string): Promise<TurnView> | undefined {
    const at = this.turns.findIndex((t) => t.id === turnId);
    return at >= 0 ? this.ask(this.turns[at].question, { conversationUpTo: at }) : undefined;
  }

  /** Records the user's verdict on an answer (null clears it): kept in the history and the turn log. */
  async setFeedback(turnId: string, feedback: Feedback | null): Promise<void> {
    const turn = this.find(turnId);
    if (!turn?.result) return;
    const updated: TurnView = { ...turn };
    if (feedback) updated.feedback = feedback;
    else delete updated.feedback;
    this.replace(updated);
    if (feedback) {
      const engine = await this.index.engine();
      await engine.recordFeedback(turn.result.invocationId, feedback);
      this.log.info(`Turn ${turnId}: marked ${feedback}.`);
    }
  }

  stop(): void {
    this.active?.controller.abort();
  }

  /** Forgets every turn (a running one is stopped first); resolves to the turns removed, for Undo. */
  async clear(): Promise<TurnView[]> {
    this.stop();
    const removed = this.turns.filter((t) => t.status !== 'pending');
    this.turns = [];
    await this.state.update(HISTORY_KEY, this.turns);
    this.emitter.fire({ type: 'cleared' });
    return removed;
  }

  /** Puts cleared turns back (Undo), before the turns asked since. */
  async restore(turns: readonly TurnView[]): Promise<void> {
    const known = new Set(this.turns.map((t) => t.id));
    this.turns = [...turns.filter((t) => !known.has(t.id)), ...this.turns].slice(-MAX_TURNS);
    await this.state.update(
      HISTORY_KEY,
      this.turns.filter((t) => t.status !== 'pending'),
    );
    this.emitter.fire({ type: 'cleared' });
  }

  dispose(): void {
    this.stop();
    this.emitter.dispose();
  }

  private replace(turn: TurnView): void {
    const at = this.turns.findIndex((t) => t.id === turn.id);
    if (at >= 0) this.turns[at] = turn;
    void this.state.update(
      HISTORY_KEY,
      this.turns.filter((t) => t.status !== 'pending'),
    );
    this.emitter.fire({ type: 'turn', turn });
  }
}

/** "gemini:gemini-2.5-flash" → "Gemini (gemini-2.5-flash)": how the pending turn names who it waits for. */
function modelLabel(name: string): string {
  if (name === 'extractive') return 'the offline model';
  const [backend, id] = name.split(/:(.*)/s);
  const known: Record<string, string> = { gemini: 'Gemini', 'vscode-lm': 'the VS Code model' };
  return id ? `${known[backend] ?? backend} (${id})` : (known[backend] ?? name);
}
