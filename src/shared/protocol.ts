// The one message protocol between the extension host and the chat webview: discriminated
// unions in both directions, with runtime guards used at each receiving end. Also the guard
// for a persisted or received TurnResult, since history comes back from storage untrusted.

import type { PartialRetrieval, VectorFill } from '../domain/partialRetrieval';
import { isNotice, upgradeSavedNotice, type Notice } from '../domain/notices';
import type {
  AbstentionCause,
  Evidence,
  Feedback,
  GroundingInfo,
  GroundingSupportRecord,
  RelevanceVerdict,
  RetrievalMode,
  SentenceVerdict,
  TurnMetrics,
  TurnRelevance,
  TurnResult,
} from '../domain/types';
import {
  ABSTENTION_CAUSES,
  FEEDBACKS,
  GROUNDING_ROUTES,
  RELEVANCE_VERDICTS,
  RETRIEVAL_MODES,
  SUPPORT_TIERS,
  TURN_RETRIEVALS,
  VERDICTS,
} from '../domain/types';
import { isEvidenceIdText } from '../domain/citations';
import type { IndexPhase } from '../domain/indexProgress';

export type { Feedback } from '../domain/types';
export type { IndexPhase } from '../domain/indexProgress';
import {
  isArrayOf,
  isBoolean,
  isFiniteNumber,
  isNonNegativeInteger,
  isOneOf,
  isOptional,
  isRecord,
  isShape,
  isString,
  type Guard,
} from './guards';

import { MAX_QUESTION_LENGTH } from '../domain/question';

export { MAX_QUESTION_LENGTH };

/** `google-search` and `vertex-ai-search`: built-in grounding (the provider searches). */
export type ModelBackend = 'gemini' | 'google-search' | 'vertex-ai-search' | 'vscode-lm' | 'extractive';
export const MODEL_BACKENDS: readonly ModelBackend[] = [
  'gemini',
  'google-search',
  'vertex-ai-search',
  'vscode-lm',
  'extractive',
];

/** Why the configured model is not the one answering: decides the button the chat offers. */
export const MODEL_NOTICE_CODES = ['no-gemini-key', 'no-data-store', 'no-language-model'] as const;
export type ModelNoticeCode = (typeof MODEL_NOTICE_CODES)[number];

/** Which model and retrieval mode answer: shown in the chat header. */
export interface ModelView {
  backend: ModelBackend;
  /** Human label, e.g. "Gemini (gemini-2.5-flash)". */
  label: string;
  /** Why the configured model is not the one answering, if so. */
  notice?: string;
  /** The notice's code (the chat offers the button that fixes it). */
  noticeCode?: ModelNoticeCode;
}

/** A file the index could not use, and why ("too large (5.0 MB; the limit is 2 MB)"). */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** At most this many skipped files travel to the chat (the log has them all). */
export const MAX_SKIPPED_SHOWN = 20;

export type IndexState = 'no-folder' | 'not-indexed' | 'indexing' | 'indexed' | 'error';

export interface IndexView {
  state: IndexState;
  documents: number;
  passages: number;
  retrieval: RetrievalMode;
  /** 0..100 while indexing. */
  percent?: number;
  /** What the running index is doing, for the progress shown in the chat view. */
  phase?: IndexPhase;
  /** Files done and to do in the current phase (absent when the phase has no file count). */
  done?: number;
  total?: number;
  /** Error text or a notice ("embedding model unavailable: lexical only"). */
  message?: string;
  /** A shared index answers: which one ("shared index postgres://host/db"); absent for the local index. */
  store?: string;
  /** Hybrid retrieval while vectors fill in: how many passages have one (absent when all do). */
  vectors?: VectorFill;
  /** Files the index skipped (the first MAX_SKIPPED_SHOWN), and how many in all. */
  skipped?: { files: SkippedFile[]; total: number };
}

export type TurnStatus = 'pending' | 'done' | 'failed' | 'cancelled';

/** What kind of failure a turn met: decides the ways forward the chat offers. */
export const TURN_ERROR_KINDS = [
  'api-key',
  'quota',
  'network',
  'timeout',
  'model',
  'index',
  'no-documents',
  'other',
] as const;
/** `no-documents`: nothing is indexed from the workspace (no Markdown, or every file skipped). */
export type TurnErrorKind = (typeof TURN_ERROR_KINDS)[number];

/** One question and what came of it; persisted per workspace. */
export interface TurnView {
  id: string;
  question: string;
  status: TurnStatus;
  startedAt: number;
  result?: TurnResult;
  /** One plain sentence: what failed and what to do. */
  error?: string;
  errorKind?: TurnErrorKind;
  /** The search queries run in this turn (shown when nothing was found). */
  searches?: string[];
  feedback?: Feedback;
}

export interface ChatState {
  index: IndexView;
  model: ModelView;
  turns: TurnView[];
  showDropped: boolean;
  busyTurnId?: string;
  exampleQuestion: string;
}

export type TurnStage = 'indexing' | 'searching' | 'answering' | 'verifying';
export const TURN_STAGES: readonly TurnStage[] = ['indexing', 'searching', 'answering', 'verifying'];

/** Commands the webview may ask the host to run (an allow-list, not arbitrary ids). */
export const WEBVIEW_COMMANDS = [
  'reindex',
  'setGeminiApiKey',
  'showLogs',
  'openSettings',
  'clearHistory',
  'useOfflineModel',
  'setUpSemanticSearch',
  'openTimeoutSetting',
  'openIndexSettings',
  'chooseModel',
  'openDataStoreSetting',
] as const;
export type WebviewCommand = (typeof WEBVIEW_COMMANDS)[number];

export type HostToWebview =
  | { type: 'state'; state: ChatState }
  | { type: 'turn'; turn: TurnView }
  | { type: 'draft'; turnId: string; text: string }
  | { type: 'progress'; turnId: string; stage: TurnStage; detail?: string }
  | { type: 'status'; index: IndexView; model: ModelView }
  | { type: 'showDropped'; show: boolean }
  | { type: 'focusInput'; text?: string }
  /** The answer of a turn is on the clipboard (as Markdown with its sources). */
  | { type: 'copied'; turnId: string };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'ask'; question: string }
  | { type: 'stop' }
  | { type: 'retry'; turnId: string }
  | { type: 'openEvidence'; turnId: string; evidenceId: string }
  | { type: 'copyAnswer'; turnId: string }
  | { type: 'openAnswerInEditor'; turnId: string }
  | { type: 'setShowDropped'; show: boolean }
  | { type: 'runCommand'; command: WebviewCommand }
  | { type: 'openLink'; url: string }
  | { type: 'feedback'; turnId: string; feedback: Feedback | null }
  | { type: 'regenerate'; turnId: string };

// ---------------------------------------------------------------------------------------
// Guards

const TURN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An evidence id of at most four digits (no turn records 10,000 passages). */
export const isEvidenceId: Guard<string> = (v): v is string => isString(v) && v.length <= 5 && isEvidenceIdText(v);
export const isTurnId: Guard<string> = (v): v is string => isString(v) && TURN_ID.test(v);

const isEvidence = isShape<Evidence>({
  id: isEvidenceId,
  passageId: isString,
  source: isString,
  startLine: isNonNegativeInteger,
  endLine: isNonNegativeInteger,
  heading: isString,
  text: isString,
  version: isString,
  uri: isOptional(isString),
  title: isOptional(isString),
  stale: isOptional(isBoolean),
});

const isSentenceVerdict = isShape<SentenceVerdict>({
  text: isString,
  citations: (c): c is string[] => isArrayOf(c, isString),
  verdict: isOneOf(VERDICTS),
  reason: isString,
  // A reason code the UI does not know yet still renders (by its text): no closed list here.
  code: isString as Guard<SentenceVerdict['code']>,
  support: isFiniteNumber,
  start: isNonNegativeInteger,
  end: isNonNegativeInteger,
  tier: isOptional(isOneOf(SUPPORT_TIERS)),
});

const isMetrics = isShape<TurnMetrics>({
  retrieved: isNonNegativeInteger,
  coverage: isFiniteNumber,
  dropped: isNonNegativeInteger,
  abstained: isBoolean,
});

const isRetrievalMode = isOneOf<RetrievalMode>(RETRIEVAL_MODES);
const isFeedback = isOneOf<Feedback>(FEEDBACKS);
const isTurnRetrieval = isOneOf(TURN_RETRIEVALS);

const isSupportRecord = isShape<GroundingSupportRecord>({
  segment: isString,
  sentence: isString,
  chunks: (v): v is string[] => isArrayOf(v, isEvidenceId),
  uris: (v): v is string[] => isArrayOf(v, isString),
  confidence: isOptional(isFiniteNumber),
  ignored: isOptional(isString),
});

const isGroundingInfo = isShape<GroundingInfo>({
  route: isOneOf(GROUNDING_ROUTES),
  supports: (v): v is GroundingSupportRecord[] => isArrayOf(v, isSupportRecord),
  queries: (v): v is string[] => isArrayOf(v, isString),
  searchSuggestions: isOptional(isString),
});

export const isTurnResult = isShape<TurnResult>({
  id: isOptional(isString),
  invocationId: isString,
  question: isString,
  answeredAs: isOptional(isString),
  answer: isString,
  abstained: isBoolean,
  sentences: (v): v is SentenceVerdict[] => isArrayOf(v, isSentenceVerdict),
  evidence: (v): v is Evidence[] => isArrayOf(v, isEvidence),
  metrics: isMetrics,
  model: isString,
  retrieval: isTurnRetrieval,
  grounding: isOptional(isGroundingInfo),
  notices: (v): v is Notice[] => isArrayOf(v, isNotice),
  relevance: isOptional(
    isShape<TurnRelevance>({ verdict: isOneOf<RelevanceVerdict>(RELEVANCE_VERDICTS), reason: isString }),
  ),
  abstainedBy: isOptional(isOneOf<AbstentionCause>(ABSTENTION_CAUSES)),
  partialRetrieval: isOptional(
    isShape<PartialRetrieval>({
      passagesWithVectors: isNonNegativeInteger,
      passages: isNonNegativeInteger,
      percent: isNonNegativeInteger,
    }),
  ),
});

/**
 * A turn saved by an earlier version, in today's shape where only the shape changed (its notices
 * were plain strings): read before `isTurnView` checks it, so no saved turn is lost.
 */
export function upgradeSavedTurn(v: unknown): unknown {
  if (!isRecord(v) || !isRecord(v.result) || !Array.isArray(v.result.notices)) return v;
  return { ...v, result: { ...v.result, notices: v.result.notices.map(upgradeSavedNotice) } };
}

export const isTurnView = isShape<TurnView>({
  id: isTurnId,
  question: isString,
  status: isOneOf<TurnStatus>(['pending', 'done', 'failed', 'cancelled']),
  startedAt: isFiniteNumber,
  result: isOptional(isTurnResult),
  error: isOptional(isString),
  errorKind: isOptional(isOneOf<TurnErrorKind>(TURN_ERROR_KINDS)),
  searches: isOptional((v): v is string[] => isArrayOf(v, isString)),
  feedback: isOptional(isFeedback),
});

const isModelView = isShape<ModelView>({
  backend: isOneOf<ModelBackend>(MODEL_BACKENDS),
  label: isString,
  notice: isOptional(isString),
  noticeCode: isOptional(isOneOf(MODEL_NOTICE_CODES)),
});

const isIndexView = isShape<IndexView>({
  state: isOneOf<IndexState>(['no-folder', 'not-indexed', 'indexing', 'indexed', 'error']),
  documents: isNonNegativeInteger,
  passages: isNonNegativeInteger,
  retrieval: isRetrievalMode,
  percent: isOptional(isFiniteNumber),
  phase: isOptional(isOneOf<IndexPhase>(['scanning', 'reading', 'embedding', 'saving'])),
  done: isOptional(isNonNegativeInteger),
  total: isOptional(isNonNegativeInteger),
  message: isOptional(isString),
  store: isOptional(isString),
  vectors: isOptional(
    isShape<VectorFill>({ passagesWithVectors: isNonNegativeInteger, passages: isNonNegativeInteger }),
  ),
  skipped: isOptional(
    isShape<{ files: SkippedFile[]; total: number }>({
      files: (v): v is SkippedFile[] => isArrayOf(v, isShape<SkippedFile>({ path: isString, reason: isString })),
      total: isNonNegativeInteger,
    }),
  ),
});

const isChatState = isShape<ChatState>({
  index: isIndexView,
  model: isModelView,
  turns: (v): v is TurnView[] => isArrayOf(v, isTurnView),
  showDropped: isBoolean,
  busyTurnId: isOptional(isTurnId),
  exampleQuestion: isString,
});

const isQuestion: Guard<string> = (v): v is string =>
  isString(v) && v.trim().length > 0 && v.length <= MAX_QUESTION_LENGTH;

const hostMessageGuards: { [K in HostToWebview['type']]: Guard<Extract<HostToWebview, { type: K }>> } = {
  state: isShape({ type: isOneOf(['state'] as const), state: isChatState }),
  turn: isShape({ type: isOneOf(['turn'] as const), turn: isTurnView }),
  draft: isShape({ type: isOneOf(['draft'] as const), turnId: isTurnId, text: isString }),
  progress: isShape({
    type: isOneOf(['progress'] as const),
    turnId: isTurnId,
    stage: isOneOf<TurnStage>(TURN_STAGES),
    detail: isOptional(isString),
  }),
  status: isShape({ type: isOneOf(['status'] as const), index: isIndexView, model: isModelView }),
  showDropped: isShape({ type: isOneOf(['showDropped'] as const), show: isBoolean }),
  focusInput: isShape({ type: isOneOf(['focusInput'] as const), text: isOptional(isString) }),
  copied: isShape({ type: isOneOf(['copied'] as const), turnId: isTurnId }),
};

const webviewMessageGuards: { [K in WebviewToHost['type']]: Guard<Extract<WebviewToHost, { type: K }>> } = {
  ready: isShape({ type: isOneOf(['ready'] as const) }),
  ask: isShape({ type: isOneOf(['ask'] as const), question: isQuestion }),
  stop: isShape({ type: isOneOf(['stop'] as const) }),
  retry: isShape({ type: isOneOf(['retry'] as const), turnId: isTurnId }),
  openEvidence: isShape({ type: isOneOf(['openEvidence'] as const), turnId: isTurnId, evidenceId: isEvidenceId }),
  copyAnswer: isShape({ type: isOneOf(['copyAnswer'] as const), turnId: isTurnId }),
  openAnswerInEditor: isShape({ type: isOneOf(['openAnswerInEditor'] as const), turnId: isTurnId }),
  setShowDropped: isShape({ type: isOneOf(['setShowDropped'] as const), show: isBoolean }),
  runCommand: isShape({ type: isOneOf(['runCommand'] as const), command: isOneOf(WEBVIEW_COMMANDS) }),
  openLink: isShape({ type: isOneOf(['openLink'] as const), url: isString }),
  feedback: isShape({
    type: isOneOf(['feedback'] as const),
    turnId: isTurnId,
    feedback: (v): v is Feedback | null => v === null || isFeedback(v),
  }),
  regenerate: isShape({ type: isOneOf(['regenerate'] as const), turnId: isTurnId }),
};

function dispatchGuard<T extends { type: string }>(guards: Record<string, Guard<T>>, value: unknown): value is T {
  if (!isRecord(value) || !isString(value.type)) return false;
  const guard = Object.prototype.hasOwnProperty.call(guards, value.type) ? guards[value.type] : undefined;
  return guard !== undefined && guard(value);
}

/** True when `value` is a well-formed message from the host (checked in the webview). */
export function isHostToWebview(value: unknown): value is HostToWebview {
  return dispatchGuard<HostToWebview>(hostMessageGuards as Record<string, Guard<HostToWebview>>, value);
}

/** True when `value` is a well-formed message from the webview (checked in the host). */
export function isWebviewToHost(value: unknown): value is WebviewToHost {
  return dispatchGuard<WebviewToHost>(webviewMessageGuards as Record<string, Guard<WebviewToHost>>, value);
}

/** Only plain web links may leave the webview, and only through the host. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.username === '' && parsed.password === ''
    );
  } catch {
    return false;
  }
}
