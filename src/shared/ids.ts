// Command ids, view ids, setting keys and colour ids in one place, so code, package.json and
// the end-to-end tests cannot drift. (package.json repeats them; a unit test checks it does.)

export const EXTENSION_ID = 'evident-dev.evident';

export const Commands = {
  reindex: 'evident.reindex',
  clearIndex: 'evident.clearIndex',
  ask: 'evident.ask',
  askSelection: 'evident.askSelection',
  setGeminiApiKey: 'evident.setGeminiApiKey',
  clearGeminiApiKey: 'evident.clearGeminiApiKey',
  setStorePassword: 'evident.setStorePassword',
  clearStorePassword: 'evident.clearStorePassword',
  openAnswerInEditor: 'evident.openAnswerInEditor',
  /** The metrics dashboard (charts, alerts). */
  showMetrics: 'evident.showMetrics',
  /** The raw turn log (JSONL), reachable from the dashboard. */
  openMetrics: 'evident.openMetrics',
  runEvaluation: 'evident.runEvaluation',
  showLogs: 'evident.showLogs',
  stop: 'evident.stop',
  clearHistory: 'evident.clearHistory',
  chooseModel: 'evident.chooseModel',
  /** Internal: open a source passage (used by citation links). */
  openEvidence: 'evident.openEvidence',
} as const;

/** The `@evident` participant in VS Code's native chat. */
export const Participant = {
  id: 'evident.participant',
  name: 'evident',
} as const;

/** URI scheme of shared-index passages shown read-only (their file is not in the workspace at that version). */
export const PASSAGE_SCHEME = 'evident-passage';

/** URI scheme of answers opened as read-only documents. */
export const ANSWER_SCHEME = 'evident-answer';

/** The metrics dashboard (a webview panel in the editor area). */
export const METRICS_PANEL = 'evident.metricsDashboard';

export const Views = {
  container: 'evident',
  containerTitle: 'Evident',
  chat: 'evident.chat',
} as const;

export const Settings = {
  section: 'evident',
  model: 'evident.model',
  geminiModel: 'evident.gemini.model',
  geminiWebSearch: 'evident.gemini.webSearch',
  include: 'evident.index.include',
  exclude: 'evident.index.exclude',
  embeddingModel: 'evident.embedding.model',
  embeddingLocalPath: 'evident.embedding.localModelPath',
  embeddingBackend: 'evident.embedding.backend',
  topK: 'evident.retrieval.topK',
  supportThreshold: 'evident.verifier.supportThreshold',
  relevanceCheck: 'evident.verifier.relevanceCheck',
  escalation: 'evident.verifier.escalation',
  entailmentModel: 'evident.verifier.entailmentModel',
  showDropped: 'evident.chat.showDroppedSentences',
  alertRecentTurns: 'evident.metrics.alerts.recentTurns',
  alertBaselineTurns: 'evident.metrics.alerts.baselineTurns',
  alertMinTurns: 'evident.metrics.alerts.minTurns',
  alertMinSentences: 'evident.metrics.alerts.minSentences',
  alertZ: 'evident.metrics.alerts.zThreshold',
  alertMinChange: 'evident.metrics.alerts.minChange',
  alertNotify: 'evident.metrics.alerts.notify',
  logMaxSizeMB: 'evident.metrics.logMaxSizeMB',
  logRotatedFiles: 'evident.metrics.logRotatedFiles',
  vertexDataStore: 'evident.vertexAiSearch.dataStore',
  vertexFilter: 'evident.vertexAiSearch.filter',
  vertexMaxResults: 'evident.vertexAiSearch.maxResults',
  vertexProject: 'evident.vertexAiSearch.project',
  vertexLocation: 'evident.vertexAiSearch.location',
  storeConnection: 'evident.store.connection',
  chatTimeout: 'evident.chat.timeoutSeconds',
} as const;

/** Context keys Evident sets (walkthrough completion, menus). */
export const ContextKeys = {
  indexed: 'evident.indexed',
} as const;

/** The getting-started walkthrough (package.json `contributes.walkthroughs`) and its steps. */
export const Walkthrough = {
  id: 'evident.gettingStarted',
  steps: { openChat: 'openChat', index: 'index', model: 'model', ask: 'ask' },
} as const;

/** VS Code's id of a walkthrough step: `<extension id>#<walkthrough id>#<step id>`. */
export function walkthroughStepId(step: keyof typeof Walkthrough.steps): string {
  return `${EXTENSION_ID}#${Walkthrough.id}#${Walkthrough.steps[step]}`;
}

export const Colors = {
  citation: 'evident.citationForeground',
  droppedSentence: 'evident.droppedSentenceBackground',
  citedPassage: 'evident.citedPassageBackground',
  /** The passage whose chip was clicked, picked out from the other cited ones. */
  openedPassage: 'evident.openedPassageBackground',
  openedPassageBorder: 'evident.openedPassageBorder',
} as const;

/** Defaults the host needs before the engine bundle loads (a unit test keeps them equal to core's and package.json's). */
export const Defaults = {
  embeddingModel: 'Xenova/all-MiniLM-L6-v2',
  geminiModel: 'gemini-2.5-flash',
} as const;
