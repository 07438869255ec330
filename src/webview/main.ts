// Entry point of the chat webview (bundled to dist/webview.js, loaded by nonce): checks every
// message from the host with the protocol guards, hands it to the ChatApp, keeps the unsent
// question across view reloads, and sends the ready handshake.
//
// Stable selectors for end-to-end tests (all `data-testid`, inside the webview's inner frame):
//   chat-header · header-model [data-backend] · header-retrieval [data-retrieval] · header-index [data-state]
//   model-notice · index-message · toggle-dropped (checkbox: show dropped sentences)
//   empty-state · empty-index · empty-model · example-question · empty-action-reindex · empty-action-set-key
//   turn [data-turn-id][data-status=pending|done|failed|cancelled] · question · turn-stage · answer-draft
//   answer [data-abstained] · answer-body · sentence [data-verdict=kept|exempt]
//   dropped-sentence [data-reason-code] · drop-reason · abstention · abstention-detail · notice · sources
//   citation [data-evidence-id] (focusable; Enter or click opens the source) · citation-unknown
//   evidence-preview [hidden][data-placement=below|above] · preview-source · preview-heading · preview-text
//     (opens on chip hover or keyboard focus; closes on leave after a grace delay, blur, Escape, click, scroll)
//   metrics · metric-retrieved · metric-coverage · metric-dropped · metric-abstained (each [data-value])
//   copy-answer · open-in-editor · turn-error · turn-cancelled · retry · show-logs · web-link
//   chat-input (Enter sends, Shift+Enter new line) · send-button · stop-button
//   built-in grounding: web-source [data-evidence-id][data-domain] (· web-source-title · web-source-domain)
//     · search-suggestions (a shadow root holding Google's suggestions; links: search-suggestion)
// The root element gets class `hide-dropped` when dropped sentences are hidden.

import { isHostToWebview, type WebviewToHost } from '../shared/protocol';
import { ChatApp } from './chatApp';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app');
if (!root) throw new Error('Evident chat: #app element missing');

const app = new ChatApp(document, root, (message) => {
  vscode.postMessage(message);
  if (message.type === 'ask') vscode.setState({ input: '' });
});

const saved = vscode.getState();
if (typeof saved === 'object' && saved !== null && 'input' in saved && typeof saved.input === 'string') app.inputText = saved.input;
root.addEventListener('input', () => vscode.setState({ input: app.inputText }));

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostToWebview(event.data)) app.handle(event.data);
  else console.warn('Evident chat: ignored a malformed message from the host');
});

vscode.postMessage({ type: 'ready' });
