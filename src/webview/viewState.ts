// What the chat webview keeps in VS Code's webview state (kept across view and window reloads):
// the unsent question, the dismissed notices, and a snapshot of the conversation that a reload
// shows at once, before the host's state arrives. State comes back untrusted: every part is
// checked, a malformed snapshot is dropped (the host's state follows anyway).

import { isHostToWebview, type ChatState, type HostToWebview } from '../shared/protocol';
import type { ViewMemory } from './chatApp';

export interface SavedState {
  input: string;
  memory: ViewMemory;
  /** The conversation as last shown (finished turns only, the latest ones). */
  snapshot?: unknown;
}

/** Turns kept in the snapshot: enough to fill the view at once; the host sends them all. */
export const SNAPSHOT_TURNS = 20;

/** The dismissed notices' keys (an older view kept only `lexicalHintDismissed`). */
function dismissedKeys(memory: Record<string, unknown>): string[] {
  const keys = Array.isArray(memory.dismissed)
    ? memory.dismissed.filter((k): k is string => typeof k === 'string')
    : [];
  if (memory.lexicalHintDismissed === true && !keys.includes('lexical')) keys.push('lexical');
  return keys;
}

export function readSaved(value: unknown): SavedState {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const memory =
    typeof record.memory === 'object' && record.memory !== null ? (record.memory as Record<string, unknown>) : {};
  return {
    input: typeof record.input === 'string' ? record.input : '',
    memory: { dismissed: dismissedKeys(memory) },
    snapshot: record.snapshot,
  };
}

/** The state to keep: the latest finished turns, nothing running. */
export function snapshotOf(state: ChatState): ChatState {
  const turns = state.turns.filter((t) => t.status !== 'pending').slice(-SNAPSHOT_TURNS);
  return { ...state, turns, busyTurnId: undefined };
}

/** The kept snapshot as the state message the app shows at once; undefined when absent or malformed. */
export function restoredState(saved: SavedState): Extract<HostToWebview, { type: 'state' }> | undefined {
  if (saved.snapshot === undefined) return undefined;
  const message: unknown = { type: 'state', state: saved.snapshot };
  return isHostToWebview(message) && message.type === 'state' ? message : undefined;
}
