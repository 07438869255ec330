// Entry point of the chat webview (bundled to dist/webview.js, loaded by nonce): checks every
// message from the host with the protocol guards, hands it to the ChatApp, keeps the unsent
// question and a snapshot of the conversation across view and window reloads (VS Code keeps a
// webview view's state), shows that snapshot at once on load (the host's state replaces it as
// soon as it arrives), and sends the ready handshake.
//
// Stable selectors for end-to-end tests (all `data-testid`, inside the webview's inner frame):
//   scroller (the one scroll container: header and transcript) · composer
//   chat-header · header-model [data-backend] · header-retrieval [data-retrieval] · header-index [data-state] · header-store
//   toggle-dropped (checkbox: show dropped sentences)
//   index-progress · index-progress-text · index-progress-hint (while indexing)
//   header notices, each with notice-dismiss: model-notice (model-notice-action) · index-message
//     (index-message-reindex, index-message-log) · skipped-notice (skipped-notice-settings, skipped-notice-log)
//     · empty-index-notice (empty-index-notice-settings, empty-index-notice-reindex)
//     · lexical-hint (lexical-hint-action; its dismiss: lexical-hint-dismiss)
//   empty-state · empty-index · empty-index-text · empty-no-folder · example-question · empty-action-reindex
//     · empty-action-set-key · empty-action-index-settings · empty-action-show-log
//   transcript · announcer (polite live region: the finished answer only, and a copy)
//   turn (an article labelled by its question) [data-turn-id][data-status=pending|done|failed|cancelled]
//   question (a heading) · turn-stage [data-stage] · turn-stage-detail · turn-elapsed · answer-draft
//   answer [data-abstained] · answer-body · sentence [data-verdict=kept|exempt]
//   dropped-sentence [data-reason-code] · drop-reason · notice · partial-retrieval [data-percent] · sources · source · source-name · source-folder · source-lines
//   abstention · abstention-detail · abstention-searched · closest-passages · closest-passage · abstention-hint · stale-warning
//   citation [data-evidence-id] (one Tab stop per answer, arrow keys between chips; Enter or click opens the source)
//   citation-unknown · web-link
//   evidence-preview [hidden][data-placement=below|above] · preview-source · preview-heading · preview-text
//     (opens on chip hover or keyboard focus; closes on leave after a grace delay, blur, Escape, click, scroll;
//     never a Tab stop; Escape from it or its chip leaves focus on the chip)
//   metrics · metric-retrieved · metric-coverage · metric-dropped · metric-abstained (each [data-value])
//   answer-actions (toolbar) · copy-answer [data-copied] · open-in-editor · feedback-helpful · feedback-unhelpful [aria-pressed] · regenerate
//   follow-ups · follow-up (latest turn only)
//   turn-error [data-error-kind] · error-text · error-set-key · error-offline · error-timeout-setting · error-index-settings · retry · show-logs
//   turn-cancelled · chat-input (Enter sends, Shift+Enter new line; Escape in the transcript comes back here)
//   send-button · stop-button
//   web-link · built-in grounding: web-source [data-evidence-id][data-domain] (· web-source-title · web-source-domain)
//     · search-suggestions (a shadow root holding Google's suggestions; links: search-suggestion)
// The root element gets class `hide-dropped` when dropped sentences are hidden.

import { isHostToWebview, type WebviewToHost } from '../shared/protocol';
import { ChatApp } from './chatApp';
import { readSaved, restoredState, snapshotOf, type SavedState } from './viewState';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app');
if (!root) throw new Error('Evident chat: #app element missing');

const SNAPSHOT_DELAY_MS = 500;

let saved = readSaved(vscode.getState());
const save = (change: Partial<SavedState>): void => {
  saved = { ...saved, ...change };
  vscode.setState(saved);
};

const app = new ChatApp(
  document,
  root,
  (message) => {
    vscode.postMessage(message);
    if (message.type === 'ask') save({ input: '' });
  },
  saved.memory,
  (memory) => save({ memory }),
);

app.inputText = saved.input;
root.addEventListener('input', () => save({ input: app.inputText }));
window.addEventListener('unload', () => app.dispose());

// The conversation as last shown, at once (checked like any message from the host).
const restored = restoredState(saved);
if (restored) app.handle(restored);

let snapshotTimer: ReturnType<typeof setTimeout> | undefined;
function saveSnapshot(): void {
  if (snapshotTimer !== undefined) return;
  snapshotTimer = setTimeout(() => {
    snapshotTimer = undefined;
    const state = app.snapshot;
    if (state) save({ snapshot: snapshotOf(state) });
  }, SNAPSHOT_DELAY_MS);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostToWebview(event.data)) {
    app.handle(event.data);
    if (event.data.type === 'state' || event.data.type === 'turn' || event.data.type === 'status') saveSnapshot();
  } else console.warn('Evident chat: ignored a malformed message from the host');
});

vscode.postMessage({ type: 'ready' });
