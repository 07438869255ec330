// The chat sidebar (a webview view in Evident's activity-bar container): strict CSP with a
// nonce, resources only from dist/, media/ and the codicons font, a ready handshake before any
// state is sent (again whenever the view is re-created), and every inbound message checked
// against the protocol before it is acted on.

import * as vscode from 'vscode';
import { Commands, EXTENSION_ID, Settings, Views } from '../shared/ids';
import {
  isSafeExternalUrl,
  isWebviewToHost,
  type ChatState,
  type HostToWebview,
  type ModelView,
  type WebviewToHost,
} from '../shared/protocol';
import { answerMarkdown } from './answerMarkdown';
import type { ChatSession } from './chatSession';
import type { ModelResolver } from './models';
import { readShowDropped, useOfflineModel, writeShowDropped } from './settings';
import type { WorkspaceIndex } from './workspaceIndex';
import { errorMessage } from './log';
import { openSettingsById } from './openSetting';
import { webviewHtml } from './webviewHtml';

export const EXAMPLE_QUESTION = 'How many days of annual leave do employees get?';

export interface ChatViewDeps {
  session: ChatSession;
  index: WorkspaceIndex;
  models: ModelResolver;
  log: vscode.LogOutputChannel;
  /** Opens a passage of a turn in the editor (citation chip clicked). */
  openEvidence(turnId: string, evidenceId: string): Promise<unknown>;
  openAnswerInEditor(turnId: string): Promise<void>;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private readonly disposables: vscode.Disposable[] = [];
  private viewDisposables: vscode.Disposable[] = [];
  /**
   * The model last described: the history is sent at once with it (describing the model asks
   * VS Code for its language models, which can take seconds after a reload); a status follows.
   */
  private lastModel: ModelView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: ChatViewDeps,
  ) {
    this.disposables.push(
      deps.session.onDidChange((event) => {
        if (event.type === 'cleared') void this.sendState();
        else this.post(event);
      }),
      // Index progress goes out at once with the model last described (the chat's figure keeps up
      // with the status bar's); a change of model is described anew.
      deps.index.onDidChange(() => void this.sendStatus(false)),
      deps.models.onDidChange(() => void this.sendStatus()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(Settings.showDropped)) this.post({ type: 'showDropped', show: readShowDropped() });
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    for (const d of this.viewDisposables) d.dispose();
    this.view = view;
    this.ready = false;
    const webview = view.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.extensionUri, 'media'),
        vscode.Uri.joinPath(this.extensionUri, 'node_modules', '@vscode', 'codicons', 'dist'),
      ],
    };
    webview.html = this.html(webview);
    this.viewDisposables = [
      webview.onDidReceiveMessage((message: unknown) => {
        if (!isWebviewToHost(message)) {
          this.deps.log.warn('Chat view: ignored a malformed message from the webview.');
          return;
        }
        this.handle(message).catch((error: unknown) => this.deps.log.error(`Chat view: ${errorMessage(error)}`));
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
        }
      }),
    ];
  }

  /** Reveals the chat view, and puts text in its input box if given. */
  async reveal(text?: string): Promise<void> {
    await vscode.commands.executeCommand(`${Views.chat}.focus`);
    if (text !== undefined) this.post({ type: 'focusInput', text });
  }

  dispose(): void {
    for (const d of [...this.disposables, ...this.viewDisposables]) d.dispose();
  }

  private post(message: HostToWebview): void {
    if (this.view && this.ready) void this.view.webview.postMessage(message);
  }

  private async handle(message: WebviewToHost): Promise<void> {
    const { session } = this.deps;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        await this.sendState();
        break;
      case 'ask':
        await session.ask(message.question);
        break;
      case 'stop':
        session.stop();
        break;
      case 'retry':
        await session.retry(message.turnId);
        break;
      case 'regenerate':
        await session.regenerate(message.turnId);
        break;
      case 'feedback':
        await session.setFeedback(message.turnId, message.feedback);
        break;
      case 'openEvidence':
        await this.deps.openEvidence(message.turnId, message.evidenceId);
        break;
      case 'copyAnswer': {
        const result = session.find(message.turnId)?.result;
        if (result) {
          // Markdown with a sources list: the ids still say where each fact is from once pasted.
          await vscode.env.clipboard.writeText(answerMarkdown(result));
          this.post({ type: 'copied', turnId: message.turnId });
        }
        break;
      }
      case 'openAnswerInEditor':
        await this.deps.openAnswerInEditor(message.turnId);
        break;
      case 'setShowDropped':
        await writeShowDropped(message.show);
        break;
      case 'runCommand':
        await this.runCommand(message.command);
        break;
      case 'openLink':
        // Links in model text go out only as plain web URLs; VS Code asks before opening.
        if (isSafeExternalUrl(message.url)) await vscode.env.openExternal(vscode.Uri.parse(message.url, true));
        else this.deps.log.warn('Chat view: refused to open a link that is not http(s).');
        break;
    }
  }

  private async runCommand(command: Extract<WebviewToHost, { type: 'runCommand' }>['command']): Promise<void> {
    switch (command) {
      case 'reindex':
        await vscode.commands.executeCommand(Commands.reindex);
        break;
      case 'setGeminiApiKey':
        await vscode.commands.executeCommand(Commands.setGeminiApiKey);
        break;
      case 'showLogs':
        this.deps.log.show();
        break;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${EXTENSION_ID}`);
        break;
      case 'clearHistory':
        // The command: it offers Undo.
        await vscode.commands.executeCommand(Commands.clearHistory);
        break;
      case 'useOfflineModel':
        await useOfflineModel();
        void vscode.window.setStatusBarMessage('$(check) Evident: the offline model answers now', 3000);
        break;
      case 'setUpSemanticSearch':
        await openSettingsById([Settings.embeddingModel, Settings.embeddingLocalPath]);
        break;
      case 'openTimeoutSetting':
        await openSettingsById([Settings.chatTimeout]);
        break;
      case 'openIndexSettings':
        await openSettingsById([Settings.include, Settings.exclude]);
        break;
      case 'openDataStoreSetting':
        await openSettingsById([Settings.vertexDataStore]);
        break;
      case 'chooseModel':
        await vscode.commands.executeCommand(Commands.chooseModel);
        break;
    }
  }

  private async describeModel(): Promise<ModelView> {
    this.lastModel = await this.deps.models.describe();
    return this.lastModel;
  }

  private state(model: ModelView): ChatState {
    const { session, index } = this.deps;
    return {
      index: index.status,
      model,
      turns: [...session.history],
      showDropped: readShowDropped(),
      busyTurnId: session.busyTurnId,
      exampleQuestion: EXAMPLE_QUESTION,
    };
  }

  private async sendState(): Promise<void> {
    if (!this.view || !this.ready) return;
    if (this.lastModel) {
      this.post({ type: 'state', state: this.state(this.lastModel) });
      await this.sendStatus();
    } else {
      this.post({ type: 'state', state: this.state(await this.describeModel()) });
    }
  }

  private async sendStatus(describeModel = true): Promise<void> {
    if (!this.view || !this.ready) return;
    const model = !describeModel && this.lastModel ? this.lastModel : await this.describeModel();
    this.post({ type: 'status', index: this.deps.index.status, model });
  }

  private html(webview: vscode.Webview): string {
    return webviewHtml(webview, this.extensionUri, {
      title: 'Evident',
      stylesheets: [
        { path: 'node_modules/@vscode/codicons/dist/codicon.css', id: 'vscode-codicon-stylesheet' },
        { path: 'media/chat.css' },
      ],
      body: '<div id="app" data-testid="evident-chat"></div>',
      script: 'dist/webview.js',
    });
  }
}

export function registerChatView(context: vscode.ExtensionContext, deps: ChatViewDeps): ChatViewProvider {
  const provider = new ChatViewProvider(context.extensionUri, deps);
  context.subscriptions.push(provider, vscode.window.registerWebviewViewProvider(Views.chat, provider));
  return provider;
}
