// Evident's extension entry point: activate() is a list of registrations. Nothing heavy loads
// here; the engine bundle is read on first use (indexing starts right after activation).

import * as vscode from 'vscode';
import { registerChatParticipant } from './chatParticipant';
import { ChatSession } from './chatSession';
import { registerChatView } from './chatView';
import { registerCitationLinks } from './citationLinks';
import { registerCommands } from './commands';
import { registerMetricsDashboard } from './metricsDashboard';
import { GeminiKeyStore } from './geminiKey';
import { StorePasswordStore } from './storePassword';
import { VerifierEscalation } from './escalation';
import { loadEngineApi } from './engineLoader';
import { createLog, isAbortError } from './log';
import { ModelResolver } from './models';
import { editorModelSources } from './modelSources';
import { affectsIndex, readChatTimeoutSeconds } from './settings';
import { SourceHighlighter } from './sourceHighlight';
import { registerStatusBar } from './statusBar';
import { WorkspaceIndex } from './workspaceIndex';
import { editorIndexHost } from './workspaceIndexHost';
import { registerLanguageModelTools } from './languageModelTools';
import { TextCheckView } from './textCheckView';
import { markWalkthroughStep } from './walkthrough';

export function activate(context: vscode.ExtensionContext): void {
  const started = Date.now();
  const log = createLog(context);
  const keys = new GeminiKeyStore(context.secrets);
  const storePassword = new StorePasswordStore(context.secrets);
  const index = new WorkspaceIndex(editorIndexHost(context, log, storePassword), log);
  const models = new ModelResolver(editorModelSources(keys));
  const escalation = new VerifierEscalation(context, log);
  const session = new ChatSession(context.workspaceState, index, models, log, escalation, {
    askGrounded: (question, options) => loadEngineApi().askGrounded(question, options),
    timeoutSeconds: readChatTimeoutSeconds,
    answered: () => markWalkthroughStep('ask', log),
    isCancellation: isAbortError,
  });
  const sources = new SourceHighlighter(session, index);
  context.subscriptions.push(index, models, session, sources);

  registerStatusBar(context, index);
  const answers = registerCitationLinks(context, session);
  const chatView = registerChatView(context, {
    session,
    index,
    models,
    log,
    openEvidence: (turnId, evidenceId) => sources.open(turnId, evidenceId),
    openAnswerInEditor: (turnId) => answers.open(turnId),
  });
  const dashboard = registerMetricsDashboard(context, { index, session, log });
  const textChecks = new TextCheckView((source) => sources.sourceUri(source));
  context.subscriptions.push(textChecks);
  registerCommands(context, {
    index,
    session,
    chatView,
    keys,
    storePassword,
    sources,
    answers,
    dashboard,
    textChecks,
    log,
  });
  registerLanguageModelTools(context, { index, sources, log });
  registerChatParticipant(context, index, sources, log, escalation, () => void dashboard.afterTurn());
  registerIndexUpkeep(context, index, storePassword);

  log.info(`Evident activated in ${Date.now() - started} ms.`);
}

/** Watches docs, follows settings and folder changes, and indexes once activation is done. */
function registerIndexUpkeep(
  context: vscode.ExtensionContext,
  index: WorkspaceIndex,
  storePassword: StorePasswordStore,
): void {
  index.startWatching();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsIndex(e)) index.reset();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => index.reset()),
    storePassword.onDidChange(() => index.reset()),
    // Trusting the folder lets its workspace settings count (settingScopes.ts): reopen with them.
    vscode.workspace.onDidGrantWorkspaceTrust(() => index.reset()),
  );
  // After activation returns: the engine bundle loads off the activation path.
  const timer = setTimeout(() => void index.warmUp(), 0);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}

export function deactivate(): void {}
